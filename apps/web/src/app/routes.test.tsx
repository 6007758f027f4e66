import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from './i18n';
import { createAppRoutes } from './routes';

function renderAt(path: string) {
  const router = createMemoryRouter(
    createAppRoutes([{ path: '/home', element: <main>learner home</main> }]),
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('app routes', () => {
  beforeAll(async () => {
    await initI18n('en-US');
  });
  afterEach(cleanup);

  it('sends / on to /home', async () => {
    const router = renderAt('/');
    expect(await screen.findByText('learner home')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/home');
  });

  it.each(['/no/such/page', '/edu/unknown', '/home/deeper'])('sends the unknown path %s to /404', async (path) => {
    const router = renderAt(path);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/404');
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
    await act(() => router.navigate('/404'));
    expect(scrollTo.mock.calls.length).toBeGreaterThan(before);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    scrollTo.mockRestore();
  });

  it('renders the pages in Chinese too', async () => {
    await initI18n('zh-CN');
    renderAt('/404');
    expect(await screen.findByRole('heading', { name: '页面不存在' })).toBeTruthy();
    expect(document.documentElement.getAttribute('lang')).toBe('zh-CN');
    await initI18n('en-US');
  });
});
