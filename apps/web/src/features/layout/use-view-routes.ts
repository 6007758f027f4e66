import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { menuRoutesQuery } from '../menus/menus-api';
import { STATIC_VIEW_ROUTES, toViewRoutes, type ViewRoute } from './view-routes';

/**
 * SPEC §4: the menu is built once per session from `api/menus/build`; it never goes stale by
 * itself, though a write on the menu page reloads it with the other menu queries.
 */
export function useViewRoutes(): { routes: ViewRoute[]; loading: boolean } {
  const { data, isPending } = useQuery(menuRoutesQuery());
  const routes = useMemo(() => [...STATIC_VIEW_ROUTES, ...toViewRoutes(data ?? [])], [data]);
  return { routes, loading: isPending };
}
