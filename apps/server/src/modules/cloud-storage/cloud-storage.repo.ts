import type { Page, TimeRange } from '@cloud-classroom/shared/http';
import type { CLOUD_FILE_SORT_FIELDS } from '@cloud-classroom/shared/cloud-storage';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { contains, within } from '../../db/list-filters.js';
import { paginate, type ListRequest, type Ordering } from '../../db/paginate.js';
import type { CloudFileTable, Database } from '../../db/schema.js';

export type CloudFileRow = Selectable<CloudFileTable>;
type SortField = (typeof CLOUD_FILE_SORT_FIELDS)[number];

const SETTINGS_KEY = 'cloud-storage';

const ORDERING: Ordering<SortField> = {
  sortable: { id: 'id', name: 'name', suffix: 'suffix', size: 'size', createTime: 'create_time', updateTime: 'update_time' } satisfies Record<SortField, keyof CloudFileTable>,
  byDefault: [['id', 'desc']],
  tiebreak: [['id', 'asc']],
};

/** The bucket's settings as saved (JSON), or undefined before anyone saved them. */
export async function readCloudSettings(db: Kysely<Database>): Promise<string | undefined> {
  return (await db.selectFrom('app_setting').select('value').where('key', '=', SETTINGS_KEY).executeTakeFirst())?.value;
}

export async function writeCloudSettings(db: Kysely<Database>, value: string, now: number): Promise<void> {
  await db
    .insertInto('app_setting')
    .values({ key: SETTINGS_KEY, value, updated_at: now })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();
}

export type CloudFileFilter = { blurry?: string | undefined; createTime?: TimeRange | undefined };

/** The files of this bucket matching `blurry` (name, key, suffix) and listed within `createTime`, one page. */
export async function findCloudFilePage(db: Kysely<Database>, bucket: string, { blurry, createTime }: CloudFileFilter, request: ListRequest): Promise<Page<CloudFileRow>> {
  let query = db.selectFrom('sys_cloud_file').where('bucket', '=', bucket);
  if (blurry) query = query.where(contains(['name', 'object_key', 'suffix'], blurry));
  if (createTime) query = query.where(within('create_time', createTime));
  return paginate(query, (matching) => matching.selectAll(), ORDERING, request);
}

export async function findCloudFile(db: Kysely<Database>, id: number): Promise<CloudFileRow | undefined> {
  return db.selectFrom('sys_cloud_file').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findCloudFilesByIds(db: Kysely<Database>, ids: readonly number[]): Promise<CloudFileRow[]> {
  return db.selectFrom('sys_cloud_file').selectAll().where('id', 'in', [...ids]).execute();
}

/** Every file known in this bucket: key, size and id. */
export async function findBucketFiles(db: Kysely<Database>, bucket: string): Promise<Pick<CloudFileRow, 'id' | 'object_key' | 'size'>[]> {
  return db.selectFrom('sys_cloud_file').select(['id', 'object_key', 'size']).where('bucket', '=', bucket).execute();
}

export async function insertCloudFile(db: Kysely<Database>, row: Insertable<CloudFileTable>): Promise<CloudFileRow> {
  return db.insertInto('sys_cloud_file').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateCloudFileSize(db: Kysely<Database>, id: number, size: number, by: string, time: number): Promise<void> {
  await db.updateTable('sys_cloud_file').set({ size, update_by: by, update_time: time }).where('id', '=', id).execute();
}

export async function deleteCloudFiles(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('sys_cloud_file').where('id', 'in', [...ids]).execute();
}
