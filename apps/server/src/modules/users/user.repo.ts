import { formatDateTime } from '@cloud-classroom/shared/display';
import type { User } from '@cloud-classroom/shared/users';
import type { Kysely } from 'kysely';
import type { Database, DataScope } from '../../db/schema.js';
import { ADMIN_PERMISSION } from '@cloud-classroom/shared/constants';

export type LoginCandidate = {
  id: number;
  username: string;
  passwordHash: string;
  enabled: boolean;
};

export async function findLoginCandidate(db: Kysely<Database>, username: string): Promise<LoginCandidate | undefined> {
  const row = await db
    .selectFrom('sys_user')
    .select(['id', 'username', 'password_hash', 'enabled'])
    .where('username', '=', username)
    .executeTakeFirst();
  return row && { id: row.id, username: row.username, passwordHash: row.password_hash, enabled: row.enabled === 1 };
}

const time = (ms: number | null): string | null => (ms === null ? null : formatDateTime(ms));

/** Users as the wire shows them, with department and roles, in the order of `ids`. */
export async function findUserDtos(db: Kysely<Database>, ids: readonly number[]): Promise<User[]> {
  if (ids.length === 0) return [];
  const [rows, roles] = await Promise.all([
    db
      .selectFrom('sys_user as u')
      .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
      .select([
        'u.id',
        'u.username',
        'u.nick_name',
        'u.gender',
        'u.phone',
        'u.email',
        'u.avatar_name',
        'u.enabled',
        'u.pwd_reset_time',
        'u.create_by',
        'u.update_by',
        'u.create_time',
        'u.update_time',
        'd.id as dept_id',
        'd.name as dept_name',
      ])
      .where('u.id', 'in', ids)
      .execute(),
    db
      .selectFrom('sys_users_roles as ur')
      .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
      .select(['ur.user_id', 'r.id', 'r.name', 'r.level', 'r.data_scope'])
      .where('ur.user_id', 'in', ids)
      .orderBy('r.level')
      .orderBy('r.id')
      .execute(),
  ]);
  const byId = new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        username: row.username,
        nickName: row.nick_name,
        gender: row.gender,
        phone: row.phone,
        email: row.email,
        avatarName: row.avatar_name,
        enabled: row.enabled === 1,
        pwdResetTime: time(row.pwd_reset_time),
        dept: row.dept_id === null || row.dept_name === null ? null : { id: row.dept_id, name: row.dept_name },
        roles: roles
          .filter((role) => role.user_id === row.id)
          .map((role) => ({ id: role.id, name: role.name, level: role.level, dataScope: role.data_scope })),
        createBy: row.create_by,
        updateBy: row.update_by,
        createTime: formatDateTime(row.create_time),
        updateTime: formatDateTime(row.update_time),
      } satisfies User,
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function findUserDto(db: Kysely<Database>, id: number): Promise<User | undefined> {
  return (await findUserDtos(db, [id]))[0];
}

/**
 * What the user may do: the permission strings of every menu and button of every role they
 * hold, or just 'admin' for an administrator (which passes every check on both sides).
 */
export async function permissionsOf(db: Kysely<Database>, userId: number): Promise<string[]> {
  const user = await db.selectFrom('sys_user').select('is_admin').where('id', '=', userId).executeTakeFirst();
  if (user?.is_admin === 1) return [ADMIN_PERMISSION];
  const rows = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_roles_menus as rm', 'rm.role_id', 'ur.role_id')
    .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
    .select('m.permission')
    .distinct()
    .where('ur.user_id', '=', userId)
    .where('m.permission', 'is not', null)
    .where('m.permission', '!=', '')
    .execute();
  return rows.flatMap((row) => (row.permission === null ? [] : [row.permission])).sort();
}

/**
 * Department ids whose people the user may see: the union over their roles of all (→ [] meaning
 * no restriction), their own department, or the role's chosen departments with their subtrees.
 */
export async function dataScopesOf(db: Kysely<Database>, userId: number): Promise<number[]> {
  const user = await db.selectFrom('sys_user').select(['dept_id', 'is_admin']).where('id', '=', userId).executeTakeFirst();
  if (user === undefined) return [];
  if (user.is_admin === 1) return [];
  const roles = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.data_scope'])
    .where('ur.user_id', '=', userId)
    .execute();
  const scopes = new Set(roles.map((role) => role.data_scope as DataScope));
  if (scopes.has('全部')) return [];
  const ids = new Set<number>();
  if (scopes.has('本级') && user.dept_id !== null) ids.add(user.dept_id);
  const custom = roles.filter((role) => role.data_scope === '自定义').map((role) => role.id);
  if (custom.length > 0) {
    const chosen = await db.selectFrom('sys_roles_depts').select('dept_id').where('role_id', 'in', custom).execute();
    for (const id of await withDescendants(db, chosen.map((row) => row.dept_id))) ids.add(id);
  }
  // A user whose roles grant no department at all still sees nobody, not everybody.
  return ids.size === 0 ? [-1] : [...ids].sort((a, b) => a - b);
}

/** The given departments and every department below them. */
export async function withDescendants(db: Kysely<Database>, roots: readonly number[]): Promise<number[]> {
  if (roots.length === 0) return [];
  const all = await db.selectFrom('sys_dept').select(['id', 'pid']).execute();
  const children = new Map<number, number[]>();
  for (const dept of all) {
    if (dept.pid !== null) children.set(dept.pid, [...(children.get(dept.pid) ?? []), dept.id]);
  }
  const result = new Set<number>();
  const queue = [...roots];
  while (queue.length > 0) {
    const id = queue.pop() as number;
    if (result.has(id)) continue;
    result.add(id);
    queue.push(...(children.get(id) ?? []));
  }
  return [...result].sort((a, b) => a - b);
}
