import type { MenuRoute } from '@cloud-classroom/shared/menus';
import { describe, expect, it } from 'vitest';
import {
  breadcrumbOf,
  findPage,
  isExternalPath,
  pagesOf,
  searchEntriesOf,
  STATIC_VIEW_ROUTES,
  toViewRoutes,
  type ViewRoute,
} from './view-routes';

const meta = (title: string, icon: string | null = null, noCache = false, titleEn: string | null = null) => ({ title, titleEn, icon, noCache });

/**
 * What `GET api/menus/build` answers for the seed's menus (menus.service.ts `routesOf`): top-level
 * directories are Layouts with 'noredirect', nested directories ParentViews, a top-level page a
 * Layout holding it as 'index', an external link without a component.
 */
const MENU_BUILD: MenuRoute[] = [
  {
    name: '系统管理',
    path: '/system',
    hidden: false,
    component: 'Layout',
    alwaysShow: true,
    redirect: 'noredirect',
    meta: meta('系统管理', 'system', true, 'System'),
    children: [
      { name: 'User', path: 'user', hidden: false, component: 'system/user/index', meta: meta('用户管理', 'peoples', false, 'Users') },
      { name: 'Role', path: 'role', hidden: false, component: 'system/role/index', meta: meta('角色管理', 'role') },
      { name: 'Menu', path: 'menu', hidden: false, component: 'system/menu/index', meta: meta('菜单管理', 'menu') },
    ],
  },
  {
    name: '系统监控',
    path: '/monitor',
    hidden: false,
    component: 'Layout',
    alwaysShow: true,
    redirect: 'noredirect',
    meta: meta('系统监控', 'monitor', true),
    children: [
      { name: 'OnlineUser', path: 'online', hidden: false, component: 'monitor/online/index', meta: meta('在线用户', 'online') },
      {
        name: '日志',
        path: 'log',
        hidden: false,
        component: 'ParentView',
        alwaysShow: true,
        redirect: 'noredirect',
        meta: meta('日志', 'log', true),
        children: [
          { name: 'Log', path: 'logs', hidden: false, component: 'monitor/log/index', meta: meta('操作日志', 'log') },
          { name: 'ErrorLog', path: 'errorLog', hidden: false, component: 'monitor/log/errorLog', meta: meta('异常日志', 'error') },
        ],
      },
      { name: '源码', path: 'https://github.com/elunez/eladmin', hidden: false, meta: meta('项目源码', 'github', true) },
    ],
  },
  {
    path: '/swagger',
    hidden: false,
    component: 'Layout',
    children: [{ name: 'Swagger', path: 'index', hidden: false, component: 'tools/swagger/index', meta: meta('接口文档', 'swagger') }],
  },
  { name: '官网', path: 'https://example.com/docs', hidden: false, meta: meta('文档站', 'link', true) },
];

const ROUTES: ViewRoute[] = [...STATIC_VIEW_ROUTES, ...toViewRoutes(MENU_BUILD)];

describe('isExternalPath', () => {
  it.each([
    ['http://a.example', true],
    ['https://a.example/x', true],
    ['HTTPS://A.EXAMPLE', true],
    ['/http', false],
    ['mailto:a@b.c', false],
    ['user', false],
  ])('%s → %s', (path, external) => expect(isExternalPath(path)).toBe(external));
});

describe('toViewRoutes', () => {
  it('joins relative children to their parent path at every depth', () => {
    const [system, monitor, swagger] = toViewRoutes(MENU_BUILD);
    expect(system?.children.map((r) => r.path)).toEqual(['/system/user', '/system/role', '/system/menu']);
    expect(monitor?.children[1]?.children.map((r) => r.path)).toEqual(['/monitor/log/logs', '/monitor/log/errorLog']);
    expect(swagger?.children[0]?.path).toBe('/swagger/index');
  });

  it("keeps a child's own absolute path and http(s) links as they are", () => {
    const routes = toViewRoutes([
      {
        path: '/edu',
        hidden: false,
        component: 'Layout',
        children: [
          { path: '/elsewhere/page', hidden: false, component: 'x/index' },
          { path: 'http://intranet.example/wiki', hidden: false },
          { path: 'https://example.com', hidden: false },
        ],
      },
    ]);
    expect(routes[0]?.children.map((r) => r.path)).toEqual(['/elsewhere/page', 'http://intranet.example/wiki', 'https://example.com']);
  });

  it('does not double the slash under a parent ending in one', () => {
    expect(toViewRoutes([{ path: '/', hidden: false, component: 'Layout', children: [{ path: 'home', hidden: false }] }])[0]?.children[0]?.path).toBe(
      '/home',
    );
  });

  it('carries name, component, redirect, hidden, alwaysShow and meta, and gives every route a children list', () => {
    const [system] = toViewRoutes(MENU_BUILD);
    expect(system).toMatchObject({
      name: '系统管理',
      component: 'Layout',
      redirect: 'noredirect',
      hidden: false,
      alwaysShow: true,
      meta: { title: '系统管理', titleEn: 'System', icon: 'system', noCache: true },
    });
    expect(system?.children[0]?.children).toEqual([]);
  });
});

