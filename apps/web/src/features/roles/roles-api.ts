import type { Menu } from '@cloud-classroom/shared/menus';
import type { Standing } from '@cloud-classroom/shared/role-level';
import type { Role, RoleCreate, RoleLevel, RoleMenus, RoleUpdate } from '@cloud-classroom/shared/roles';
import { http } from '../../lib/http-client';

export const ROLES_PATH = 'api/roles';
/** The list's query key; the role detail and the menu tree hang below it. */
export const ROLES_KEY = 'roles';

export const createRole = (body: RoleCreate) => http.post(ROLES_PATH, body);
export const updateRole = (body: RoleUpdate) => http.put(ROLES_PATH, body);
export const fetchRole = (id: number) => http.get<Role>(`${ROLES_PATH}/${id}`);
export const updateRoleMenus = (body: RoleMenus) => http.put(`${ROLES_PATH}/menu`, body);

/** Every role, for pickers (the user form). */
export const fetchAllRoles = () => http.get<Role[]>(`${ROLES_PATH}/all`);
/** The caller's best role level: they manage roles at that level and below (higher numbers). */
export const fetchRoleLevel = () => http.get<RoleLevel>(`${ROLES_PATH}/level`);

/**
 * The caller as the level rule (`mayManage`) sees them, from `fetchRoleLevel`'s answer, which
 * puts administrators at the top level; undefined while it loads, which manages nobody.
 */
export const callerStanding = (level: number | null | undefined): Standing | undefined =>
  level === undefined ? undefined : { isAdmin: false, level };

/** A menu or button as the assignment tree shows it. */
export type MenuNode = { key: number; title: string; titleEn: string | null; type: Menu['type']; children?: MenuNode[] };

/**
 * The whole menu and button tree. Role managers may read only the lazy endpoint (one level per
 * call), so the levels are fetched in parallel down to the leaves.
 */
export async function fetchMenuTree(pid?: number): Promise<MenuNode[]> {
  const menus = await http.get<Menu[]>('api/menus/lazy', pid === undefined ? {} : { pid });
  return Promise.all(
    menus.map(async (menu) => ({
      key: menu.id,
      title: menu.title,
      titleEn: menu.titleEn,
      type: menu.type,
      children: menu.hasChildren ? await fetchMenuTree(menu.id) : undefined,
    })),
  );
}
