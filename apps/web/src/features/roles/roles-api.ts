import type { Menu } from '@cloud-classroom/shared/menus';
import type { Standing } from '@cloud-classroom/shared/role-level';
import type { Role, RoleCreate, RoleLevel, RoleMenus, RoleUpdate } from '@cloud-classroom/shared/roles';
import { queryOptions } from '@tanstack/react-query';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';

const ROLES_PATH = 'api/roles';

/** The role detail, the caller's level and the menu tree hang below the list's key: a write on the page reloads them all. */
export const rolesKeys = {
  all: ['roles'] as const,
  callerLevel: ['roles', 'caller-level'] as const,
  menuTree: ['roles', 'menu-tree'] as const,
  detail: (id: number) => ['roles', 'detail', id] as const,
};

export const roleList = listQuery<Role>(rolesKeys.all, ROLES_PATH);

export const createRole = (body: RoleCreate, options?: CallOptions) => http.post(ROLES_PATH, body, options);
export const updateRole = (body: RoleUpdate, options?: CallOptions) => http.put(ROLES_PATH, body, options);
export const updateRoleMenus = (body: RoleMenus) => http.put(`${ROLES_PATH}/menu`, body);

/** One role with its menus, as the menu panel shows them. */
export const roleQuery = (id: number) => queryOptions({ queryKey: rolesKeys.detail(id), queryFn: () => http.get<Role>(`${ROLES_PATH}/${id}`) });

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

export const callerLevelQuery = () => queryOptions({ queryKey: rolesKeys.callerLevel, queryFn: fetchRoleLevel });

/** A menu or button as the assignment tree shows it. */
export type MenuNode = { key: number; title: string; titleEn: string | null; type: Menu['type']; children?: MenuNode[] };

/**
 * The whole menu and button tree. Role managers may read only the lazy endpoint (one level per
 * call), so the levels are fetched in parallel down to the leaves.
 */
async function fetchMenuTree(pid?: number): Promise<MenuNode[]> {
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

export const menuTreeQuery = () => queryOptions({ queryKey: rolesKeys.menuTree, queryFn: () => fetchMenuTree() });
