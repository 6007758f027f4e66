import { NO_REDIRECT } from '@cloud-classroom/shared/constants';
import { menuTitle } from '@cloud-classroom/shared/display';
import type { Locale } from '@cloud-classroom/shared/locale';
import type { MenuRoute } from '@cloud-classroom/shared/menus';
import { messages, type MessageKey } from '@cloud-classroom/shared/messages';
import { matchPath } from 'react-router';

export type ViewMeta = {
  /** The Chinese title, as menus carry it (eladmin's field); shown through `menuTitle`. */
  title: string;
  /** The English title; none: the Chinese one is shown in English too. */
  titleEn?: string | null;
  icon?: string | null;
  noCache?: boolean;
  affix?: boolean;
  breadcrumb?: boolean;
  activeMenu?: string;
};

/** One route of the back office, its path made absolute. */
export type ViewRoute = {
  path: string;
  name?: string;
  component?: string;
  redirect?: string;
  hidden: boolean;
  alwaysShow?: boolean;
  meta?: ViewMeta;
  children: ViewRoute[];
};

export const LAYOUT_COMPONENT = 'Layout';
export const PARENT_VIEW_COMPONENT = 'ParentView';
export const DASHBOARD_PATH = '/dashboard';

/** The titles of one of the app's own views, from the catalogue, in the shape menus carry them. */
function ownTitles(key: MessageKey): Pick<ViewMeta, 'title' | 'titleEn'> {
  return { title: messages['zh-CN'][key], titleEn: messages['en-US'][key] };
}

/** The back office's own views; the server's menu tree adds the rest after login. */
export const STATIC_VIEW_ROUTES: ViewRoute[] = [
  {
    path: DASHBOARD_PATH,
    name: 'Dashboard',
    component: 'dashboard/index',
    hidden: false,
    meta: { ...ownTitles('route.dashboard'), icon: 'index', affix: true, noCache: true },
    children: [],
  },
  {
    path: '/user/center',
    name: 'UserCenter',
    component: 'system/user/center',
    hidden: true,
    meta: { ...ownTitles('route.userCenter'), icon: 'user', noCache: true },
    children: [],
  },
  // SPEC §2's hidden /edu pages: opened from the course pages, never from the sidebar.
  {
    path: '/edu/edit-lesson',
    name: 'EditLesson',
    component: 'edu/edit-lesson',
    hidden: true,
    meta: { ...ownTitles('route.editLesson'), icon: 'edit', noCache: true, activeMenu: '/course/term/outline' },
    children: [],
  },
  {
    path: '/edu/edit-applicant',
    name: 'EditApplicant',
    component: 'edu/edit-applicant',
    hidden: true,
    meta: { ...ownTitles('route.editApplicant'), icon: 'edit', noCache: true, activeMenu: '/course/term/applicant' },
    children: [],
  },
  {
    path: '/edu/add-question',
    name: 'AddQuestion',
    component: 'edu/add-question',
    hidden: true,
    meta: { ...ownTitles('route.addQuestion'), icon: 'edit', noCache: true, activeMenu: '/exam/question' },
    children: [],
  },
  {
    path: '/edu/edit-question',
    name: 'EditQuestion',
    component: 'edu/edit-question',
    hidden: true,
    meta: { ...ownTitles('route.editQuestion'), icon: 'edit', noCache: true, activeMenu: '/exam/question' },
    children: [],
  },
  {
    path: '/edu/import-question',
    name: 'ImportQuestion',
    component: 'edu/import-question',
    hidden: true,
    meta: { ...ownTitles('route.importQuestion'), icon: 'edit', noCache: true, activeMenu: '/exam/question' },
    children: [],
  },
  {
    path: '/edu/edit-exam',
    name: 'EditExam',
    component: 'edu/edit-exam',
    hidden: true,
    meta: { ...ownTitles('route.editExam'), icon: 'edit', noCache: true, activeMenu: '/exam/exam' },
    children: [],
  },
  {
    path: '/edu/preview-exam',
    name: 'PreviewExam',
    component: 'edu/preview-exam',
    hidden: true,
    meta: { ...ownTitles('route.previewExam'), icon: 'search', noCache: true, activeMenu: '/exam/exam' },
    children: [],
  },
  {
    path: '/edu/applicant-exam',
    name: 'ApplicantExam',
    component: 'edu/applicant-exam',
    hidden: true,
    meta: { ...ownTitles('route.applicantExam'), icon: 'peoples', noCache: true, activeMenu: '/exam/exam' },
    children: [],
  },
  // Kept alive in the tab cache (SPEC): a marker who looks at another tab comes back to the same question, filter and scroll.
  {
    path: '/edu/correct-exam',
    name: 'CorrectExam',
    component: 'edu/correct-exam',
    hidden: true,
    meta: { ...ownTitles('route.correctExam'), icon: 'edit', noCache: false, activeMenu: '/exam/exam' },
    children: [],
  },
  {
    path: '/edu/report-exam',
    name: 'ReportExam',
    component: 'edu/report-exam',
    hidden: true,
    meta: { ...ownTitles('route.reportExam'), icon: 'chart', noCache: true, activeMenu: '/exam/exam' },
    children: [],
  },
  {
    path: '/edu/edit-cert',
    name: 'EditCert',
    component: 'edu/edit-cert',
    hidden: true,
    meta: { ...ownTitles('route.editCert'), icon: 'edit', noCache: true, activeMenu: '/cert/template' },
    children: [],
  },
  {
    path: '/edu/preview-cert',
    name: 'PreviewCert',
    component: 'edu/preview-cert',
    hidden: true,
    meta: { ...ownTitles('route.previewCert'), icon: 'search', noCache: true, activeMenu: '/cert/template' },
    children: [],
  },
  {
    path: '/edu/applicant-cert',
    name: 'ApplicantCert',
    component: 'edu/applicant-cert',
    hidden: true,
    meta: { ...ownTitles('route.applicantCert'), icon: 'peoples', noCache: true, activeMenu: '/cert/certificate' },
    children: [],
  },
  {
    path: '/edu/import-cert',
    name: 'ImportCert',
    component: 'edu/import-cert',
    hidden: true,
    meta: { ...ownTitles('route.importCert'), icon: 'edit', noCache: true, activeMenu: '/cert/certificate' },
    children: [],
  },
  {
    path: '/edu/user-census-detail',
    name: 'UserCensusDetail',
    component: 'edu/user-census-detail',
    hidden: true,
    meta: { ...ownTitles('route.userCensusDetail'), icon: 'chart', noCache: true, activeMenu: '/course/census' },
    children: [],
  },
  // SPEC §7's database monitor page at eladmin's address of Druid's (the server lets only holders
  // of `monitor:list` load it); the menu's `/monitor/druid` shows the same page.
  {
    path: '/druid/index.html',
    name: 'DruidIndex',
    component: 'monitor/sql/index',
    hidden: true,
    meta: { ...ownTitles('route.databaseMonitor'), icon: 'sqlMonitor', noCache: true, activeMenu: '/monitor/druid' },
    children: [],
  },
];

