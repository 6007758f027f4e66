import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useLocaleText } from '../../lib/use-locale-text';
import { canUseBackOffice, useUserStore } from '../auth/user-store';

/**
 * The landing page of everyone signed in (`/` leads here). The course catalogue, learning
 * records and certificates join it with the learner issue; until then it says who is signed in,
 * offers staff the back office, and lets them leave.
 */
export function HomePage() {
  const { t } = useLocaleText();
  const user = useUserStore((state) => state.user);
  const staff = useUserStore((state) => canUseBackOffice(state.roles));
  const [confirmingLogout, setConfirmingLogout] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  useEffect(() => {
    document.title = `${t('route.home')} - ${t('login.title')}`;
  }, [t]);

  const logout = async () => {
    setLoggingOut(true);
    await useUserStore.getState().logout();
    window.location.assign('/login');
  };

  return (
    <div className="home-page">
      <header className="home-header">
        <strong className="home-header__brand">{t('login.title')}</strong>
        <span className="home-header__user">{user?.nickName ?? user?.username}</span>
        <button type="button" className="button" onClick={() => setConfirmingLogout(true)}>
          {t('home.logout')}
        </button>
      </header>
      <main className="home-main">
        <h1>{t('home.welcome', { name: user?.nickName ?? user?.username ?? '' })}</h1>
        {staff && (
          <section className="home-card" aria-labelledby="home-back-office">
            <div>
              <h2 id="home-back-office" className="home-card__title">
                {t('home.backOffice')}
              </h2>
              <p className="home-card__text">{t('home.backOfficeText')}</p>
            </div>
            <Link className="button button--primary button--large" to="/dashboard">
              {t('home.openBackOffice')}
            </Link>
          </section>
        )}
        <p>{t('home.empty')}</p>
      </main>
      <ConfirmDialog
        open={confirmingLogout}
        title={t('logout.confirmTitle')}
        text={t('logout.confirmText')}
        confirmLabel={t('common.confirm')}
        cancelLabel={t('common.cancel')}
        busy={loggingOut}
        onConfirm={() => void logout()}
        onCancel={() => setConfirmingLogout(false)}
      />
    </div>
  );
}
