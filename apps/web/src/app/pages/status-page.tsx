
import { Link, useNavigate } from 'react-router';
import type { MessageKey } from '@cloud-classroom/shared/messages';
import { useLocaleText } from '../../lib/use-locale-text';

type StatusPageProps = { code: '404' | '401'; titleKey: MessageKey; textKey: MessageKey };

// The browser router keeps its position in history.state.idx; 0 (or none) means this page was
// opened directly, and "back" would leave the app or do nothing.
function canGoBack(): boolean {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && 'idx' in state && typeof state.idx === 'number' && state.idx > 0;
}

/** The full-page answer for a path that does not exist or may not be seen. */
export function StatusPage({ code, titleKey, textKey }: StatusPageProps) {
  const { t } = useLocaleText();
  const navigate = useNavigate();
  return (
    <main className="status-page" data-status={code}>
      <p className="status-page__code" aria-hidden="true">
        {code}
      </p>
      <h1 className="status-page__title">{t(titleKey)}</h1>
      <p className="status-page__text">{t(textKey)}</p>
      <div className="status-page__actions">
        <Link className="button button--primary" to="/">
          {t('page.backHome')}
        </Link>
        {canGoBack() && (
          <button className="button" type="button" onClick={() => navigate(-1)}>
            {t('page.back')}
          </button>
        )}
      </div>
    </main>
  );
}
