import { certificateVerificationPath } from '@cloud-classroom/shared/certificate-links';
import type { MyCertificate } from '@cloud-classroom/shared/certificates';
import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { SiteShell } from '../../../components/site/site-shell';
import { useDocumentTitle } from '../../../components/site/use-document-title';
import { useSiteData } from '../../../components/site/use-site-data';
import { apiUrl, HttpError } from '../../../lib/http-client';
import { useLocaleText } from '../../../lib/use-locale-text';
import { idParam } from '../../courses/site/id-param';
import { CertificateDates, CertificateStatusTag, dayOf } from './certificate-status';
import './certificate-site.css';

/** What the certificate's status means for it, said once above it (nothing for a valid one). */
function StatusNotice({ certificate }: { certificate: MyCertificate }) {
  const { t } = useLocaleText();
  if (certificate.status === 'revoked' && certificate.revokedAt !== null) {
    return (
      <div className="site-notice site-notice--danger cert-site-notice" role="status">
        <p>{t('cert.revokedOn', { date: dayOf(certificate.revokedAt) })}</p>
        {certificate.revokeReason !== null && <p>{t('cert.revokeReason', { reason: certificate.revokeReason })}</p>}
      </div>
    );
  }
  if (certificate.status === 'superseded') {
    return (
      <div className="site-notice site-notice--warning cert-site-notice" role="status">
        <p>{t('cert.supersededText')}</p>
        {certificate.supersededBy !== null && (
          <Link className="site-link" to={`/view-cert?id=${certificate.supersededBy}`}>
            {t('cert.viewNewer')}
          </Link>
        )}
      </div>
    );
  }
  if (certificate.status === 'expired' && certificate.expiresOn !== null) {
    return (
      <div className="site-notice site-notice--warning cert-site-notice" role="status">
        <p>{t('cert.expiredText', { date: certificate.expiresOn })}</p>
      </div>
    );
  }
  return null;
}

/** The printed values, laid out as the paper shows them. */
function CertificateSheet({ certificate }: { certificate: MyCertificate }) {
  const { t } = useLocaleText();
  return (
    <section className="cert-site-sheet" aria-labelledby="cert-title">
      <p className="cert-site-sheet__kicker">{t('cert.title')}</p>
      <h1 id="cert-title" className="cert-site-sheet__title">
        {certificate.title}
      </h1>
      <p className="cert-site-sheet__holder">
        <span className="site-visually-hidden">{t('cert.holder')}: </span>
        {certificate.holderName}
      </p>
      <p className="cert-site-sheet__status">
        <CertificateStatusTag status={certificate.status} />
      </p>
      <dl className="cert-site-facts">
        <div>
          <dt>{t('cert.number')}</dt>
          <dd className="cert-site-facts__code">{certificate.number}</dd>
        </div>
        {certificate.score !== null && (
          <div>
            <dt>{t('cert.score')}</dt>
            <dd>{certificate.score}</dd>
          </div>
        )}
        <CertificateDates certificate={certificate} />
      </dl>
    </section>
  );
}

type Copying = 'idle' | 'copied' | 'failed';

/** The public verification link (what the QR code holds), to copy or open. */
function VerificationLink({ certificate }: { certificate: MyCertificate }) {
  const { t } = useLocaleText();
  const path = certificateVerificationPath(certificate.number, certificate.code);
  const url = `${window.location.origin}${path}`;
  const [copying, setCopying] = useState<Copying>('idle');
  const input = useRef<HTMLInputElement>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopying('copied');
    } catch {
      // No clipboard (an insecure origin, a refused permission): select it for the person to copy.
      input.current?.select();
      setCopying('failed');
    }
  };

  return (
    <section className="site-card cert-site-verify" aria-labelledby="cert-verification">
      <h2 id="cert-verification" className="site-section__title">
        {t('cert.verification')}
      </h2>
      <p className="site-muted cert-site-verify__hint">{t('cert.verificationHint')}</p>
      <dl className="cert-site-facts cert-site-facts--compact">
        <div>
          <dt>{t('cert.code')}</dt>
          <dd className="cert-site-facts__code">{certificate.code}</dd>
        </div>
      </dl>
      <label className="cert-site-verify__label" htmlFor="cert-verification-link">
        {t('cert.verificationLink')}
      </label>
      <div className="cert-site-verify__row">
        <input
          ref={input}
          id="cert-verification-link"
          className="cert-site-input"
          type="text"
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button" onClick={() => void copy()}>
          {t('cert.copyLink')}
        </button>
      </div>
      <p className="cert-site-verify__feedback" role="status">
        {copying === 'copied' && t('cert.copied')}
        {copying === 'failed' && t('cert.copyFailed')}
      </p>
      <Link className="site-link" to={path}>
        {t('cert.openVerification')}
      </Link>
    </section>
  );
}

/**
 * One of my certificates (`/view-cert?id=…`): what it says and what it is now, its PDF (the
 * route takes the session from the cookie, so a plain link downloads it), and the public
 * verification link to share.
 */
export function ViewCertPage() {
  const { t } = useLocaleText();
  const [params] = useSearchParams();
  const id = idParam(params.get('id') ?? undefined);
  const loaded = useSiteData<MyCertificate>(id === undefined ? undefined : `api/site/my/certificates/${id}`);
  const certificate = loaded.data;
  useDocumentTitle(certificate?.title ?? t('cert.title'));

  let body;
  if (id === undefined) body = <ErrorState error={new HttpError(404, 'not found')} />;
  else if (certificate === undefined && loaded.loading) body = <LoadingSkeleton lines={6} />;
  else if (certificate === undefined) body = <ErrorState error={loaded.error} onRetry={loaded.reload} />;
  else {
    body = (
      <div className="cert-site-page">
        <p className="cert-site-back">
          <Link className="site-link" to="/user-center">
            {t('cert.myCertificates')}
          </Link>
        </p>
        <StatusNotice certificate={certificate} />
        <CertificateSheet certificate={certificate} />
        <div className="cert-site-actions">
          <a className="button button--primary button--large" href={apiUrl(`api/certificates/${certificate.id}/pdf`)} download={`${certificate.number}.pdf`}>
            {t('cert.downloadPdf')}
          </a>
        </div>
        <VerificationLink certificate={certificate} />
      </div>
    );
  }
  return <SiteShell>{body}</SiteShell>;
}
