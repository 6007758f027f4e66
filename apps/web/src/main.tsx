import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createAppRoutes } from './app/routes';
import { expireSession } from './features/auth/expire-session';
import { storedTheme } from './features/layout/settings-store';
import { configureHttpClient } from './lib/http-client';
import { applyThemeColour } from './lib/theme-colour';
import { showToast } from './lib/toast';
import { getLocale, setLocale } from './lib/use-locale-text';
import { translate } from '@cloud-classroom/shared/messages';
import './styles.css';

const router = createBrowserRouter(createAppRoutes());

configureHttpClient({
  onUnauthorized: expireSession,
  onForbidden: () => void router.navigate('/401'),
  notifyError: (message) => showToast(message),
  translate: (key) => translate(getLocale(), key),
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

setLocale(getLocale(), false);
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
