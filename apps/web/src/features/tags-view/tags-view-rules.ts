import type { ViewMeta } from '../layout/view-routes';

/** SPEC §3's visited view. */
export type VisitedView = {
  path: string;
  fullPath: string;
  query: string;
  name?: string;
  title: string;
  meta: ViewMeta;
};

export const NO_NAME_TITLE = 'no-name';

/** SPEC §4: a view joins the tabs once per path; visiting it again only updates where it points. */
export function addVisitedView(views: readonly VisitedView[], view: VisitedView): VisitedView[] {
  const index = views.findIndex((visited) => visited.path === view.path);
  if (index === -1) return [...views, { ...view, title: view.title || NO_NAME_TITLE }];
  const current = views[index];
  if (current === undefined || (current.fullPath === view.fullPath && current.query === view.query)) return [...views];
  return views.map((visited, i) => (i === index ? { ...visited, fullPath: view.fullPath, query: view.query } : visited));
}

/** Affixed tabs stay: closing one is not offered and does nothing. */
export function closeVisitedView(views: readonly VisitedView[], path: string): VisitedView[] {
  return views.filter((view) => view.path !== path || view.meta.affix === true);
}

export function closeOtherVisitedViews(views: readonly VisitedView[], path: string): VisitedView[] {
  return views.filter((view) => view.path === path || view.meta.affix === true);
}

export function closeAllVisitedViews(views: readonly VisitedView[]): VisitedView[] {
  return views.filter((view) => view.meta.affix === true);
}

/** Cached views keep their page alive while another tab is shown, unless the route says noCache. */
export function addCachedView(names: readonly string[], view: Pick<VisitedView, 'name' | 'meta'>): string[] {
  if (view.name === undefined || view.meta.noCache === true || names.includes(view.name)) return [...names];
  return [...names, view.name];
}

/** Where to go after the active tab closed: the last tab left, else the given home. */
export function viewAfterClosing(remaining: readonly VisitedView[], home: string): string {
  return remaining.at(-1)?.fullPath ?? home;
}
