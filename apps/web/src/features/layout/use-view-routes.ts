import type { MenuRoute } from '@cloud-classroom/shared/menus';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { http } from '../../lib/http-client';
import { STATIC_VIEW_ROUTES, toViewRoutes, type ViewRoute } from './view-routes';

/**
 * SPEC §4: the menu is built once per session from `api/menus/build`; it never goes stale by
 * itself (a menu edit shows after the next login or a reload, as in eladmin).
 */
export function useViewRoutes(): { routes: ViewRoute[]; loading: boolean } {
  const { data, isPending } = useQuery({
    queryKey: ['menus', 'build'],
    queryFn: () => http.get<MenuRoute[]>('api/menus/build'),
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const routes = useMemo(() => [...STATIC_VIEW_ROUTES, ...toViewRoutes(data ?? [])], [data]);
  return { routes, loading: isPending };
}
