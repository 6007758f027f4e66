/** A learner's certificate as `api/site/my/certificates` answers it (tests only). */
import type { MyCertificate } from '@cloud-classroom/shared/certificates';

export function myCertificate(id: number, title: string, extra: Partial<MyCertificate> = {}): MyCertificate {
  return {
    id,
    number: `CC-2026-${String(id).padStart(6, '0')}`,
    code: 'K7QX2M9PLA4D',
    holderName: '李明',
    title,
    score: null,
    issuedOn: '2026-03-02',
    expiresOn: null,
    status: 'valid',
    issuedAt: '2026-03-02 10:15:00',
    expiresAt: null,
    revokedAt: null,
    revokeReason: null,
    supersededBy: null,
    examId: null,
    termId: null,
    ...extra,
  };
}
