import { formatDateTime } from '@cloud-classroom/shared/display';
import type { SortOrder, TimeRange } from '@cloud-classroom/shared/http';
import type { User, UserSortField } from '@cloud-classroom/shared/users';
import type { Insertable, Kysely, Updateable } from 'kysely';
import { contains, countRows, within } from '../../db/list-filters.js';
import type { Database, DataScope, UserTable } from '../../db/schema.js';
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
  return user?.is_admin === 1 ? [ADMIN_PERMISSION] : menuPermissionsOf(db, userId);
}

/** The permission strings the user's roles grant through their menus; for callers known not to be administrators. */
export async function menuPermissionsOf(db: Kysely<Database>, userId: number): Promise<string[]> {
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

export type UserListFilter = {
  /** Only users of these departments; absent means any department, or none. */
  deptIds?: readonly number[];
  blurry?: string;
  enabled?: boolean;
  createTime?: TimeRange;
  sort: readonly SortOrder<UserSortField>[];
};

const SORT_COLUMNS = {
  id: 'u.id',
  username: 'u.username',
  nickName: 'u.nick_name',
  gender: 'u.gender',
  email: 'u.email',
  phone: 'u.phone',
  enabled: 'u.enabled',
  pwdResetTime: 'u.pwd_reset_time',
  createTime: 'u.create_time',
  updateTime: 'u.update_time',
} as const satisfies Record<UserSortField, `u.${keyof UserTable}`>;

const BLURRY_COLUMNS = ['u.username', 'u.nick_name', 'u.email', 'u.phone'] as const;

function filteredUsers(db: Kysely<Database>, filter: UserListFilter) {
  let query = db.selectFrom('sys_user as u');
  if (filter.deptIds !== undefined) query = query.where('u.dept_id', 'in', [...filter.deptIds]);
  if (filter.enabled !== undefined) query = query.where('u.enabled', '=', filter.enabled ? 1 : 0);
  if (filter.createTime !== undefined) query = query.where(within('u.create_time', filter.createTime));
  if (filter.blurry) query = query.where(contains(BLURRY_COLUMNS, filter.blurry));
  return query;
}

/** Ids of the matching users in the asked order (newest first by default), one page of them or all. */
export async function findUserIds(
  db: Kysely<Database>,
  filter: UserListFilter,
  page?: { offset: number; limit: number },
): Promise<{ ids: number[]; total: number }> {
  let query = filteredUsers(db, filter).select('u.id');
  for (const { field, direction } of filter.sort) query = query.orderBy(SORT_COLUMNS[field], direction);
  // The id breaks ties, so paging never shows a row twice or skips one.
  query = query.orderBy('u.id', 'desc');
  if (page === undefined) {
    const ids = (await query.execute()).map((row) => row.id);
    return { ids, total: ids.length };
  }
  const [rows, total] = await Promise.all([
    query.limit(page.limit).offset(page.offset).execute(),
    countRows(filteredUsers(db, filter)),
  ]);
  return { ids: rows.map((row) => row.id), total };
}

/** What the rules about who may manage whom need to know of a user. */
export type UserRef = {
  id: number;
  username: string;
  isAdmin: boolean;
  deptId: number | null;
  avatarName: string | null;
  /** The lowest (most powerful) level of the user's roles; null without roles. */
  bestLevel: number | null;
};

/** Each user's best (lowest) role level; users who hold no role are left out. */
async function bestLevelsOf(db: Kysely<Database>, userIds: readonly number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select((eb) => ['ur.user_id', eb.fn.min('r.level').as('level')])
    .where('ur.user_id', 'in', [...userIds])
    .groupBy('ur.user_id')
    .execute();
  return new Map(rows.map((row) => [row.user_id, row.level]));
}

/** The user's best (lowest) role level, or null when they hold no role. */
export async function bestLevelOf(db: Kysely<Database>, userId: number): Promise<number | null> {
  return (await bestLevelsOf(db, [userId])).get(userId) ?? null;
}

export async function findUserRefs(db: Kysely<Database>, ids: readonly number[]): Promise<UserRef[]> {
  if (ids.length === 0) return [];
  const [users, levels] = await Promise.all([
    db
      .selectFrom('sys_user')
      .select(['id', 'username', 'is_admin', 'dept_id', 'avatar_name'])
      .where('id', 'in', [...ids])
      .execute(),
    bestLevelsOf(db, ids),
  ]);
  return users.map((user) => ({
    id: user.id,
    username: user.username,
    isAdmin: user.is_admin === 1,
    deptId: user.dept_id,
    avatarName: user.avatar_name,
    bestLevel: levels.get(user.id) ?? null,
  }));
}

export async function deptExists(db: Kysely<Database>, id: number): Promise<boolean> {
  return (await db.selectFrom('sys_dept').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Whether another user already has this value; compared without case, as people read them. */
export async function isTaken(
  db: Kysely<Database>,
  column: 'username' | 'email',
  value: string,
  exceptId?: number,
): Promise<boolean> {
  let query = db
    .selectFrom('sys_user')
    .select('id')
    .where((eb) => eb(eb.fn('lower', [column]), '=', value.toLowerCase()));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function findPasswordHash(db: Kysely<Database>, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('sys_user').select('password_hash').where('id', '=', id).executeTakeFirst();
  return row?.password_hash;
}

export async function insertUser(db: Kysely<Database>, user: Insertable<UserTable>, roleIds: readonly number[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx.insertInto('sys_user').values(user).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('sys_users_roles').values(roleIds.map((roleId) => ({ user_id: id, role_id: roleId }))).execute();
    return id;
  });
}

/** Changes the user's columns and, when given, replaces their roles. */
export async function updateUser(
  db: Kysely<Database>,
  id: number,
  changes: Updateable<UserTable>,
  roleIds?: readonly number[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('sys_user').set(changes).where('id', '=', id).execute();
    if (roleIds === undefined) return;
    await trx.deleteFrom('sys_users_roles').where('user_id', '=', id).execute();
    await trx.insertInto('sys_users_roles').values(roleIds.map((roleId) => ({ user_id: id, role_id: roleId }))).execute();
  });
}

export async function setPasswordHashes(
  db: Kysely<Database>,
  hashes: readonly { id: number; passwordHash: string }[],
  changes: { pwd_reset_time: number; update_time: number; update_by: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const { id, passwordHash } of hashes) {
      await trx.updateTable('sys_user').set({ ...changes, password_hash: passwordHash }).where('id', '=', id).execute();
    }
  });
}

/** Their role links and sessions go with them (foreign keys cascade). */
export async function deleteUsers(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('sys_user').where('id', 'in', [...ids]).execute();
}

/** Which of these avatar names some user has. */
export async function findAvatarNamesInUse(db: Kysely<Database>, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const rows = await db.selectFrom('sys_user').select('avatar_name').where('avatar_name', 'in', [...names]).execute();
  return rows.flatMap((row) => (row.avatar_name === null ? [] : [row.avatar_name]));
}
