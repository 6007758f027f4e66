import type { Menu, MenuCreateBody, MenuUpdateBody } from '@cloud-classroom/shared/menus';
import { http } from '../../lib/http-client';

/** The children of `pid`; 0 or none gives the top level. */
export function fetchMenuChildren(pid = 0, signal?: AbortSignal): Promise<Menu[]> {
  return http.get<Menu[]>('api/menus/lazy', { pid }, { signal });
}

/**
 * The parent picker's tree around the menus being edited, without them (so none can move
 * under itself); an empty list gives the top level.
 */
export function fetchMenuSuperior(ids: readonly number[]): Promise<Menu[]> {
  return http.post<Menu[]>('api/menus/superior', ids);
}

export function createMenu(body: MenuCreateBody): Promise<void> {
  return http.post('api/menus', body);
}

export function updateMenu(body: MenuUpdateBody): Promise<void> {
  return http.put('api/menus', body);
}
