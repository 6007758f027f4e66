import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '../../components/list-page/list-page-test-kit';
import { useAppStore } from './app-store';
import { useSettingsStore } from './settings-store';
import { Sidebar } from './sidebar';
import type { ViewRoute } from './view-routes';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

const page = (path: string, title: string): ViewRoute => ({ path, hidden: false, component: 'x/index', meta: { title }, children: [] });
const directory = (path: string, title: string, children: ViewRoute[]): ViewRoute => ({
  path,
  hidden: false,
  alwaysShow: true,
  component: 'Layout',
  meta: { title },
  children,
});

const ROUTES: ViewRoute[] = [
  directory('/system', 'System', [page('/system/user', 'Users'), page('/system/role', 'Roles')]),
  directory('/monitor', 'Monitor', [page('/monitor/online', 'Online'), page('/monitor/logs', 'Logs')]),
];

/** The sidebar under a router, moved by the router itself as header search and tabs do. */
function renderSidebar(start: string) {
  const router = createMemoryRouter([{ path: '*', element: <Sidebar routes={ROUTES} /> }], { initialEntries: [start] });
  render(<RouterProvider router={router} />);
  return router;
}

const isOpen = (title: string) => screen.getByText(title).closest('.ant-menu-submenu')!.classList.contains('ant-menu-submenu-open');

describe('sidebar', () => {
  beforeEach(() => {
    stubBrowser();
    useAppStore.setState({ device: 'desktop', sidebar: { opened: true, withoutAnimation: false } });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('with unique-opened, a route change from outside the menu leaves only the new page\'s section open', async () => {
    useSettingsStore.setState({ uniqueOpened: true });
    const router = renderSidebar('/system/user');
    expect(isOpen('System')).toBe(true);
    expect(isOpen('Monitor')).toBe(false);

    await act(() => router.navigate('/monitor/logs'));
    expect(isOpen('Monitor')).toBe(true);
    expect(isOpen('System')).toBe(false);
  });

  it('without unique-opened, sections opened along the way stay open', async () => {
    useSettingsStore.setState({ uniqueOpened: false });
    const router = renderSidebar('/system/user');
    await act(() => router.navigate('/monitor/logs'));
    expect(isOpen('Monitor')).toBe(true);
    expect(isOpen('System')).toBe(true);
  });
});
