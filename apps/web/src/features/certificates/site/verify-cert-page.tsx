import type { CertificateStatus, CertificateVerification } from '@cloud-classroom/shared/certificates';
import type { MessageKey } from '@cloud-classroom/shared/messages';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { SiteShell } from '../../../components/site/site-shell';
import { useDocumentTitle } from '../../../components/site/use-document-title';
import { useSiteData } from '../../../components/site/use-site-data';
import { HttpError } from '../../../lib/http-client';
import { useLocaleText } from '../../../lib/use-locale-text';
import { CertificateStatusTag, dayOf, lastValidDay } from './certificate-status';
import './certificate-site.css';

const HEADLINE: Record<CertificateStatus, MessageKey> = {
  valid: 'verifyCert.valid',
  expired: 'verifyCert.expired',
  revoked: 'verifyCert.revoked',
  superseded: 'verifyCert.superseded',
};
const TONE: Record<CertificateStatus, string> = { valid: 'success', expired: 'warning', revoked: 'danger', superseded: 'warning' };

function Verdict({ result }: { result: CertificateVerification }) {
  const { t } = useLocaleText();
  return (
    <div className={`cert-site-verdict cert-site-verdict--${TONE[result.status]}`}>
      <p className="cert-site-verdict__headline">
        <CertificateStatusTag status={result.status} /> {t(HEADLINE[result.status])}
      </p>
      {result.status === 'revoked' && result.revokedAt !== null && <p>{t('verifyCert.revokedOn', { date: dayOf(result.revokedAt) })}</p>}
      {result.status === 'superseded' && <p>{t('verifyCert.supersededText')}</p>}
      <dl className="cert-site-facts">
        <div>
          <dt>{t('cert.holder')}</dt>
          <dd>
            {result.holder}
            <span className="cert-site-facts__note">{t('verifyCert.masked')}</span>
          </dd>
        </div>
        <div>
          <dt>{t('cert.awardedFor')}</dt>
          <dd>{result.title}</dd>
        </div>
        <div>
          <dt>{t('cert.number')}</dt>
          <dd className="cert-site-facts__code">{result.number}</dd>
        </div>
        <div>
          <dt>{t('cert.issuedOn')}</dt>
          <dd>{dayOf(result.issuedAt)}</dd>
        </div>
        <div>
          <dt>{t('cert.expiresOn')}</dt>
          <dd>{result.expiresAt === null ? t('cert.noExpiry') : lastValidDay(result.expiresAt)}</dd>
        </div>
      </dl>
    </div>
  );
}

/** The check's answer: a verdict, "no such certificate" (a wrong code answers as an unknown number), or "too many checks". */
function Result({ number, code }: { number: string; code: string }) {
  const { t } = useLocaleText();
  const checked = useSiteData<CertificateVerification>('api/public/certificates/verify', { number, code });
  let content;
  if (checked.loading) content = <LoadingSkeleton lines={4} />;
  else if (checked.data !== undefined) content = <Verdict result={checked.data} />;
  // A malformed number (400) names no certificate either.
  else if (checked.error instanceof HttpError && (checked.error.status === 404 || checked.error.status === 400)) {
    content = (
      <div className="cert-site-verdict cert-site-verdict--danger">
        <p className="cert-site-verdict__headline">{t('verifyCert.notFound')}</p>
        <p>{t('verifyCert.notFoundText')}</p>
      </div>
    );
  } else if (checked.error instanceof HttpError && checked.error.status === 429) {
    content = (
      <div className="cert-site-verdict cert-site-verdict--warning">
        <p className="cert-site-verdict__headline">{t('verifyCert.tooMany')}</p>
        <button type="button" className="button" onClick={checked.reload}>
          {t('site.retry')}
        </button>
      </div>
    );
  } else content = <ErrorState error={checked.error} onRetry={checked.reload} section />;
  return (
    <section className="cert-site-result" aria-labelledby="verify-result" aria-live="polite" aria-busy={checked.loading}>
      <h2 id="verify-result" className="site-visually-hidden">
        {t('verifyCert.result')}
      </h2>
      {content}
    </section>
  );
}

/**
 * The public check (`/verify-cert?number=…&code=…`, no login: the address a certificate's QR
 * code holds), with a form to type both from the paper. The address keeps what was asked, so
 * a result can be shared and reloaded.
 */
export function VerifyCertPage() {
  const { t } = useLocaleText();
  useDocumentTitle(t('verifyCert.title'));
  const [params, setParams] = useSearchParams();
  const number = params.get('number')?.trim() ?? '';
  const code = params.get('code')?.trim() ?? '';
  const [typed, setTyped] = useState({ number, code });
  const [shown, setShown] = useState({ number, code });
  // Following the address (back, a link) keeps the form saying what the result is for.
  if (shown.number !== number || shown.code !== code) {
    setShown({ number, code });
    setTyped({ number, code });
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setParams({ number: typed.number.trim(), code: typed.code.trim() });
  };

  return (
    <SiteShell>
      <div className="cert-site-page">
        <h1 className="site-page-title">{t('verifyCert.title')}</h1>
        <p className="site-muted">{t('verifyCert.intro')}</p>
        <form className="site-card cert-site-form" onSubmit={submit}>
          <div className="cert-site-form__field">
            <label htmlFor="verify-number">{t('cert.number')}</label>
            <input
              id="verify-number"
              className="cert-site-input"
              name="number"
              required
              // limit-exempt: numbers and codes are printed, fixed-length and far shorter.
              maxLength={64}
              autoComplete="off"
              spellCheck={false}
              value={typed.number}
              onChange={(event) => setTyped({ ...typed, number: event.target.value })}
            />
          </div>
          <div className="cert-site-form__field">
            <label htmlFor="verify-code">{t('cert.code')}</label>
            <input
              id="verify-code"
              className="cert-site-input"
              name="code"
              required
              // limit-exempt: numbers and codes are printed, fixed-length and far shorter.
              maxLength={64}
              autoComplete="off"
              spellCheck={false}
              value={typed.code}
              onChange={(event) => setTyped({ ...typed, code: event.target.value })}
            />
          </div>
          <button type="submit" className="button button--primary cert-site-form__submit">
            {t('verifyCert.submit')}
          </button>
        </form>
        {number !== '' && code !== '' && <Result number={number} code={code} />}
      </div>
    </SiteShell>
  );
}
