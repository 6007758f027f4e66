import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useMenuTitle } from '../../lib/use-menu-title';
import { findPage, pagesOf, type ViewRoute } from '../layout/view-routes';
import { useTagsViewStore } from './tags-view-store';

/**
 * Each page reached joins the tabs (the affixed ones first, SPEC §2), and the browser's title
 * names the page in the chosen language, following a language switch at once.
 */
export function useTabsFollowRoutes(routes: readonly ViewRoute[], loading: boolean): void {
  const { t } = useTranslation();
  const titleOf = useMenuTitle();
  const { pathname, search } = useLocation();

  useEffect(() => {
    if (loading) return;
    const pages = pagesOf(routes);
    for (const page of pages.filter((candidate) => candidate.meta?.affix)) {
      useTagsViewStore.getState().addView({
        path: page.path,
        fullPath: page.path,
        query: '',
        name: page.name,
        title: page.meta?.title ?? '',
        meta: page.meta ?? { title: '' },
      });
    }
    const page = findPage(pages, pathname);
    if (page === undefined || page.meta === undefined) return;
    useTagsViewStore.getState().addView({
      path: pathname,
      fullPath: `${pathname}${search}`,
      query: search,
      name: page.name,
      title: page.meta.title,
      meta: page.meta,
    });
  }, [routes, loading, pathname, search]);

  useEffect(() => {
    if (loading) return;
    const meta = findPage(pagesOf(routes), pathname)?.meta;
    if (meta !== undefined) document.title = `${titleOf(meta)} - ${t('app.title')}`;
  }, [routes, loading, pathname, titleOf, t]);
}