describe('pagesOf', () => {
  it('flattens Layout and ParentView containers into their pages and skips external links', () => {
    expect(pagesOf(ROUTES).map((page) => page.path)).toEqual([
      '/dashboard',
      '/user/center',
      '/edu/edit-lesson',
      '/edu/edit-applicant',
      '/edu/add-question',
      '/edu/edit-question',
      '/edu/import-question',
      '/edu/edit-exam',
      '/edu/preview-exam',
      '/edu/applicant-exam',
      '/edu/correct-exam',
      '/edu/report-exam',
      '/edu/edit-cert',
      '/edu/preview-cert',
      '/edu/applicant-cert',
      '/edu/import-cert',
      '/edu/user-census-detail',
      '/druid/index.html',
      '/system/user',
      '/system/role',
      '/system/menu',
      '/monitor/online',
      '/monitor/log/logs',
      '/monitor/log/errorLog',
      '/swagger/index',
    ]);
  });

  it('skips an external link even when it names a component', () => {
    const routes = toViewRoutes([{ path: 'https://example.com/frame', hidden: false, component: 'iframe/index' }]);
    expect(pagesOf(routes)).toEqual([]);
  });
});

describe('findPage', () => {
  const pages = pagesOf([...ROUTES, ...toViewRoutes([{ path: '/course/term/:id', hidden: true, component: 'course/term/index', name: 'Term' }])]);

  it('finds a page by its exact path', () => {
    expect(findPage(pages, '/monitor/log/errorLog')?.name).toBe('ErrorLog');
  });

  it('matches a page with path parameters', () => {
    expect(findPage(pages, '/course/term/12')?.name).toBe('Term');
  });

  it('finds nothing for a container or an unknown path', () => {
    expect(findPage(pages, '/system')).toBeUndefined();
    expect(findPage(pages, '/nope')).toBeUndefined();
  });
});

