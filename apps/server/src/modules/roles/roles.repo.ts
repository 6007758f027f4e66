import { formatDateTime } from '@cloud-classroom/shared/display';
import type { TimeRange } from '@cloud-classroom/shared/http';
import type { ROLE_SORT_FIELDS, Role, RoleQuery } from '@cloud-classroom/shared/roles';
import type { Kysely } from 'kysely';
import { contains, within } from '../../db/list-filters.js';
import { paginate, type Ordering } from '../../db/paginate.js';
import type { Database, DataScope, RoleTable } from '../../db/schema.js';
import { changed, created } from '../../db/audit-columns.js';

export type RoleFilter = {
  /** Part of the name or of the description. */
  blurry?: string | undefined;
  createTime?: TimeRange | undefined;
};

type RoleSortField = (typeof ROLE_SORT_FIELDS)[number];

/** Best level first after the asked order. */
const ORDERING: Ordering<RoleSortField> = {
  sortable: {
    id: 'id',
    name: 'name',
    level: 'level',
    dataScope: 'data_scope',
    description: 'description',
    createTime: 'create_time',
    updateTime: 'update_time',
  } satisfies Record<RoleSortField, keyof RoleTable>,
  nullable: ['description'],
  tiebreak: [
    ['level', 'asc'],
    ['id', 'asc'],
  ],
};

function filtered(db: Kysely<Database>, filter: RoleFilter) {
  let query = db.selectFrom('sys_role');
  if (filter.blurry) query = query.where(contains(['name', 'description', 'description_en'], filter.blurry));
  if (filter.createTime) query = query.where(within('create_time', filter.createTime));
  return query;
}

/** Ids of the matching roles, best level first unless sorted otherwise; one page of them when `page` is given. */
export async function findRoleIds(
  db: Kysely<Database>,
  filter: RoleFilter,
  page?: Pick<RoleQuery, 'page' | 'size' | 'sort'>,
): Promise<{ ids: number[]; total: number }> {
  const { content, totalElements } = await paginate(filtered(db, filter), (query) => query.select('id'), ORDERING, page ?? {});
  return { ids: content.map((row) => row.id), total: totalElements };
}

/** Roles as the wire shows them, with their departments and menus, in the order of `ids`. */
export async function findRoleDtos(db: Kysely<Database>, ids: readonly number[]): Promise<Role[]> {
  if (ids.length === 0) return [];
  const [rows, depts, menus] = await Promise.all([
    db.selectFrom('sys_role').selectAll().where('id', 'in', ids).execute(),
    db
      .selectFrom('sys_roles_depts as rd')
      .innerJoin('sys_dept as d', 'd.id', 'rd.dept_id')
      .select(['rd.role_id', 'd.id', 'd.name'])
      .where('rd.role_id', 'in', ids)
      .orderBy('d.dept_sort')
      .orderBy('d.id')
      .execute(),
    db
      .selectFrom('sys_roles_menus as rm')
      .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
      .select(['rm.role_id', 'm.id', 'm.title'])
      .where('rm.role_id', 'in', ids)
      .orderBy('m.id')
      .execute(),
  ]);
  const byId = new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        name: row.name,
        level: row.level,
        dataScope: row.data_scope,
        description: row.description,
        descriptionEn: row.description_en,
        depts: depts.filter((dept) => dept.role_id === row.id).map((dept) => ({ id: dept.id, name: dept.name })),
        menus: menus.filter((menu) => menu.role_id === row.id).map((menu) => ({ id: menu.id, title: menu.title })),
        createBy: row.create_by,
        updateBy: row.update_by,
        createTime: formatDateTime(row.create_time),
        updateTime: formatDateTime(row.update_time),
      } satisfies Role,
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export type RoleSummary = { id: number; name: string; level: number };

export async function findRoleSummaries(db: Kysely<Database>, ids: readonly number[]): Promise<RoleSummary[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('sys_role').select(['id', 'name', 'level']).where('id', 'in', ids).execute();
}

export async function findRoleIdByName(db: Kysely<Database>, name: string): Promise<number | undefined> {
  const row = await db.selectFrom('sys_role').select('id').where('name', '=', name).executeTakeFirst();
  return row?.id;
}

export type RoleValues = { name: string; level: number; dataScope: DataScope; description: string | null; descriptionEn: string | null };

export async function insertRole(db: Kysely<Database>, role: RoleValues, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('sys_role')
    .values({
      name: role.name,
      level: role.level,
      data_scope: role.dataScope,
      description: role.description,
      description_en: role.descriptionEn,
      ...created(by, now),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateRole(db: Kysely<Database>, id: number, role: RoleValues, by: string, now: number): Promise<void> {
  await db
    .updateTable('sys_role')
    .set({ name: role.name, level: role.level, data_scope: role.dataScope, description: role.description, description_en: role.descriptionEn, ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}

export async function touchRole(db: Kysely<Database>, id: number, by: string, now: number): Promise<void> {
  await db.updateTable('sys_role').set(changed(by, now)).where('id', '=', id).execute();
}

export async function replaceRoleDepts(db: Kysely<Database>, roleId: number, deptIds: readonly number[]): Promise<void> {
  await db.deleteFrom('sys_roles_depts').where('role_id', '=', roleId).execute();
  if (deptIds.length > 0) {
    await db.insertInto('sys_roles_depts').values(deptIds.map((deptId) => ({ role_id: roleId, dept_id: deptId }))).execute();
  }
}

export async function replaceRoleMenus(db: Kysely<Database>, roleId: number, menuIds: readonly number[]): Promise<void> {
  await db.deleteFrom('sys_roles_menus').where('role_id', '=', roleId).execute();
  if (menuIds.length > 0) {
    await db.insertInto('sys_roles_menus').values(menuIds.map((menuId) => ({ role_id: roleId, menu_id: menuId }))).execute();
  }
}

/** The permission string of each existing menu among `ids` (null for menus that carry none). */
export async function findMenuPermissions(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('sys_menu').select(['id', 'permission']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.permission === '' ? null : row.permission]));
}

/** How many users hold each of these roles; roles nobody holds are left out. */
export async function countHolders(db: Kysely<Database>, roleIds: readonly number[]): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('sys_users_roles')
    .select(['role_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('role_id', 'in', roleIds)
    .groupBy('role_id')
    .execute();
  return new Map(rows.map((row) => [row.role_id, Number(row.n)]));
}

/** Their menu and department links go with them (ON DELETE CASCADE). */
export async function deleteRoles(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('sys_role').where('id', 'in', ids).execute();
}
