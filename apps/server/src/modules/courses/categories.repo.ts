import type { Category, CategoryCreate } from '@cloud-classroom/shared/courses';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Kysely } from 'kysely';
import { changed, created } from '../../db/audit-columns.js';
import type { Database } from '../../db/schema.js';
import { recountSubCounts } from '../../db/sub-count.js';

export type CategoryLink = { id: number; pid: number | null; name: string };

/** Every category with the number of courses filed directly under it, by sort and id. */
export async function findCategories(db: Kysely<Database>): Promise<Category[]> {
  const rows = await db
    .selectFrom('edu_category as cat')
    .selectAll('cat')
    .select((eb) =>
      eb.selectFrom('edu_course as c').select((count) => count.fn.countAll().as('n')).whereRef('c.category_id', '=', 'cat.id').as('course_count'),
    )
    .orderBy('cat.sort')
    .orderBy('cat.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    pid: row.pid,
    name: row.name,
    sort: row.sort,
    subCount: row.sub_count,
    courseCount: Number(row.course_count),
    createBy: row.create_by,
    updateBy: row.update_by,
    createTime: formatDateTime(row.create_time),
    updateTime: formatDateTime(row.update_time),
  }));
}

/** Every category's place in the tree, or only those of `ids`. */
export async function findCategoryLinks(db: Kysely<Database>, ids?: readonly number[]): Promise<CategoryLink[]> {
  let query = db.selectFrom('edu_category').select(['id', 'pid', 'name']);
  if (ids !== undefined) query = query.where('id', 'in', ids.length > 0 ? ids : [-1]);
  return query.execute();
}

export async function insertCategory(db: Kysely<Database>, category: CategoryCreate, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('edu_category')
    .values({ pid: category.pid, name: category.name, sort: category.sort, sub_count: 0, ...created(by, now) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateCategory(db: Kysely<Database>, id: number, category: CategoryCreate, by: string, now: number): Promise<void> {
  await db
    .updateTable('edu_category')
    .set({ pid: category.pid, name: category.name, sort: category.sort, ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}

export async function recountCategoryChildren(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await recountSubCounts(db, 'edu_category', ids);
}

/** How many courses each of these categories holds directly; categories with none are absent. */
export async function countCoursesIn(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('edu_course')
    .select((eb) => ['category_id', eb.fn.countAll().as('n')])
    .where('category_id', 'in', ids)
    .groupBy('category_id')
    .execute();
  return new Map(rows.map((row) => [row.category_id ?? 0, Number(row.n)]));
}

/** How many published courses each category holds directly; categories with none are absent. */
export async function countPublishedCourses(db: Kysely<Database>): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('edu_course')
    .select((eb) => ['category_id', eb.fn.countAll().as('n')])
    .where('status', '=', 'published')
    .where('category_id', 'is not', null)
    .groupBy('category_id')
    .execute();
  return new Map(rows.map((row) => [row.category_id ?? 0, Number(row.n)]));
}

export async function deleteCategories(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('edu_category').where('id', 'in', ids).execute();
}
