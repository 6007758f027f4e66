import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { navigateOutsideReact } from './app/root-layout';
import { AppRoutes } from './app/routes';
import { expireSession } from './features/auth/expire-session';
import { storedTheme } from './features/layout/settings-store';
import { configureHttpClient } from './lib/http-client';
import { applyThemeColour } from './lib/theme-colour';
import { showToast } from './lib/toast';
import { getLocale, loadCatalogue, setLocale, textOf } from './lib/use-locale-text';
import './styles.css';

// The page's language: its catalogue comes while the app starts drawing, alongside the session's
// first request; the pages wait for it (useLocaleText).
void setLocale(getLocale(), false);

configureHttpClient({
  onUnauthorized: expireSession,
  onForbidden: () => navigateOutsideReact('/401'),
  notifyError: (message) => showToast(message),
  translate: (key) => textOf(key),
  // English is where a server message's catalogue entry is found (lib/use-locale-text).
  prepareMessages: () => loadCatalogue('en-US').then(
    () => {},
    () => {},
  ),
});

// A page chunk that no longer exists means a new version was deployed while this tab was open:
// reload once to pick it up, rather than leave a blank view.
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem('chunk-reload-at') ?? 0);
  if (Date.now() - last < 10_000) return;
  event.preventDefault();
  sessionStorage.setItem('chunk-reload-at', String(Date.now()));
  window.location.reload();
});

// The theme colour reaches the pages without antd (login, learner pages) through CSS variables.
applyThemeColour(storedTheme());

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      {/* What shows while the first visit's catalogue comes, where no page's own placeholder does. */}
      <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
        <AppRoutes />
      </Suspense>
    </BrowserRouter>
  </StrictMode>,
);
