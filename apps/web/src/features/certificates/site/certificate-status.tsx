import type { CertificateStatus, MyCertificate } from '@cloud-classroom/shared/certificates';
import { SiteTag, type TagTone } from '../../../components/site/site-tag';
import { useLocaleText } from '../../../lib/use-locale-text';

const STATUS_TONE: Record<CertificateStatus, TagTone> = {
  valid: 'success',
  expired: 'warning',
  revoked: 'danger',
  superseded: 'default',
};

export function CertificateStatusTag({ status }: { status: CertificateStatus }) {
  const { t } = useLocaleText();
  return <SiteTag tone={STATUS_TONE[status]}>{t(`cert.status.${status}`)}</SiteTag>;
}

/** A certificate's issue and expiry dates, as two entries of the caller's `<dl>`. */
export function CertificateDates({ certificate }: { certificate: Pick<MyCertificate, 'issuedOn' | 'expiresOn'> }) {
  const { t } = useLocaleText();
  return (
    <>
      <div>
        <dt>{t('cert.issuedOn')}</dt>
        <dd>{certificate.issuedOn}</dd>
      </div>
      <div>
        <dt>{t('cert.expiresOn')}</dt>
        <dd>{certificate.expiresOn ?? t('cert.noExpiry')}</dd>
      </div>
    </>
  );
}

/** The calendar day of a wire time (`yyyy-MM-dd HH:mm:ss`). */
export const dayOf = (time: string) => time.slice(0, 10);

/**
 * The last day a certificate was valid, from the moment it expires: the server stores the start
 * of the day after the printed expiry date, so a time at midnight gives the day before it.
 */
export function lastValidDay(expiresAt: string): string {
  const day = dayOf(expiresAt);
  if (expiresAt.slice(11) !== '00:00:00') return day;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date - 1)).toISOString().slice(0, 10);
}
