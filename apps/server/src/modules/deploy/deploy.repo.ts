import type { Page } from '@cloud-classroom/shared/http';
import type { DEPLOY_SORT_FIELDS, DeployPlatform } from '@cloud-classroom/shared/deploy';
import type { TimeRange } from '@cloud-classroom/shared/http';
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { contains, within } from '../../db/list-filters.js';
import { paginate, type ListRequest, type Ordering } from '../../db/paginate.js';
import type { Database, DeployPackageTable } from '../../db/schema.js';

export type DeployPackageRow = Selectable<DeployPackageTable>;
type SortField = (typeof DEPLOY_SORT_FIELDS)[number];
export type DeployFilter = { blurry?: string | undefined; platform?: DeployPlatform | undefined; createTime?: TimeRange | undefined };

/** Newest first unless asked otherwise: what was just published is on top. */
const ORDERING: Ordering<SortField> = {
  sortable: {
    id: 'id',
    name: 'name',
    version: 'version',
    platform: 'platform',
    size: 'size',
    downloads: 'downloads',
    createTime: 'create_time',
  } satisfies Record<SortField, keyof DeployPackageTable>,
  byDefault: [['create_time', 'desc']],
  tiebreak: [['id', 'desc']],
};

export async function findPackagePage(db: Kysely<Database>, { blurry, platform, createTime }: DeployFilter, request: ListRequest): Promise<Page<DeployPackageRow>> {
  let query = db.selectFrom('sys_deploy_package');
  if (blurry) query = query.where(contains(['name', 'version', 'file_name', 'release_notes'], blurry));
  if (platform) query = query.where('platform', '=', platform);
  if (createTime) query = query.where(within('create_time', createTime));
  return paginate(query, (matching) => matching.selectAll(), ORDERING, request);
}

export async function findPackagesByIds(db: Kysely<Database>, ids: readonly number[]): Promise<DeployPackageRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('sys_deploy_package').selectAll().where('id', 'in', ids).execute();
}

/** Every version, each package's together and newest first (published last first). */
export async function findAllPackages(db: Kysely<Database>): Promise<DeployPackageRow[]> {
  return db.selectFrom('sys_deploy_package').selectAll().orderBy('name').orderBy('platform').orderBy('create_time', 'desc').orderBy('id', 'desc').execute();
}

/** Whether this version of the package (a name on a platform) is published already, other than `exceptId`. */
export async function versionTaken(db: Kysely<Database>, name: string, platform: string, version: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('sys_deploy_package').select('id').where('name', '=', name).where('platform', '=', platform).where('version', '=', version);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertPackage(db: Kysely<Database>, row: Insertable<DeployPackageTable>): Promise<DeployPackageRow> {
  return db.insertInto('sys_deploy_package').values(row).returningAll().executeTakeFirstOrThrow();
}

/** False when there is no such row. */
export async function updatePackage(db: Kysely<Database>, id: number, change: Updateable<DeployPackageTable>): Promise<boolean> {
  const result = await db.updateTable('sys_deploy_package').set(change).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deletePackages(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('sys_deploy_package').where('id', 'in', ids).execute();
}

/** One more download of the version. */
export async function countDownload(db: Kysely<Database>, id: number): Promise<void> {
  await db.updateTable('sys_deploy_package').set({ downloads: sql`downloads + 1` }).where('id', '=', id).execute();
}

export async function findPackageKeysAmong(db: Kysely<Database>, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  return (await db.selectFrom('sys_deploy_package').select('file_key').where('file_key', 'in', [...keys]).execute()).map((row) => row.file_key);
}

export async function anyPackage(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('sys_deploy_package').select('id').limit(1).executeTakeFirst()) !== undefined;
}
