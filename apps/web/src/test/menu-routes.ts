/** A menu tree as `GET api/menus/build` answers it, for tests of the shell (tests only). */
import type { MenuRoute } from '@cloud-classroom/shared/menus';
import { STATIC_VIEW_ROUTES, toViewRoutes, type ViewRoute } from '../features/layout/view-routes';

const meta = (title: string, titleEn: string | null, icon: string | null = null, noCache = false) => ({ title, titleEn, icon, noCache });

/** Seeded menus carry both titles; 考试管理 stands for one staff created without an English title. */
export const MENU_BUILD: MenuRoute[] = [
  {
    name: '系统管理',
    path: '/system',
    hidden: false,
    component: 'Layout',
    alwaysShow: true,
    redirect: 'noredirect',
    meta: meta('系统管理', 'System', 'system', true),
    children: [
      { name: 'User', path: 'user', hidden: false, component: 'system/user/index', meta: meta('用户管理', 'Users', 'peoples') },
      { name: 'Role', path: 'role', hidden: false, component: 'system/role/index', meta: meta('角色管理', 'Roles', 'role') },
    ],
  },
  {
    name: '系统监控',
    path: '/monitor',
    hidden: false,
    component: 'Layout',
    alwaysShow: true,
    redirect: 'noredirect',
    meta: meta('系统监控', 'Monitoring', 'monitor', true),
    children: [
      { name: 'ServerMonitor', path: 'server', hidden: false, component: 'monitor/server/index', meta: meta('服务监控', 'Server status', 'codeConsole') },
      { name: 'Exam', path: 'exam', hidden: false, component: 'exam/index', meta: meta('考试管理', null, 'education') },
    ],
  },
];

export const VIEW_ROUTES: ViewRoute[] = [...STATIC_VIEW_ROUTES, ...toViewRoutes(MENU_BUILD)];
