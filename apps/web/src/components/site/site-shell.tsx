import { LAYOUT_DEFAULTS } from '@cloud-classroom/shared/constants';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { avatarUrl, canUseBackOffice, useUserStore } from '../../features/auth/user-store';
import { NotificationBell } from '../../features/notifications/site/notification-bell';
import { setLocale, useLocaleText } from '../../lib/use-locale-text';
import { ConfirmDialog } from '../confirm-dialog';
import './site.css';

/** The product's cloud mark, drawn in the theme colour so it follows the chosen theme. */
function Logo() {
  return (
    <svg className="site-brand__logo" viewBox="0 0 64 64" aria-hidden="true">
      <rect width="64" height="64" rx="14" fill="var(--color-primary-strong)" />
      <path d="M16 40a12 12 0 0 1 4-23 16 16 0 0 1 29 5 9 9 0 0 1-1 18z" fill="#fff" />
      <path d="M26 31h12M26 36h8" stroke="var(--color-primary-strong)" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

function SearchBox() {
  const { t } = useLocaleText();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const current = pathname === '/home' ? (params.get('q') ?? '') : '';
  const [text, setText] = useState(current);
  const [shown, setShown] = useState(current);
  // Following the address (back, clearing the search) keeps the box saying what the list shows.
  if (shown !== current) {
    setShown(current);
    setText(current);
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    void navigate(q === '' ? '/home' : `/home?q=${encodeURIComponent(q)}`);
  };
  return (
    <form className="site-search" role="search" onSubmit={submit}>
      <input
        className="site-search__input"
        type="search"
        name="q"
        value={text}
        // limit-exempt: a search, not a value kept; no query comes near 100 characters.
        maxLength={100}
        placeholder={t('site.search')}
        aria-label={t('site.search')}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="site-search__button" aria-label={t('site.searchButton')}>
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2.5" />
          <path d="m16.5 16.5 5 5" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
        </svg>
      </button>
    </form>
  );
}

export function UserAvatar({ large = false }: { large?: boolean }) {
  const user = useUserStore((state) => state.user);
  const url = avatarUrl(user);
  const className = `site-avatar${large ? ' site-avatar--large' : ''}`;
  if (url !== undefined) return <img className={className} src={url} alt="" />;
  const name = user?.nickName || user?.username || '?';
  return (
    <span className={className} aria-hidden="true">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/**
 * The avatar's menu: a button that opens a list of links (Enter, Space or a click), arrow keys
 * move between them, Escape or a click elsewhere closes it and focus returns to the button.
 */
function UserMenu({ onLogout }: { onLogout: () => void }) {
  const { t } = useLocaleText();
  const user = useUserStore((state) => state.user);
  const staff = useUserStore((state) => canUseBackOffice(state.roles));
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const name = user?.nickName || user?.username || '';

  const items = () => [...(rootRef.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];

  useEffect(() => {
    if (!open) return undefined;
    items()[0]?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: list.length - 1 };
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      setOpen(false);
    } else if (event.key in moves) {
      event.preventDefault();
      const next = ((moves[event.key] ?? 0) + list.length) % list.length;
      list[next]?.focus();
    }
  };

  return (
    <div className="site-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="site-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t('site.accountMenu', { name })}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <UserAvatar />
        <span className="site-menu__name">{name}</span>
      </button>
      {open && (
        <ul id={menuId} className="site-menu__list" role="menu" aria-label={t('site.accountMenu', { name })} onKeyDown={onKeyDown}>
          <li role="none">
            <Link role="menuitem" className="site-menu__item" to="/user-center" onClick={() => close(false)}>
              {t('site.userCenter')}
            </Link>
          </li>
          <li role="none">
            <Link role="menuitem" className="site-menu__item" to="/user-setting" onClick={() => close(false)}>
              {t('site.userSetting')}
            </Link>
          </li>
          {staff && (
            <li role="none">
              <Link role="menuitem" className="site-menu__item" to="/dashboard" onClick={() => close(false)}>
                {t('home.backOffice')}
              </Link>
            </li>
          )}
          <li role="separator" className="site-menu__divider" />
          <li role="none">
            <button
              type="button"
              role="menuitem"
              className="site-menu__item"
              onClick={() => {
                close(true);
                onLogout();
              }}
            >
              {t('home.logout')}
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}

function LanguageSwitch() {
  const { t, language } = useLocaleText();
  return (
    <button
      type="button"
      className="site-lang"
      lang={language === 'en-US' ? 'zh-CN' : 'en-US'}
      onClick={() => void setLocale(language === 'en-US' ? 'zh-CN' : 'en-US')}
    >
      {t('login.language')}
    </button>
  );
}

function SiteFooter() {
  const caseNumber = LAYOUT_DEFAULTS.caseNumber || import.meta.env.VITE_CASE_NUMBER || '';
  return (
    <footer className="site-footer">
      <span>{LAYOUT_DEFAULTS.footerTxt}</span>
      {caseNumber !== '' && (
        <>
          {' '}
          <a href={LAYOUT_DEFAULTS.caseNumberUrl} target="_blank" rel="noreferrer">
            {caseNumber}
          </a>
        </>
      )}
    </footer>
  );
}

/**
 * The frame of every learner page: brand, course search, my learning, language, the avatar's
 * menu (settings, my learning, the back office for staff, logout) and the footer. Without a
 * session (the public /download) it shows the brand, language and a way to the login.
 */
export function SiteShell({ children }: { children: ReactNode }) {
  const { t } = useLocaleText();
  const hasSession = useUserStore((state) => state.token !== undefined);
  // The public /download does not load who is signed in: there a session shows as a way home.
  const signedIn = useUserStore((state) => state.token !== undefined && state.user !== undefined);
  const { pathname } = useLocation();
  const [confirmingLogout, setConfirmingLogout] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);

  const logout = async () => {
    setLoggingOut(true);
    await useUserStore.getState().logout();
    window.location.assign('/login');
  };

  return (
    <div className="site">
      <header className="site-header">
        <div className="site-header__inner">
          {/* Named on its own: on a phone the title beside the logo is hidden. */}
          <Link className="site-brand" to={hasSession ? '/home' : '/login'} aria-label={t('login.title')}>
            <Logo />
            <span className="site-brand__title">{t('login.title')}</span>
          </Link>
          {signedIn && <SearchBox />}
          <nav className="site-nav" aria-label={t('site.navigation')}>
            {signedIn && (
              <Link className="site-nav__link" to="/user-center" aria-current={pathname === '/user-center' ? 'page' : undefined}>
                {t('site.myLearning')}
              </Link>
            )}
            <LanguageSwitch />
            {signedIn && <NotificationBell />}
            {signedIn ? (
              <UserMenu onLogout={() => setConfirmingLogout(true)} />
            ) : hasSession ? (
              <Link className="button button--primary button--small" to="/home">
                {t('route.home')}
              </Link>
            ) : (
              <Link className="button button--primary button--small" to="/login">
                {t('download.login')}
              </Link>
            )}
          </nav>
        </div>
      </header>
      <main className="site-main" id="main">
        {children}
      </main>
      <SiteFooter />
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
