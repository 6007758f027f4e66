import { ADMIN_PERMISSION } from '@cloud-classroom/shared/constants';
import type { Kysely } from 'kysely';
import type { Database, DataScope } from '../../db/schema.js';

/** Whether the user is an administrator; false for a user who is not there. */
export async function isAdminUser(db: Kysely<Database>, userId: number): Promise<boolean> {
  const user = await db.selectFrom('sys_user').select('is_admin').where('id', '=', userId).executeTakeFirst();
  return user?.is_admin === 1;
}

/** The permission strings the user's roles grant through their menus; for callers known not to be administrators. */
export async function findMenuPermissions(db: Kysely<Database>, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_roles_menus as rm', 'rm.role_id', 'ur.role_id')
    .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
    .select('m.permission')
    .distinct()
    .where('ur.user_id', '=', userId)
    .where('m.permission', 'is not', null)
    .where('m.permission', '!=', '')
    // 'admin' is the administrator's wildcard; a menu carrying it must not hand out everything.
    .where('m.permission', '!=', ADMIN_PERMISSION)
    .execute();
  return rows.flatMap((row) => (row.permission === null ? [] : [row.permission])).sort();
}

export type ScopeOfRoles = {
  /** The user's own department; null without one. */
  deptId: number | null;
  isAdmin: boolean;
  /** The data scopes of the user's roles. */
  scopes: DataScope[];
  /** The chosen departments of their roles whose scope is '自定义' (without the subtrees). */
  chosenDeptIds: number[];
};

/** What the user's data scope is made of; undefined for a user who is not there. */
export async function findScopeOfRoles(db: Kysely<Database>, userId: number): Promise<ScopeOfRoles | undefined> {
  const user = await db.selectFrom('sys_user').select(['dept_id', 'is_admin']).where('id', '=', userId).executeTakeFirst();
  if (user === undefined) return undefined;
  const roles = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.data_scope'])
    .where('ur.user_id', '=', userId)
    .execute();
  const custom = roles.filter((role) => role.data_scope === '自定义').map((role) => role.id);
  const chosen =
    custom.length === 0 ? [] : await db.selectFrom('sys_roles_depts').select('dept_id').where('role_id', 'in', custom).execute();
  return {
    deptId: user.dept_id,
    isAdmin: user.is_admin === 1,
    scopes: roles.map((role) => role.data_scope as DataScope),
    chosenDeptIds: chosen.map((row) => row.dept_id),
  };
}

/** Every department as a link to its parent. */
export async function findDeptParents(db: Kysely<Database>): Promise<{ id: number; pid: number | null }[]> {
  return db.selectFrom('sys_dept').select(['id', 'pid']).execute();
}

/** What the level rule needs to know of a user. */
export type UserStanding = {
  id: number;
  username: string;
  isAdmin: boolean;
  deptId: number | null;
  /** The lowest (most powerful) level of the user's roles; null without roles. */
  level: number | null;
};

/** The users among `ids` that exist, with their best role level. */
export async function findUserStandings(db: Kysely<Database>, ids: readonly number[]): Promise<UserStanding[]> {
  if (ids.length === 0) return [];
  const [users, levels] = await Promise.all([
    db.selectFrom('sys_user').select(['id', 'username', 'is_admin', 'dept_id']).where('id', 'in', [...ids]).execute(),
    db
      .selectFrom('sys_users_roles as ur')
      .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
      .select((eb) => ['ur.user_id', eb.fn.min('r.level').as('level')])
      .where('ur.user_id', 'in', [...ids])
      .groupBy('ur.user_id')
      .execute(),
  ]);
  const levelOf = new Map(levels.map((row) => [row.user_id, row.level]));
  return users.map((user) => ({
    id: user.id,
    username: user.username,
    isAdmin: user.is_admin === 1,
    deptId: user.dept_id,
    level: levelOf.get(user.id) ?? null,
  }));
}

/** The users among `ids` that exist, with their department, by id. */
export async function findPeople(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, { id: number; username: string; deptId: number | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('sys_user').select(['id', 'username', 'dept_id']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, { id: row.id, username: row.username, deptId: row.dept_id }]));
}

export async function findUserIdByName(db: Kysely<Database>, username: string): Promise<number | undefined> {
  return (await db.selectFrom('sys_user').select('id').where('username', '=', username).executeTakeFirst())?.id;
}
