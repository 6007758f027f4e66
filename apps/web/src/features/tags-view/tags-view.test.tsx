import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeLocale, initI18n } from '../../lib/i18n';
import type { VisitedView } from './tags-view-rules';
import { scrollTabIntoView, TagsView } from './tags-view';
import { useTagsViewStore } from './tags-view-store';

function view(path: string, title: string, extra: Partial<VisitedView> = {}): VisitedView {
  return { path, fullPath: path, query: '', name: title, title, meta: { title }, ...extra };
}

const dashboard = view('/dashboard', '首页', { name: 'Dashboard', meta: { title: '首页', titleEn: 'Dashboard', affix: true, noCache: true } });
const users = view('/system/user', '用户管理', { fullPath: '/system/user?page=2', query: '?page=2' });
const roles = view('/system/role', '角色管理');
const menus = view('/system/menu', '菜单管理');

function Where() {
  const { pathname, search } = useLocation();
  return <output aria-label="location">{`${pathname}${search}`}</output>;
}

function renderAt(path: string, views: VisitedView[] = [dashboard, users, roles, menus]) {
  for (const visited of views) useTagsViewStore.getState().addView(visited);
  return render(
    <MemoryRouter initialEntries={[path]}>
      <TagsView />
      <Where />
    </MemoryRouter>,
  );
}

const location = () => screen.getByLabelText('location').textContent;
const tab = (name: string) => screen.getByRole('link', { name: new RegExp(`^${name}`) });
const tabPaths = () => useTagsViewStore.getState().visitedViews.map((visited) => visited.path);

