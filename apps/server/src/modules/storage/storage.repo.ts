import type { SortOrder, TimeRange } from '@cloud-classroom/shared/http';
import type { LOCAL_STORAGE_SORT_FIELDS } from '@cloud-classroom/shared/storage';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { contains, countRows, within } from '../../db/list-filters.js';
import type { Database, LocalStorageTable } from '../../db/schema.js';
import { changed } from '../../db/audit-columns.js';

export type StoredFile = Selectable<LocalStorageTable>;
type SortField = (typeof LOCAL_STORAGE_SORT_FIELDS)[number];
export type Paging = { page: number; size: number };
export type LocalStorageFilter = {
  blurry?: string | undefined;
  createTime?: TimeRange | undefined;
};

const COLUMNS = {
  id: 'id',
  name: 'name',
  realName: 'real_name',
  suffix: 'suffix',
  type: 'type',
  size: 'size',
  createTime: 'create_time',
  updateTime: 'update_time',
} as const satisfies Record<SortField, keyof LocalStorageTable>;

function matching(db: Kysely<Database>, { blurry, createTime }: LocalStorageFilter) {
  let query = db.selectFrom('sys_local_storage');
  if (blurry) query = query.where(contains(['name', 'suffix', 'type', 'create_by'], blurry));
  if (createTime) query = query.where(within('create_time', createTime));
  return query;
}

/** Files matching the filter in the given order (newest first by default); one page of them when paged. */
export async function findStoredFiles(
  db: Kysely<Database>,
  filter: LocalStorageFilter,
  sort: readonly SortOrder<SortField>[],
  paging?: Paging,
): Promise<StoredFile[]> {
  let query = matching(db, filter).selectAll();
  for (const { field, direction } of sort.length === 0 ? [{ field: 'id', direction: 'desc' } as const] : sort) {
    query = query.orderBy(COLUMNS[field], direction);
  }
  query = query.orderBy('id');
  if (paging !== undefined) query = query.limit(paging.size).offset(paging.page * paging.size);
  return query.execute();
}

export async function countStoredFiles(db: Kysely<Database>, filter: LocalStorageFilter): Promise<number> {
  return countRows(matching(db, filter));
}

export async function insertStoredFile(db: Kysely<Database>, file: Insertable<LocalStorageTable>): Promise<StoredFile> {
  return db.insertInto('sys_local_storage').values(file).returningAll().executeTakeFirstOrThrow();
}

/** Whether there was such a file to rename. */
export async function renameStoredFile(
  db: Kysely<Database>,
  id: number,
  name: string,
  stamp: { by: string; time: number },
): Promise<boolean> {
  const result = await db
    .updateTable('sys_local_storage')
    .set({ name, ...changed(stamp.by, stamp.time) })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findStoredFilesByIds(db: Kysely<Database>, ids: readonly number[]): Promise<StoredFile[]> {
  return db.selectFrom('sys_local_storage').selectAll().where('id', 'in', ids).execute();
}

export async function deleteStoredFiles(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('sys_local_storage').where('id', 'in', ids).execute();
}

/** The file stored under this path relative to the data folder, if it still is. */
export async function findStoredFileByPath(db: Kysely<Database>, path: string): Promise<StoredFile | undefined> {
  return db.selectFrom('sys_local_storage').selectAll().where('path', '=', path).executeTakeFirst();
}

/** Which of these paths a stored file has. */
export async function findStoredPathsAmong(db: Kysely<Database>, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  return (await db.selectFrom('sys_local_storage').select('path').where('path', 'in', [...paths]).execute()).map((row) => row.path);
}

/** How many bytes the files this user uploaded take. */
export async function sumStoredBytesBy(db: Kysely<Database>, username: string): Promise<number> {
  const row = await db
    .selectFrom('sys_local_storage')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('bytes'))
    .where('create_by', '=', username)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}
