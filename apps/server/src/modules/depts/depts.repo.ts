import { formatDateTime } from '@cloud-classroom/shared/display';
import type { DEPT_SORT_FIELDS, Dept, DeptQuery } from '@cloud-classroom/shared/depts';
import { mapPage, type Page, type TimeRange } from '@cloud-classroom/shared/http';
import type { Kysely, Selectable } from 'kysely';
import { contains, within } from '../../db/list-filters.js';
import { paginate, type Ordering } from '../../db/paginate.js';
import { recountSubCounts } from '../../db/sub-count.js';
import type { Database, DeptTable } from '../../db/schema.js';
import { changed, created } from '../../db/audit-columns.js';

export type DeptFilter = {
  name?: string | undefined;
  enabled?: boolean | undefined;
  /** null: top level only. */
  pid?: number | null | undefined;
  createTime?: TimeRange | undefined;
  /** Only these departments (a data scope, or the departments a tree is made of). */
  ids?: readonly number[] | undefined;
};

export type DeptLink = { id: number; pid: number | null };

type DeptSortField = (typeof DEPT_SORT_FIELDS)[number];

/** By deptSort after the asked order. */
const ORDERING: Ordering<DeptSortField> = {
  sortable: {
    id: 'id',
    name: 'name',
    deptSort: 'dept_sort',
    enabled: 'enabled',
    createTime: 'create_time',
    updateTime: 'update_time',
  } satisfies Record<DeptSortField, keyof DeptTable>,
  tiebreak: [
    ['dept_sort', 'asc'],
    ['id', 'asc'],
  ],
};

/** `hasChildren` and `leaf` say the same as `subCount`, for tree widgets that read one or the other. */
export function withSubCount(dept: Dept, subCount: number): Dept {
  return { ...dept, subCount, hasChildren: subCount > 0, leaf: subCount === 0 };
}

function toDept(row: Selectable<DeptTable>): Dept {
  return withSubCount(
    {
      id: row.id,
      pid: row.pid,
      name: row.name,
      enabled: row.enabled === 1,
      deptSort: row.dept_sort,
      subCount: row.sub_count,
      hasChildren: false,
      leaf: true,
      label: row.name,
      createBy: row.create_by,
      updateBy: row.update_by,
      createTime: formatDateTime(row.create_time),
      updateTime: formatDateTime(row.update_time),
    },
    row.sub_count,
  );
}

function filtered(db: Kysely<Database>, filter: DeptFilter) {
  let query = db.selectFrom('sys_dept');
  if (filter.name) query = query.where(contains(['name'], filter.name));
  if (filter.enabled !== undefined) query = query.where('enabled', '=', filter.enabled ? 1 : 0);
  if (filter.pid === null) query = query.where('pid', 'is', null);
  if (typeof filter.pid === 'number') query = query.where('pid', '=', filter.pid);
  if (filter.createTime) query = query.where(within('create_time', filter.createTime));
  if (filter.ids) query = query.where('id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  return query;
}

/** The matching departments, sorted (by deptSort by default), one page of them when `page` is given. */
export async function findDepts(db: Kysely<Database>, filter: DeptFilter, page?: Pick<DeptQuery, 'page' | 'size' | 'sort'>): Promise<Page<Dept>> {
  return mapPage(await paginate(filtered(db, filter), (query) => query.selectAll(), ORDERING, page ?? {}), toDept);
}

/** Every department's place in the tree, or only those of `ids`. */
export async function findDeptLinks(db: Kysely<Database>, ids?: readonly number[]): Promise<DeptLink[]> {
  let query = db.selectFrom('sys_dept').select(['id', 'pid']);
  if (ids !== undefined) query = query.where('id', 'in', ids.length > 0 ? ids : [-1]);
  return query.execute();
}

export async function findDeptNames(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('sys_dept').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

export type DeptValues = { name: string; pid: number | null; deptSort: number; enabled: boolean };

export async function insertDept(db: Kysely<Database>, dept: DeptValues, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('sys_dept')
    .values({
      name: dept.name,
      pid: dept.pid,
      dept_sort: dept.deptSort,
      enabled: dept.enabled ? 1 : 0,
      sub_count: 0,
      ...created(by, now),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateDept(db: Kysely<Database>, id: number, dept: DeptValues, by: string, now: number): Promise<void> {
  await db
    .updateTable('sys_dept')
    .set({ name: dept.name, pid: dept.pid, dept_sort: dept.deptSort, enabled: dept.enabled ? 1 : 0, ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}

/** Sets a department's subCount from the rows that really sit below it. */
export async function recountChildren(db: Kysely<Database>, id: number): Promise<void> {
  await recountSubCounts(db, 'sys_dept', [id]);
}

/** How many users, and how many roles' custom scopes, point at these departments. */
export async function countDeptReferences(db: Kysely<Database>, ids: readonly number[]): Promise<{ users: number; roles: number }> {
  const [users, roles] = await Promise.all([
    db.selectFrom('sys_user').select((eb) => eb.fn.countAll<number>().as('n')).where('dept_id', 'in', ids).executeTakeFirstOrThrow(),
    db
      .selectFrom('sys_roles_depts')
      .select((eb) => eb.fn.count<number>('role_id').distinct().as('n'))
      .where('dept_id', 'in', ids)
      .executeTakeFirstOrThrow(),
  ]);
  return { users: Number(users.n), roles: Number(roles.n) };
}

export async function deleteDepts(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('sys_dept').where('id', 'in', ids).execute();
}
