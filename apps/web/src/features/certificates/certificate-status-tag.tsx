import type { CertificateStatus } from '@cloud-classroom/shared/certificates';
import { Tag } from 'antd';
import { useCertificateMessages } from './certificates-messages';

const COLORS: Record<CertificateStatus, string> = { valid: 'green', expired: 'orange', revoked: 'red', superseded: 'default' };

export function CertificateStatusTag({ status }: { status: CertificateStatus }) {
  const t = useCertificateMessages();
  return <Tag color={COLORS[status]}>{t(`certs.status.${status}`)}</Tag>;
}
