import type { Menu, MenuCreateBody, MenuRoute, MenuUpdateBody } from '@cloud-classroom/shared/menus';
import { queryOptions } from '@tanstack/react-query';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';

/**
 * Everything about menus hangs below one key, the sidebar's routes included: a menu saved on the
 * menu page reloads the list, the tree levels, the parent pickers and the sidebar.
 */
export const menusKeys = {
  all: ['menus'] as const,
  build: ['menus', 'build'] as const,
};

/** GET api/menus answers every match at once (no paging): the top level, or matches at any level while filtered. */
export const menuList = listQuery<Menu>(menusKeys.all, 'api/menus');

/** The children of `pid`; 0 gives the top level. */
export const menuChildrenQuery = (pid: number) =>
  queryOptions({
    queryKey: [...menusKeys.all, 'children', pid],
    queryFn: ({ signal }) => http.get<Menu[]>('api/menus/lazy', { pid }, { signal }),
  });

/**
 * The parent picker's tree: around the menu being edited, without it (so it cannot move under
 * itself); the top level when adding.
 */
export const menuParentsQuery = (menuId: number | undefined) =>
  queryOptions({
    queryKey: [...menusKeys.all, 'superior', menuId ?? null],
    queryFn: ({ signal }) =>
      menuId === undefined ? http.get<Menu[]>('api/menus/lazy', { pid: 0 }, { signal }) : http.post<Menu[]>('api/menus/superior', [menuId], { signal }),
  });

/** The signed-in person's sidebar, built once per session (SPEC §4). */
export const menuRoutesQuery = () =>
  queryOptions({
    queryKey: menusKeys.build,
    queryFn: () => http.get<MenuRoute[]>('api/menus/build'),
    staleTime: Infinity,
    gcTime: Infinity,
  });

export function createMenu(body: MenuCreateBody, options?: CallOptions): Promise<void> {
  return http.post('api/menus', body, options);
}

export function updateMenu(body: MenuUpdateBody, options?: CallOptions): Promise<void> {
  return http.put('api/menus', body, options);
}
