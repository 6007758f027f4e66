import { HttpError } from '../../lib/http-client';
import { localizeMessage, useLocaleText } from '../../lib/use-locale-text';

/**
 * A failed load, said in the page's language, with a retry. A page's subject answering 404 is
 * "not found or not published" rather than a failure: retrying would not help, so it offers the
 * way home instead. A section of a page (`section`) always reads as a failure to load.
 */
export function ErrorState({ error, onRetry, section = false }: { error: unknown; onRetry?: () => void; section?: boolean }) {
  const { t, language } = useLocaleText();
  const notFound = !section && error instanceof HttpError && error.status === 404;
  const message = error instanceof Error ? localizeMessage(language, error.message) : undefined;
  return (
    <div className="site-state site-state--error" role="alert">
      <svg className="site-state__icon" viewBox="0 0 48 48" aria-hidden="true">
        <circle cx="24" cy="24" r="19" fill="none" stroke="currentColor" strokeWidth="2.5" />
        <path d="M24 14v13M24 32v2" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <p className="site-state__title">{t(notFound ? 'site.notFound' : 'site.loadFailed')}</p>
      {message !== undefined && !notFound && <p className="site-state__text">{message}</p>}
      {notFound ? (
        <a className="button" href="/home">
          {t('page.backHome')}
        </a>
      ) : (
        onRetry !== undefined && (
          <button type="button" className="button" onClick={onRetry}>
            {t('site.retry')}
          </button>
        )
      )}
    </div>
  );
}
