import { describe, expect, it } from 'vitest';
import {
  addCachedView,
  addVisitedView,
  closeAllVisitedViews,
  closeOtherVisitedViews,
  closeVisitedView,
  NO_NAME_TITLE,
  viewAfterClosing,
  type VisitedView,
} from './tags-view-rules';

function view(path: string, extra: Partial<VisitedView> = {}): VisitedView {
  return { path, fullPath: path, query: '', name: undefined, title: path.slice(1), meta: { title: path.slice(1) }, ...extra };
}

const dashboard = view('/dashboard', { name: 'Dashboard', title: 'route.dashboard', meta: { title: 'route.dashboard', affix: true, noCache: true } });
const users = view('/system/user', { name: 'User', title: '用户管理' });
const roles = view('/system/role', { name: 'Role', title: '角色管理' });
const logs = view('/monitor/logs', { name: 'Log', title: '操作日志' });

describe('addVisitedView', () => {
  it('adds a view whose path is not there yet, at the end', () => {
    const views = addVisitedView([dashboard, users], roles);
    expect(views.map((v) => v.path)).toEqual(['/dashboard', '/system/user', '/system/role']);
  });

  it('adds a view only once per path', () => {
    const once = addVisitedView([dashboard], users);
    const twice = addVisitedView(once, users);
    expect(twice.map((v) => v.path)).toEqual(['/dashboard', '/system/user']);
  });

  it('updates where a revisited view points (fullPath, query) and keeps its place and title', () => {
    const views = addVisitedView([dashboard, users, roles], {
      ...users,
      title: 'another title',
      fullPath: '/system/user?page=2',
      query: 'page=2',
    });
    expect(views).toHaveLength(3);
    expect(views[1]).toMatchObject({ path: '/system/user', fullPath: '/system/user?page=2', query: 'page=2', title: '用户管理' });
    expect(views[0]).toBe(dashboard);
    expect(views[2]).toBe(roles);
  });

  it("titles a view without a title 'no-name'", () => {
    expect(NO_NAME_TITLE).toBe('no-name');
    const views = addVisitedView([], view('/x', { title: '' }));
    expect(views[0]?.title).toBe('no-name');
  });

  it('does not change the list it is given', () => {
    const views = [dashboard];
    addVisitedView(views, users);
    expect(views).toEqual([dashboard]);
  });
});

describe('closing tabs', () => {
  const all = [dashboard, users, roles, logs];

  it('close removes only that tab', () => {
    expect(closeVisitedView(all, '/system/role').map((v) => v.path)).toEqual(['/dashboard', '/system/user', '/monitor/logs']);
  });

  it('close keeps an affixed tab', () => {
    expect(closeVisitedView(all, '/dashboard')).toEqual(all);
  });

  it('close others keeps the chosen tab and the affixed ones, in order', () => {
    expect(closeOtherVisitedViews(all, '/monitor/logs').map((v) => v.path)).toEqual(['/dashboard', '/monitor/logs']);
  });

  it('close others on the affixed tab leaves only affixed tabs', () => {
    expect(closeOtherVisitedViews(all, '/dashboard').map((v) => v.path)).toEqual(['/dashboard']);
  });

  it('close all keeps only affixed tabs', () => {
    const pinnedToo = view('/pinned', { meta: { title: 'pinned', affix: true } });
    expect(closeAllVisitedViews([...all, pinnedToo]).map((v) => v.path)).toEqual(['/dashboard', '/pinned']);
  });

  it('close all without affixed tabs leaves none', () => {
    expect(closeAllVisitedViews([users, roles])).toEqual([]);
  });
});

describe('addCachedView', () => {
  it('adds the name of a cacheable view once', () => {
    const names = addCachedView(addCachedView([], users), users);
    expect(names).toEqual(['User']);
  });

  it('skips a view whose meta says noCache', () => {
    expect(addCachedView(['User'], dashboard)).toEqual(['User']);
  });

  it('skips a view without a name', () => {
    expect(addCachedView([], view('/anonymous'))).toEqual([]);
  });

  it('appends after the names already cached', () => {
    expect(addCachedView(['User'], roles)).toEqual(['User', 'Role']);
  });
});

describe('viewAfterClosing', () => {
  it('goes to the last tab left', () => {
    expect(viewAfterClosing([dashboard, { ...users, fullPath: '/system/user?page=3' }], '/dashboard')).toBe('/system/user?page=3');
  });

  it('goes home when no tab is left', () => {
    expect(viewAfterClosing([], '/dashboard')).toBe('/dashboard');
  });
});
