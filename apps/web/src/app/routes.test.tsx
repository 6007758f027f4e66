import { POINT_COOKIE, TOKEN_COOKIE } from '@cloud-classroom/shared/constants';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { useEffect } from 'react';
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateFunction } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { expireSession, resetExpireSessionForTests } from '../features/auth/expire-session';
import { useUserStore } from '../features/auth/user-store';
import { configureHttpClient } from '../lib/http-client';
import { initI18n } from '../lib/i18n';
import { navigateOutsideReact } from './root-layout';
import { AppRoutes } from './routes';

/** The app's routes at `path`, as main.tsx mounts them, with the router's location and navigate held out for the test. */
function renderAt(path: string) {
  const router = {} as { location: Location; navigate: NavigateFunction };
  function RouterProbe() {
    const location = useLocation();
    const navigate = useNavigate();
    useEffect(() => {
      Object.assign(router, { location, navigate });
    }, [location, navigate]);
    return null;
  }
  render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
      <RouterProbe />
    </MemoryRouter>,
  );
  return router;
}

function signInAs(roles: string[]) {
  Cookies.set(TOKEN_COOKIE, 'Bearer test');
  const user = { id: 9, username: 'learner1', nickName: 'Learner One', avatarName: null };
  // The user info for the gate; the learner pages' own reads find nothing, which they show in place.
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) =>
      new URL(input, 'http://localhost').pathname === '/auth/info'
        ? Response.json({ user, roles, dataScopes: [] })
        : Response.json({ status: 404, message: 'not found', timestamp: 0 }, { status: 404 }),
    ),
  );
  useUserStore.setState({ token: 'Bearer test', user: undefined, roles: [] });
}

