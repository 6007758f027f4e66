import { useEffect } from 'react';
import { Link } from 'react-router';
import { canUseBackOffice, useUserStore } from '../auth/user-store';
import { useLocaleText } from '../../lib/use-locale-text';

/**
 * The learner's landing page. The course catalogue, learning records and certificates join it
 * with the learner issue; until then it says who is signed in and lets them leave.
 */
export function HomePage() {
  const { t } = useLocaleText();
  const user = useUserStore((state) => state.user);
  const staff = useUserStore((state) => canUseBackOffice(state.roles));
  useEffect(() => {
    document.title = `${t('route.home')} - ${t('login.title')}`;
  }, [t]);

  const logout = async () => {
    if (!window.confirm(`${t('logout.confirmTitle')}\n${t('logout.confirmText')}`)) return;
    await useUserStore.getState().logout();
    window.location.assign('/login');
  };

  return (
    <div className="home-page">
      <header className="home-header">
        <strong className="home-header__brand">{t('login.title')}</strong>
        <span className="home-header__user">{user?.nickName ?? user?.username}</span>
        {staff && (
          <Link className="button" to="/dashboard">
            {t('home.backOffice')}
          </Link>
        )}
        <button type="button" className="button" onClick={() => void logout()}>
          {t('home.logout')}
        </button>
      </header>
      <main className="home-main">
        <h1>{t('home.welcome', { name: user?.nickName ?? user?.username ?? '' })}</h1>
        <p>{t('home.empty')}</p>
      </main>
    </div>
  );
}
