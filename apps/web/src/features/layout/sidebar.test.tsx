import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '../../components/list-page/list-page-test-kit';
import { changeLocale, initI18n } from '../../lib/i18n';
import { VIEW_ROUTES } from '../../test/menu-routes';
import { useAppStore } from './app-store';
import { useSettingsStore } from './settings-store';
import { Sidebar } from './sidebar';
import type { ViewRoute } from './view-routes';

const itemTexts = () => [...document.querySelectorAll('.ant-menu-title-content')].map((item) => item.textContent);

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

describe('Sidebar', () => {
  beforeEach(async () => {
    stubBrowser();
    await initI18n('en-US');
    useAppStore.setState({ sidebar: { opened: true, withoutAnimation: false }, device: 'desktop' });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('names the menus by their English titles in English, the Chinese one where a menu has none', () => {
    render(
      <MemoryRouter initialEntries={['/monitor/exam']}>
        <Sidebar routes={VIEW_ROUTES} />
      </MemoryRouter>,
    );
    expect(itemTexts()).toEqual(['Dashboard', 'System', 'Monitoring', 'Server status', '考试管理']);
    expect(screen.queryByText('系统管理')).toBeNull();
  });

  it('follows a language switch at once', async () => {
    render(
      <MemoryRouter initialEntries={['/system/user']}>
        <Sidebar routes={VIEW_ROUTES} />
      </MemoryRouter>,
    );
    expect(itemTexts()).toEqual(['Dashboard', 'System', 'Users', 'Roles', 'Monitoring']);
    await act(() => changeLocale('zh-CN'));
    expect(itemTexts()).toEqual(['首页', '系统管理', '用户管理', '角色管理', '系统监控']);
    await act(() => changeLocale('en-US'));
    expect(itemTexts()).toEqual(['Dashboard', 'System', 'Users', 'Roles', 'Monitoring']);
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
