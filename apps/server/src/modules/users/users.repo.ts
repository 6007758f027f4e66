import { formatDateTime } from '@cloud-classroom/shared/display';
import type { SortOrder, TimeRange } from '@cloud-classroom/shared/http';
import type { User, UserSortField } from '@cloud-classroom/shared/users';
import type { Insertable, Kysely, Updateable } from 'kysely';
import { contains, within } from '../../db/list-filters.js';
import { paginate, type Ordering } from '../../db/paginate.js';
import type { Database, UserTable } from '../../db/schema.js';

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

export type UserListFilter = {
  /** Only users of these departments; absent means any department, or none. */
  deptIds?: readonly number[];
  /** Only users of none of these departments (and of no department). */
  outsideDeptIds?: readonly number[];
  blurry?: string;
  /** `blurry` matches names alone, not e-mail or phone. */
  blurryNamesOnly?: boolean;
  enabled?: boolean;
  createTime?: TimeRange;
  sort: readonly SortOrder<UserSortField>[];
};

/** Newest first after the asked order. */
const ORDERING: Ordering<UserSortField> = {
  sortable: {
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
  } satisfies Record<UserSortField, `u.${keyof UserTable}`>,
  nullable: ['gender', 'email', 'phone', 'pwdResetTime'],
  tiebreak: [['u.id', 'desc']],
};

const NAME_COLUMNS = ['u.username', 'u.nick_name'] as const;
const BLURRY_COLUMNS = [...NAME_COLUMNS, 'u.email', 'u.phone'] as const;

function filteredUsers(db: Kysely<Database>, filter: UserListFilter) {
  let query = db.selectFrom('sys_user as u');
  if (filter.deptIds !== undefined) query = query.where('u.dept_id', 'in', [...filter.deptIds]);
  const outside = filter.outsideDeptIds;
  if (outside !== undefined) query = query.where((eb) => eb.or([eb('u.dept_id', 'is', null), eb('u.dept_id', 'not in', [...outside])]));
  if (filter.enabled !== undefined) query = query.where('u.enabled', '=', filter.enabled ? 1 : 0);
  if (filter.createTime !== undefined) query = query.where(within('u.create_time', filter.createTime));
  if (filter.blurry) query = query.where(contains(filter.blurryNamesOnly ? NAME_COLUMNS : BLURRY_COLUMNS, filter.blurry));
  return query;
}

/** Ids of the matching users in the asked order (newest first by default), one page of them or all. */
export async function findUserIds(
  db: Kysely<Database>,
  filter: UserListFilter,
  page?: { page: number; size: number },
): Promise<{ ids: number[]; total: number }> {
  const { content, totalElements } = await paginate(filteredUsers(db, filter), (query) => query.select('u.id'), ORDERING, {
    ...page,
    sort: filter.sort,
  });
  return { ids: content.map((row) => row.id), total: totalElements };
}

/** How many users match, without reading them. */
export async function countUsers(db: Kysely<Database>, filter: UserListFilter): Promise<number> {
  const row = await filteredUsers(db, filter).select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** What the service needs of users it acts on by id. */
export type UserRef = {
  id: number;
  username: string;
  avatarName: string | null;
};

export async function findUserRefs(db: Kysely<Database>, ids: readonly number[]): Promise<UserRef[]> {
  if (ids.length === 0) return [];
  const users = await db.selectFrom('sys_user').select(['id', 'username', 'avatar_name']).where('id', 'in', [...ids]).execute();
  return users.map((user) => ({ id: user.id, username: user.username, avatarName: user.avatar_name }));
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
