import type { Page, TimeRange } from '@cloud-classroom/shared/http';
import type { LOCAL_STORAGE_SORT_FIELDS } from '@cloud-classroom/shared/storage';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { contains, within } from '../../db/list-filters.js';
import { paginate, type ListRequest, type Ordering } from '../../db/paginate.js';
import type { Database, LocalStorageTable } from '../../db/schema.js';
import { changed } from '../../db/audit-columns.js';

export type StoredFile = Selectable<LocalStorageTable>;
type SortField = (typeof LOCAL_STORAGE_SORT_FIELDS)[number];
export type LocalStorageFilter = {
  blurry?: string | undefined;
  createTime?: TimeRange | undefined;
};

/** Newest first unless asked otherwise. */
const ORDERING: Ordering<SortField> = {
  sortable: {
    id: 'id',
    name: 'name',
    realName: 'real_name',
    suffix: 'suffix',
    type: 'type',
    size: 'size',
    createTime: 'create_time',
    updateTime: 'update_time',
  } satisfies Record<SortField, keyof LocalStorageTable>,
  byDefault: [['id', 'desc']],
  tiebreak: [['id', 'asc']],
};

function matching(db: Kysely<Database>, { blurry, createTime }: LocalStorageFilter) {
  let query = db.selectFrom('sys_local_storage');
  if (blurry) query = query.where(contains(['name', 'suffix', 'type', 'create_by'], blurry));
  if (createTime) query = query.where(within('create_time', createTime));
  return query;
}

/** Files matching the filter in the asked order; one page of them when paged, else all. */
export async function findStoredFiles(db: Kysely<Database>, filter: LocalStorageFilter, request: ListRequest): Promise<Page<StoredFile>> {
  return paginate(matching(db, filter), (query) => query.selectAll(), ORDERING, request);
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