export function isExternalPath(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

function joinPath(parent: string, path: string): string {
  if (path.startsWith('/') || isExternalPath(path)) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}

/** The server's menu tree with absolute paths, in the shape the sidebar, breadcrumb and search share. */
export function toViewRoutes(menus: readonly MenuRoute[], parentPath = ''): ViewRoute[] {
  return menus.map((menu) => {
    const path = joinPath(parentPath, menu.path);
    return {
      path,
      name: menu.name,
      component: menu.component,
      redirect: menu.redirect,
      hidden: menu.hidden,
      alwaysShow: menu.alwaysShow,
      meta: menu.meta,
      children: toViewRoutes(menu.children ?? [], path),
    };
  });
}

export function isPage(route: ViewRoute): boolean {
  return route.component !== undefined && route.component !== LAYOUT_COMPONENT && route.component !== PARENT_VIEW_COMPONENT;
}

/**
 * Every route that renders a page, however deep: children of Layout and ParentView containers
 * are flattened, as SPEC §2 asks, so each page answers at its own absolute path.
 */
export function pagesOf(routes: readonly ViewRoute[]): ViewRoute[] {
  return routes.flatMap((route) => [...(isPage(route) && !isExternalPath(route.path) ? [route] : []), ...pagesOf(route.children)]);
}

export function findPage(pages: readonly ViewRoute[], pathname: string): ViewRoute | undefined {
  return pages.find((page) => page.path === pathname) ?? pages.find((page) => matchPath(page.path, pathname) !== null);
}

/** The chain from the top of the tree down to the route at `pathname`, or [] when none matches. */
export function routeTrail(routes: readonly ViewRoute[], pathname: string): ViewRoute[] {
  for (const route of routes) {
    if (route.path === pathname || (isPage(route) && matchPath(route.path, pathname) !== null)) return [route];
    const below = routeTrail(route.children, pathname);
    if (below.length > 0) return [route, ...below];
  }
  return [];
}

export type BreadcrumbItem = { title: string; path: string; link: boolean };

/**
 * SPEC §2: the last item and items whose redirect is 'noredirect' are plain text, the others
 * links; the dashboard leads every trail that does not start with it. Titles in `locale`.
 */
export function breadcrumbOf(routes: readonly ViewRoute[], pathname: string, locale: Locale): BreadcrumbItem[] {
  const trail = routeTrail(routes, pathname).filter((route) => route.meta?.title && route.meta.breadcrumb !== false);
  const dashboard = routes.find((route) => route.path === DASHBOARD_PATH);
  if (dashboard?.meta && trail[0]?.path !== DASHBOARD_PATH) trail.unshift(dashboard);
  return trail.map((route, index) => ({
    title: route.meta ? menuTitle(route.meta, locale) : '',
    path: route.redirect !== undefined && route.redirect !== NO_REDIRECT ? route.redirect : route.path,
    link: index < trail.length - 1 && route.redirect !== NO_REDIRECT && (isPage(route) || route.redirect !== undefined),
  }));
}

export type SearchEntry = { path: string; title: string[] };

/**
 * What the header search looks through: titled routes that are not hidden, each titled in
 * `locale` with its ancestors' titles ('System > Users'); 'noredirect' directories only lend
 * their title.
 */
export function searchEntriesOf(routes: readonly ViewRoute[], locale: Locale, prefix: string[] = []): SearchEntry[] {
  const entries: SearchEntry[] = [];
  for (const route of routes) {
    if (route.hidden) continue;
    const title = route.meta?.title ? [...prefix, menuTitle(route.meta, locale)] : prefix;
    if (route.meta?.title && route.redirect !== NO_REDIRECT && (isPage(route) || isExternalPath(route.path))) {
      entries.push({ path: route.path, title });
    }
    entries.push(...searchEntriesOf(route.children, locale, title));
  }
  return entries;
}
