import type { LOCAL_STORAGE_SORT_FIELDS } from '@cloud-classroom/shared/storage';
import { sql, type Expression, type Insertable, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Database, LocalStorageTable } from '../../db/schema.js';

export type StoredFile = Selectable<LocalStorageTable>;
export type SortOrder = { field: (typeof LOCAL_STORAGE_SORT_FIELDS)[number]; direction: 'asc' | 'desc' };
export type Paging = { page: number; size: number };
export type LocalStorageFilter = {
  blurry?: string | undefined;
  createTime?: { from: number; to: number } | undefined;
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
} as const satisfies Record<SortOrder['field'], keyof LocalStorageTable>;

/** Case-insensitive "contains" on both dialects, with the user's % and _ taken literally. */
function contains(column: keyof LocalStorageTable, text: string): Expression<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

function matching(db: Kysely<Database>, { blurry, createTime }: LocalStorageFilter) {
  let query = db.selectFrom('sys_local_storage');
  if (blurry) {
    query = query.where((eb) =>
      eb.or([contains('name', blurry), contains('suffix', blurry), contains('type', blurry), contains('create_by', blurry)]),
    );
  }
  if (createTime) query = query.where('create_time', '>=', createTime.from).where('create_time', '<', createTime.to);
  return query;
}

/** Files matching the filter in the given order (newest first by default); one page of them when paged. */
export async function findStoredFiles(
  db: Kysely<Database>,
  filter: LocalStorageFilter,
  sort: readonly SortOrder[],
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
  const { count } = await matching(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
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
    .set({ name, update_by: stamp.by, update_time: stamp.time })
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
