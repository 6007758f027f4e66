import { Link } from 'react-router';
import { useLocaleText } from '../../lib/use-locale-text';
import { useUserStore } from '../auth/user-store';

/**
 * Public (SPEC §2): where installation media would be offered; none is published yet. Someone
 * signed in is offered the way back home (which leads staff on to the back office), not a login.
 */
export function DownloadPage() {
  const { t } = useLocaleText();
  const signedIn = useUserStore((state) => state.token !== undefined);
  return (
    <main className="status-page">
      <h1 className="status-page__title">{t('download.title')}</h1>
      <p className="status-page__text">{t('download.text')}</p>
      {signedIn ? (
        <Link className="button button--primary" to="/home">
          {t('page.backHome')}
        </Link>
      ) : (
        <Link className="button button--primary" to="/login">
          {t('download.login')}
        </Link>
      )}
    </main>
  );
}
