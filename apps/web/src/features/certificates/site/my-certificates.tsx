import type { MyCertificate } from '@cloud-classroom/shared/certificates';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/site/empty-state';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { useSiteData } from '../../../components/site/use-site-data';
import { useLocaleText } from '../../../lib/use-locale-text';
import { useNotificationPushes } from '../../notifications/site/notification-store';
import { CertificateDates, CertificateStatusTag } from './certificate-status';
import './certificate-site.css';

/** What a push tells of my certificates: they load again. */
const CERTIFICATE_KINDS = ['certificate_issued'] as const;

function CertificateItem({ certificate }: { certificate: MyCertificate }) {
  const { t } = useLocaleText();
  const titleId = `my-cert-${certificate.id}`;
  return (
    <li className="site-card cert-site-item">
      <article aria-labelledby={titleId}>
        <h3 id={titleId} className="cert-site-item__title">
          <Link className="site-link" to={`/view-cert?id=${certificate.id}`} aria-label={t('cert.listed', { title: certificate.title, number: certificate.number })}>
            {certificate.title}
          </Link>
        </h3>
        <p className="cert-site-item__meta">
          <CertificateStatusTag status={certificate.status} />
          <span className="site-muted">{certificate.number}</span>
        </p>
        <dl className="cert-site-item__facts">
          <CertificateDates certificate={certificate} />
        </dl>
      </article>
    </li>
  );
}

/**
 * My certificates, newest first, each leading to its page. `belongs` narrows them (a course's
 * page shows those of its terms and exams); the server's list is always the session's own.
 */
export function MyCertificates({ emptyTitle, belongs }: { emptyTitle: string; belongs?: (certificate: MyCertificate) => boolean }) {
  const { t } = useLocaleText();
  const mine = useSiteData<MyCertificate[]>('api/site/my/certificates');
  useNotificationPushes(CERTIFICATE_KINDS, mine.reload);
  if (mine.loading && mine.data === undefined) return <LoadingSkeleton lines={2} />;
  if (mine.error !== undefined) return <ErrorState error={mine.error} onRetry={mine.reload} section />;
  const shown = (mine.data ?? []).filter((certificate) => belongs === undefined || belongs(certificate));
  if (shown.length === 0) return <EmptyState title={emptyTitle} />;
  return (
    <ul className="cert-site-list" aria-label={t('cert.myCertificates')}>
      {shown.map((certificate) => (
        <CertificateItem key={certificate.id} certificate={certificate} />
      ))}
    </ul>
  );
}