describe('TagsView', () => {
  beforeAll(async () => {
    await initI18n('en-US');
  });
  beforeEach(() => {
    window.innerWidth = 1280;
  });
  afterEach(() => {
    cleanup();
    useTagsViewStore.getState().reset();
  });

  it('shows a tab per visited view, translated, linking to its full path, the current one active', () => {
    renderAt('/system/user');
    expect(tab('Dashboard').getAttribute('href')).toBe('/dashboard');
    expect(tab('用户管理').getAttribute('href')).toBe('/system/user?page=2');
    expect(tab('用户管理').classList.contains('active')).toBe(true);
    expect(tab('角色管理').classList.contains('active')).toBe(false);
  });

  it('names a tab by its menu’s English title in English, and follows a language switch at once', async () => {
    const servers = view('/monitor/server', '服务监控', { meta: { title: '服务监控', titleEn: 'Server status' } });
    renderAt('/monitor/server', [dashboard, servers, roles]);
    const texts = () => [...document.querySelectorAll('.tags-view-item')].map((item) => item.textContent);
    expect(texts()).toEqual(['Dashboard', 'Server status', '角色管理']);
    await act(() => changeLocale('zh-CN'));
    expect(texts()).toEqual(['首页', '服务监控', '角色管理']);
    await act(() => changeLocale('en-US'));
    expect(texts()).toEqual(['Dashboard', 'Server status', '角色管理']);
  });

  it('offers no close on an affixed tab', () => {
    renderAt('/system/user');
    expect(within(tab('Dashboard')).queryByLabelText('close')).toBeNull();
    expect(within(tab('角色管理')).getByLabelText('close')).toBeTruthy();
  });

  it('opens a 105 px context menu on right-click, at the pointer', () => {
    renderAt('/system/user');
    fireEvent.contextMenu(tab('角色管理'), { clientX: 300, clientY: 40 });
    const menu = screen.getByRole('menu');
    expect(menu.style.width).toBe('105px');
    expect(menu.style.left).toBe('300px');
    expect(menu.style.top).toBe('40px');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['refresh', 'close', 'close others', 'close all']);
  });

  it('keeps the context menu inside the window', () => {
    window.innerWidth = 800;
    renderAt('/system/user');
    fireEvent.contextMenu(tab('角色管理'), { clientX: 790, clientY: 40 });
    expect(screen.getByRole('menu').style.left).toBe(`${800 - 105 - 8}px`);
  });

  it("an affixed tab's context menu has no close", () => {
    renderAt('/system/user');
    fireEvent.contextMenu(tab('Dashboard'), { clientX: 10, clientY: 40 });
    expect(within(screen.getByRole('menu')).getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'refresh',
      'close others',
      'close all',
    ]);
  });

  it('a click anywhere closes the context menu', () => {
    renderAt('/system/user');
    fireEvent.contextMenu(tab('角色管理'), { clientX: 300, clientY: 40 });
    fireEvent.click(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('close on the current tab goes to the last tab left', () => {
    renderAt('/system/menu');
    fireEvent.contextMenu(tab('菜单管理'), { clientX: 300, clientY: 40 });
    fireEvent.click(screen.getByRole('menuitem', { name: 'close' }));
    expect(tabPaths()).toEqual(['/dashboard', '/system/user', '/system/role']);
    expect(location()).toBe('/system/role');
  });

  it('close on another tab stays where it is', () => {
    renderAt('/system/user');
    fireEvent.click(within(tab('角色管理')).getByLabelText('close'));
    expect(tabPaths()).toEqual(['/dashboard', '/system/user', '/system/menu']);
    expect(location()).toBe('/system/user');
  });

  it('a middle click closes a tab, but not an affixed one', () => {
    renderAt('/system/user');
    fireEvent.mouseUp(tab('角色管理'), { button: 1 });
    fireEvent.mouseUp(tab('Dashboard'), { button: 1 });
    expect(tabPaths()).toEqual(['/dashboard', '/system/user', '/system/menu']);
  });

  it('close others keeps the chosen and affixed tabs and opens the chosen one', () => {
    renderAt('/system/user');
    fireEvent.contextMenu(tab('角色管理'), { clientX: 300, clientY: 40 });
    fireEvent.click(screen.getByRole('menuitem', { name: 'close others' }));
    expect(tabPaths()).toEqual(['/dashboard', '/system/role']);
    expect(location()).toBe('/system/role');
  });

  it('close all keeps the affixed tabs and goes to the last of them', () => {
    renderAt('/system/user');
    fireEvent.contextMenu(tab('角色管理'), { clientX: 300, clientY: 40 });
    fireEvent.click(screen.getByRole('menuitem', { name: 'close all' }));
    expect(tabPaths()).toEqual(['/dashboard']);
    expect(location()).toBe('/dashboard');
  });

  it('close all on an affixed current tab stays there', () => {
    renderAt('/dashboard');
    fireEvent.contextMenu(tab('Dashboard'), { clientX: 10, clientY: 40 });
    fireEvent.click(screen.getByRole('menuitem', { name: 'close all' }));
    expect(location()).toBe('/dashboard');
  });

  it('refresh goes through /redirect with the full path', () => {
    renderAt('/system/user?page=2');
    fireEvent.contextMenu(tab('用户管理'), { clientX: 300, clientY: 40 });
    fireEvent.click(screen.getByRole('menuitem', { name: 'refresh' }));
    expect(location()).toBe('/redirect/system/user?page=2');
  });
});

describe('scrollTabIntoView', () => {
  function geometry(container: { scrollLeft: number; clientWidth: number }, tab: { offsetLeft: number; offsetWidth: number }) {
    const box = { ...container };
    scrollTabIntoView(box as unknown as HTMLElement, tab as unknown as HTMLElement);
    return box.scrollLeft;
  }

  it('leaves a tab visible with 4 px to spare where it is', () => {
    expect(geometry({ scrollLeft: 100, clientWidth: 300 }, { offsetLeft: 104, offsetWidth: 80 })).toBe(100);
    expect(geometry({ scrollLeft: 100, clientWidth: 300 }, { offsetLeft: 316, offsetWidth: 80 })).toBe(100);
  });

  it('scrolls back to 4 px before a tab hidden on the left', () => {
    expect(geometry({ scrollLeft: 400, clientWidth: 300 }, { offsetLeft: 120, offsetWidth: 80 })).toBe(116);
  });

  it('scrolls back when only the padding is hidden on the left', () => {
    expect(geometry({ scrollLeft: 100, clientWidth: 300 }, { offsetLeft: 102, offsetWidth: 80 })).toBe(98);
  });

  it('scrolls on to 4 px after a tab hidden on the right', () => {
    // The tab ends at 500; with 4 px it is 504, and the view must end there.
    expect(geometry({ scrollLeft: 0, clientWidth: 300 }, { offsetLeft: 420, offsetWidth: 80 })).toBe(204);
  });

  it('scrolls on when only the padding is hidden on the right', () => {
    expect(geometry({ scrollLeft: 100, clientWidth: 300 }, { offsetLeft: 318, offsetWidth: 80 })).toBe(102);
  });
});
