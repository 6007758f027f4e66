import { Result, Spin } from 'antd';
import { lazy, Suspense, useEffect, useMemo, type ComponentType, type LazyExoticComponent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { COURSE_PICKER_PATH, needsSelectedCourse, useSelectedCourseStore } from '../course/selected-course-store';
import { useTagsViewStore } from '../tags-view/tags-view-store';
import { findPage, pagesOf, type ViewRoute } from './view-routes';

export type PageLoader = (component: string) => (() => Promise<{ default: ComponentType }>) | undefined;

const REDIRECT_PREFIX = '/redirect';

function NotInBuild({ component }: { component: string }) {
  const { t } = useTranslation();
  return <Result status="warning" title={t('page.notInBuild.title')} subTitle={t('page.notInBuild.text', { component })} />;
}

/** SPEC §2's /redirect/{path*}: re-mounts the target view's page, then shows it again. */
function RedirectView({ pathname, search }: { pathname: string; search: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    const target = pathname.slice(REDIRECT_PREFIX.length) || '/';
    useTagsViewStore.getState().refreshView(target);
    navigate(`${target}${search}`, { replace: true });
  }, [navigate, pathname, search]);
  return null;
}

/**
 * The main area. Cached views stay mounted while hidden, as keep-alive does in eladmin, so a
 * half-filled search or an open page of a list survives a trip to another tab.
 */
export function AppMain({ routes, loadPage }: { routes: readonly ViewRoute[]; loadPage: PageLoader }) {
  const { pathname, search } = useLocation();
  const cachedViews = useTagsViewStore((state) => state.cachedViews);
  const visitedViews = useTagsViewStore((state) => state.visitedViews);
  const refreshKeys = useTagsViewStore((state) => state.refreshKeys);
  const course = useSelectedCourseStore((state) => state.course);
  const pages = useMemo(() => pagesOf(routes), [routes]);
  const components = useMemo(() => new Map<string, LazyExoticComponent<ComponentType>>(), []);

  if (pathname.startsWith(`${REDIRECT_PREFIX}/`)) return <RedirectView pathname={pathname} search={search} />;
  const active = findPage(pages, pathname);
  if (active === undefined) return <Navigate to="/404" replace />;
  if (needsSelectedCourse(pathname) && course === undefined) return <Navigate to={COURSE_PICKER_PATH} replace />;

  const componentOf = (name: string): ComponentType | undefined => {
    let component = components.get(name);
    if (component === undefined) {
      const load = loadPage(name);
      if (load === undefined) return undefined;
      component = lazy(load);
      components.set(name, component);
    }
    return component;
  };

  const kept = visitedViews
    .filter((view) => view.name !== undefined && cachedViews.includes(view.name) && view.path !== active.path)
    .map((view) => findPage(pages, view.path))
    .filter((page): page is ViewRoute => page !== undefined);

  const render = (page: ViewRoute, shown: boolean) => {
    const Page = componentOf(page.component ?? '');
    return (
      <div key={`${page.path}#${refreshKeys[page.path] ?? 0}`} className="app-view" hidden={!shown}>
        {Page === undefined ? <NotInBuild component={page.component ?? ''} /> : <Page />}
      </div>
    );
  };

  return (
    <main className="app-main">
      <Suspense fallback={<Spin className="app-main__loading" />}>
        {kept.map((page) => render(page, false))}
        {render(active, true)}
      </Suspense>
    </main>
  );
}
