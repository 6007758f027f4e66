import { afterEach, describe, expect, it } from 'vitest';
import type { VisitedView } from './tags-view-rules';
import { useTagsViewStore } from './tags-view-store';

function view(path: string, name: string | undefined, meta: Partial<VisitedView['meta']> = {}): VisitedView {
  return { path, fullPath: path, query: '', name, title: name ?? '', meta: { title: name ?? '', ...meta } };
}

const dashboard = view('/dashboard', 'Dashboard', { affix: true, noCache: true });
const users = view('/system/user', 'User');
const roles = view('/system/role', 'Role');
const online = view('/monitor/online', 'OnlineUser', { noCache: true });

const store = () => useTagsViewStore.getState();
const paths = () => store().visitedViews.map((v) => v.path);

describe('useTagsViewStore', () => {
  afterEach(() => store().reset());

  it('adds each visited path once and caches the names of cacheable views', () => {
    for (const v of [dashboard, users, roles, users, online]) store().addView(v);
    expect(paths()).toEqual(['/dashboard', '/system/user', '/system/role', '/monitor/online']);
    expect(store().cachedViews).toEqual(['User', 'Role']);
  });

  it('a revisit updates fullPath and query of the tab', () => {
    store().addView(users);
    store().addView({ ...users, fullPath: '/system/user?blurry=adm', query: 'blurry=adm' });
    expect(store().visitedViews).toEqual([{ ...users, fullPath: '/system/user?blurry=adm', query: 'blurry=adm' }]);
  });

  it("titles a nameless view 'no-name'", () => {
    store().addView({ ...view('/somewhere', undefined), title: '' });
    expect(store().visitedViews[0]?.title).toBe('no-name');
    expect(store().cachedViews).toEqual([]);
  });

  it('closing a tab drops its cached name, and an affixed tab stays', () => {
    for (const v of [dashboard, users, roles]) store().addView(v);
    store().closeView('/system/user');
    store().closeView('/dashboard');
    expect(paths()).toEqual(['/dashboard', '/system/role']);
    expect(store().cachedViews).toEqual(['Role']);
  });

  it('close others keeps the chosen and affixed tabs and their cache only', () => {
    for (const v of [dashboard, users, roles, online]) store().addView(v);
    store().closeOthers('/system/role');
    expect(paths()).toEqual(['/dashboard', '/system/role']);
    expect(store().cachedViews).toEqual(['Role']);
  });

  it('close all keeps the affixed tabs and empties the cache of the closed ones', () => {
    for (const v of [dashboard, users, roles]) store().addView(v);
    store().closeAll();
    expect(paths()).toEqual(['/dashboard']);
    expect(store().cachedViews).toEqual([]);
  });

  it('an affixed cacheable tab keeps its cached name through close all', () => {
    const pinned = view('/pinned', 'Pinned', { affix: true });
    for (const v of [pinned, users]) store().addView(v);
    store().closeAll();
    expect(store().cachedViews).toEqual(['Pinned']);
  });

  it('refresh bumps the key of that path only', () => {
    store().refreshView('/system/user');
    store().refreshView('/system/user');
    store().refreshView('/system/role');
    expect(store().refreshKeys).toEqual({ '/system/user': 2, '/system/role': 1 });
  });

  it('reset forgets tabs, cache and keys', () => {
    store().addView(users);
    store().refreshView('/system/user');
    store().reset();
    expect(store()).toMatchObject({ visitedViews: [], cachedViews: [], refreshKeys: {} });
  });
});
