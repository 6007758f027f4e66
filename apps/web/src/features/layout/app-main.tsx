import { Spin } from 'antd';
import { createElement, memo, Suspense, useEffect, useMemo, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { loadedComponent, type LoadedComponent } from '../../lib/loaded-component';
import { COURSE_PICKER_PATH, needsSelectedCourse, useSelectedCourseStore } from '../courses/selected-course-store';
import { useTagsViewStore } from '../tags-view/tags-view-store';
import { findPage, pagesOf, type ViewRoute } from './view-routes';

export type PageLoader = (component: string) => (() => Promise<{ default: ComponentType }>) | undefined;

const REDIRECT_PREFIX = '/redirect';

/** One component per loader and page name, so a page keeps its identity across renders. */
const lazyPages = new WeakMap<PageLoader, Map<string, LoadedComponent<object>>>();

function lazyPage(loadPage: PageLoader, name: string): ComponentType | undefined {
  let pages = lazyPages.get(loadPage);
  if (pages === undefined) {
    pages = new Map();
    lazyPages.set(loadPage, pages);
  }
  let page = pages.get(name);
  if (page === undefined) {
    const load = loadPage(name);
    if (load === undefined) return undefined;
    page = loadedComponent(load, <Spin className="app-main__loading" />);
    pages.set(name, page);
  }
  return page;
}

/**
 * A view's page renders again only when it is refreshed: hidden cached pages would otherwise
 * re-render with every route change, which with a few large tables open makes navigation slow.
 */
const ViewPage = memo(function ViewPage({ page }: { page: ComponentType }) {
  return createElement(page);
});

function NotInBuild({ component }: { component: string }) {
  const { t } = useTranslation();
  // Plain markup rather than antd's Result, whose illustrations weigh 5 KiB in the shell's first load.
  return (
    <section className="status-page status-page--inline" role="alert">
      <h2 className="status-page__title">{t('page.notInBuild.title')}</h2>
      <p className="status-page__text">{t('page.notInBuild.text', { component })}</p>
    </section>
  );
}

/** SPEC §2's /redirect/{path*}: re-mounts the target view's page, then shows it again. */
function RedirectView({ target, search }: { target: string; search: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    useTagsViewStore.getState().refreshView(target);
    navigate(`${target}${search}`, { replace: true });
  }, [navigate, target, search]);
  return null;
}

/**
 * The main area. Cached views stay mounted while hidden, as keep-alive does in eladmin, so a
 * half-filled search or an open page of a list survives a trip to another tab. Each view is
 * keyed by its own path (a page with a path parameter may be open under several), and all of
 * them sit in one keyed list so that switching tabs moves them instead of mounting them again.
 */
export function AppMain({ routes, loadPage }: { routes: readonly ViewRoute[]; loadPage: PageLoader }) {
  const { pathname, search } = useLocation();
  const cachedViews = useTagsViewStore((state) => state.cachedViews);
  const visitedViews = useTagsViewStore((state) => state.visitedViews);
  const refreshKeys = useTagsViewStore((state) => state.refreshKeys);
  const course = useSelectedCourseStore((state) => state.course);
  const pages = useMemo(() => pagesOf(routes), [routes]);

  // While a view is being refreshed the other cached views stay mounted; only the target goes.
  const redirecting = pathname.startsWith(`${REDIRECT_PREFIX}/`);
  const target = redirecting ? pathname.slice(REDIRECT_PREFIX.length) : pathname;
  const active = redirecting ? undefined : findPage(pages, pathname);
  if (!redirecting && active === undefined) return <Navigate to="/404" replace />;
  if (!redirecting && needsSelectedCourse(pathname) && course === undefined) return <Navigate to={COURSE_PICKER_PATH} replace />;

  const kept = visitedViews.flatMap((view) => {
    if (view.name === undefined || !cachedViews.includes(view.name) || view.path === target) return [];
    const page = findPage(pages, view.path);
    return page === undefined ? [] : [{ path: view.path, page }];
  });

  const render = (path: string, page: ViewRoute, shown: boolean) => {
    const Page = lazyPage(loadPage, page.component ?? '');
    return (
      <div key={`${path}#${refreshKeys[path] ?? 0}`} className="app-view" hidden={!shown}>
        {Page === undefined ? <NotInBuild component={page.component ?? ''} /> : <ViewPage page={Page} />}
      </div>
    );
  };

  const views = kept.map(({ path, page }) => render(path, page, false));
  if (active !== undefined) views.push(render(pathname, active, true));

  return (
    <main className="app-main">
      <Suspense fallback={<Spin className="app-main__loading" />}>{views}</Suspense>
      {redirecting && <RedirectView target={target || '/'} search={search} />}
    </main>
  );
}
