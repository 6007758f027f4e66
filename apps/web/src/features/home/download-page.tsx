import { Link } from 'react-router';
import { EmptyState } from '../../components/site/empty-state';
import { SiteShell } from '../../components/site/site-shell';
import { useDocumentTitle } from '../../components/site/use-document-title';
import { useLocaleText } from '../../lib/use-locale-text';
import { useUserStore } from '../auth/user-store';

/**
 * Public (SPEC §2): where installation media would be offered; none is published yet. Someone
 * signed in is offered the way back home (which leads staff on to the back office), not a login;
 * without a session the shell shows no search or avatar menu.
 */
export function DownloadPage() {
  const { t } = useLocaleText();
  const signedIn = useUserStore((state) => state.token !== undefined);
  useDocumentTitle(t('route.download'));
  return (
    <SiteShell>
      <h1 className="site-page-title">{t('download.title')}</h1>
      <EmptyState
        title={t('download.empty')}
        text={t('download.text')}
        action={
          signedIn ? (
            <Link className="button button--primary" to="/home">
              {t('page.backHome')}
            </Link>
          ) : (
            <Link className="button button--primary" to="/login">
              {t('download.login')}
            </Link>
          )
        }
      />
    </SiteShell>
  );
}