describe('app routes', () => {
  beforeAll(async () => {
    await initI18n('en-US');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  it.each(['/', '/home', '/dashboard', '/system/user?page=2'])('sends %s to /login with the full path when nobody is signed in', async (path) => {
    const router = renderAt(path);
    await waitFor(() => expect(router.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.location.search).get('redirect')).toBe(path);
  });

  it('keeps /download open without a token', async () => {
    const router = renderAt('/download');
    expect(await screen.findByRole('heading', { name: 'Installation media' })).toBeTruthy();
    expect(router.location.pathname).toBe('/download');
  });

  it('keeps /verify-cert open without a token, checking what the address names', async () => {
    const checked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        checked.push(new URL(input, 'http://localhost').pathname);
        return Response.json({ status: 404, message: 'no certificate has this number and code', timestamp: 0 }, { status: 404 });
      }),
    );
    const router = renderAt('/verify-cert?number=CC-2026-000001&code=ABC');
    expect(await screen.findByText('No certificate has this number and code')).toBeTruthy();
    expect(router.location.pathname).toBe('/verify-cert');
    expect(checked).toEqual(['/api/public/certificates/verify']);
  });

  it('sends a signed-in user away from /login to /, which is /home', async () => {
    signInAs([]);
    const router = renderAt('/login');
    expect(await screen.findByRole('heading', { name: 'Welcome, Learner One' })).toBeTruthy();
    expect(router.location.pathname).toBe('/home');
  });

  it.each([
    ['/preview/5', 'Not found, or no longer published'],
    ['/learning/5', 'Not found, or no longer published'],
    ['/user-center', 'Learning center'],
    ['/user-setting', 'Personal settings'],
    ['/notifications', 'Notifications'],
    ['/view-cert?id=3', 'Not found, or no longer published'],
  ])('opens the learner page %s to a learner, in the learner shell', async (path, text) => {
    signInAs([]);
    const router = renderAt(path);
    expect((await screen.findAllByText(text)).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Account menu of Learner One' })).toBeTruthy();
    expect(router.location.pathname + router.location.search).toBe(path);
  });

  it.each(['/preview/5', '/learning/5', '/user-center', '/user-setting', '/notifications', '/view-cert?id=3'])('sends %s to /login when nobody is signed in', async (path) => {
    const router = renderAt(path);
    await waitFor(() => expect(router.location.pathname).toBe('/login'));
  });

  it('fetches the user info first, and keeps a learner (no permissions) out of the back office', async () => {
    signInAs([]);
    const router = renderAt('/dashboard');
    expect(await screen.findByRole('heading', { name: 'No permission' })).toBeTruthy();
    // The redirect's history update may land a tick after the page shows (it failed so on a loaded machine).
    await waitFor(() => expect(router.location.pathname).toBe('/401'));
    expect(useUserStore.getState().roles).toEqual(['ROLE_SYSTEM_DEFAULT']);
  });

  it('tells a learner an address that is nobody’s is not found, as it tells staff', async () => {
    signInAs([]);
    const router = renderAt('/nonexistent-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    await waitFor(() => expect(router.location.pathname).toBe('/404'));
  });

  it('ends the session and reloads when the user info cannot be fetched', async () => {
    Cookies.set(TOKEN_COOKIE, 'Bearer dead');
    useUserStore.setState({ token: 'Bearer dead', roles: [] });
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ status: 500, message: 'boom' }, { status: 500 })));
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    renderAt('/home');
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined();
    vi.restoreAllMocks();
  });

  it('a 401 reloads once, with the point cookie set for the login page of the next document', async () => {
    configureHttpClient({ onUnauthorized: expireSession });
    Cookies.set(TOKEN_COOKIE, 'Bearer dead');
    useUserStore.setState({ token: 'Bearer dead', roles: [] });
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ status: 401, message: 'expired' }, { status: 401 })));
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    renderAt('/home');
    await waitFor(() => expect(reload).toHaveBeenCalled());
    // Until the browser replaces the document, this one must not draw the login page: it would
    // read and delete the cookie meant for the reloaded one.
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(Cookies.get(POINT_COOKIE)).toBe('401');
    // One reload: a second one, from the failed user info, once raced the first without the cookie.
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'log in' })).toBeNull();
    expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined();
    vi.restoreAllMocks();
    configureHttpClient({ onUnauthorized: () => {} });
    resetExpireSessionForTests();
    Cookies.remove(POINT_COOKIE);
  });

  it('shows the 401 page at /401 with a way home', async () => {
    renderAt('/401');
    expect(await screen.findByRole('heading', { name: 'No permission' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
  });

  it('offers "Go back" only when there is an earlier entry in the app', async () => {
    window.history.replaceState({ idx: 0 }, '');
    renderAt('/404');
    await screen.findByRole('heading', { name: 'Page not found' });
    expect(screen.queryByRole('button', { name: 'Go back' })).toBeNull();
    cleanup();

    window.history.replaceState({ idx: 2 }, '');
    renderAt('/404');
    expect(await screen.findByRole('button', { name: 'Go back' })).toBeTruthy();
    window.history.replaceState(null, '');
  });

  it('scrolls to the top on every route change', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const router = renderAt('/401');
    await screen.findByRole('heading', { name: 'No permission' });
    const before = scrollTo.mock.calls.length;
    await act(async () => router.navigate('/404'));
    expect(scrollTo.mock.calls.length).toBeGreaterThan(before);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    scrollTo.mockRestore();
  });

  it("follows a navigation asked for outside React, as the HTTP client's 403 asks for /401", async () => {
    const router = renderAt('/download');
    await screen.findByRole('heading', { name: 'Installation media' });
    // Awaited: the 401 page's chunk loads first, so the navigation suspends, and a suspension inside
    // an act that is not awaited is left unfinished (React warns so; the page never came in a CI run).
    await act(async () => navigateOutsideReact('/401'));
    // On a busy machine the chunk took longer than the default second.
    expect(await screen.findByRole('heading', { name: 'No permission' }, { timeout: 10_000 })).toBeTruthy();
    expect(router.location.pathname).toBe('/401');
    // The test's own limit must outlast that wait (vitest's default, 5 s, cut it short in a CI run).
  }, 20_000);

  it('renders the pages in Chinese too', async () => {
    await initI18n('zh-CN');
    renderAt('/404');
    expect(await screen.findByRole('heading', { name: '页面不存在' })).toBeTruthy();
    expect(document.documentElement.getAttribute('lang')).toBe('zh-CN');
    await initI18n('en-US');
  });
});