describe('breadcrumbOf', () => {
  it('leads with the dashboard as a link; a noredirect directory and the last item are plain text', () => {
    expect(breadcrumbOf(ROUTES, '/system/user', 'zh-CN')).toEqual([
      { title: '首页', path: '/dashboard', link: true },
      { title: '系统管理', path: '/system', link: false },
      { title: '用户管理', path: '/system/user', link: false },
    ]);
  });

  it('walks nested ParentView directories', () => {
    expect(breadcrumbOf(ROUTES, '/monitor/log/logs', 'zh-CN').map(({ title, link }) => [title, link])).toEqual([
      ['首页', true],
      ['系统监控', false],
      ['日志', false],
      ['操作日志', false],
    ]);
  });

  it('shows the dashboard once, as plain text, on the dashboard', () => {
    expect(breadcrumbOf(ROUTES, '/dashboard', 'zh-CN')).toEqual([{ title: '首页', path: '/dashboard', link: false }]);
  });

  it('leaves out an untitled Layout wrapper', () => {
    expect(breadcrumbOf(ROUTES, '/swagger/index', 'zh-CN').map((item) => item.title)).toEqual(['首页', '接口文档']);
  });

  it('links a directory with a real redirect to that redirect, and links pages that are not last', () => {
    const routes: ViewRoute[] = [
      ...STATIC_VIEW_ROUTES,
      {
        path: '/edu',
        component: 'Layout',
        redirect: '/edu/lessons',
        hidden: false,
        meta: { title: '教务' },
        children: [
          {
            path: '/edu/lessons',
            component: 'edu/lessons',
            hidden: false,
            meta: { title: '课时' },
            children: [{ path: '/edu/lessons/edit', component: 'edu/edit', hidden: true, meta: { title: '编辑课时' }, children: [] }],
          },
        ],
      },
    ];
    expect(breadcrumbOf(routes, '/edu/lessons/edit', 'zh-CN')).toEqual([
      { title: '首页', path: '/dashboard', link: true },
      { title: '教务', path: '/edu/lessons', link: true },
      { title: '课时', path: '/edu/lessons', link: true },
      { title: '编辑课时', path: '/edu/lessons/edit', link: false },
    ]);
  });

  it('hides routes whose meta.breadcrumb is false', () => {
    const routes: ViewRoute[] = [
      ...STATIC_VIEW_ROUTES,
      {
        path: '/edu',
        component: 'Layout',
        redirect: 'noredirect',
        hidden: false,
        meta: { title: '教务', breadcrumb: false },
        children: [{ path: '/edu/exam', component: 'edu/exam', hidden: false, meta: { title: '考试' }, children: [] }],
      },
    ];
    expect(breadcrumbOf(routes, '/edu/exam', 'zh-CN').map((item) => item.title)).toEqual(['首页', '考试']);
  });

  it('titles the trail in English with the menus’ English titles, falling back to the Chinese one', () => {
    expect(breadcrumbOf(ROUTES, '/system/user', 'en-US').map((item) => item.title)).toEqual(['Dashboard', 'System', 'Users']);
    expect(breadcrumbOf(ROUTES, '/system/role', 'en-US').map((item) => item.title)).toEqual(['Dashboard', 'System', '角色管理']);
  });

  it('is only the dashboard for a path nothing matches', () => {
    expect(breadcrumbOf(ROUTES, '/nowhere', 'zh-CN')).toEqual([{ title: '首页', path: '/dashboard', link: false }]);
  });
});

describe('searchEntriesOf', () => {
  it('lists titled, visible pages and links, prefixed with their parents’ titles', () => {
    expect(searchEntriesOf(ROUTES, 'zh-CN')).toEqual([
      { path: '/dashboard', title: ['首页'] },
      { path: '/system/user', title: ['系统管理', '用户管理'] },
      { path: '/system/role', title: ['系统管理', '角色管理'] },
      { path: '/system/menu', title: ['系统管理', '菜单管理'] },
      { path: '/monitor/online', title: ['系统监控', '在线用户'] },
      { path: '/monitor/log/logs', title: ['系统监控', '日志', '操作日志'] },
      { path: '/monitor/log/errorLog', title: ['系统监控', '日志', '异常日志'] },
      { path: 'https://github.com/elunez/eladmin', title: ['系统监控', '项目源码'] },
      { path: '/swagger/index', title: ['接口文档'] },
      { path: 'https://example.com/docs', title: ['文档站'] },
    ]);
  });

  it('titles the entries in English when asked, falling back to the Chinese titles', () => {
    expect(searchEntriesOf(ROUTES, 'en-US').slice(0, 3)).toEqual([
      { path: '/dashboard', title: ['Dashboard'] },
      { path: '/system/user', title: ['System', 'Users'] },
      { path: '/system/role', title: ['System', '角色管理'] },
    ]);
  });

  it('leaves out hidden routes with everything under them', () => {
    const routes: ViewRoute[] = [
      {
        path: '/secret',
        component: 'Layout',
        hidden: true,
        meta: { title: '隐藏' },
        children: [{ path: '/secret/page', component: 'x', hidden: false, meta: { title: '页' }, children: [] }],
      },
      { path: '/shown', component: 'y', hidden: false, meta: { title: '显示' }, children: [] },
    ];
    expect(searchEntriesOf(routes, 'zh-CN')).toEqual([{ path: '/shown', title: ['显示'] }]);
    expect(searchEntriesOf(ROUTES, 'zh-CN').some((entry) => entry.path === '/user/center')).toBe(false);
  });

  it('offers a directory with a real redirect, never a noredirect one', () => {
    const routes: ViewRoute[] = [
      { path: '/a', component: 'Layout', redirect: 'noredirect', hidden: false, meta: { title: 'A' }, children: [] },
      { path: '/b', component: 'b/index', redirect: '/b/x', hidden: false, meta: { title: 'B' }, children: [] },
    ];
    expect(searchEntriesOf(routes, 'zh-CN')).toEqual([{ path: '/b', title: ['B'] }]);
  });
});
