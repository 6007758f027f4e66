import type { Kysely } from 'kysely';
import { addMenus, createAuditedTable, grantMenusToRole, notNull, pageMenu, type MenuSpec } from '../migration-helpers.js';
import { ADMIN_ROLE } from './0009-system-data.js';

// Cloud object storage (issue 16, part 3; SPEC §7 `/api/qiNiuContent`): the files known to be in
// the configured S3-compatible bucket, one row per object (its key, unique per bucket), with the
// name it was uploaded with and its size. The bucket's settings are one `app_setting` row (the
// secret key encrypted with STORAGE_SECRET_KEY), not a table. The page sits in the system tools
// (0009's `sys-tools` directory), fifth, guarded by eladmin's `storage:*` codes.

export const CLOUD_STORAGE_MENUS: MenuSpec[] = [
  {
    title: '系统工具',
    titleEn: 'Tools',
    type: 0,
    path: 'sys-tools',
    children: [
      // No buttons of its own: a button is one permission code, and storage:add, storage:edit and
      // storage:del are the Storage page's (0009), as in eladmin, where one storage:* set covers
      // both the local and the Qiniu storage. Roles granted them upload, configure and delete here too.
      pageMenu(['云存储', 'Cloud storage'], 'cloud-storage', 'tools/cloud-storage/index', 'CloudStorage', 'qiniu', 'storage:list', { sort: 5 }),
    ],
  },
];

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, CLOUD_STORAGE_MENUS, Date.now());
  await grantMenusToRole(db, ADMIN_ROLE.name, menus.inserted);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createAuditedTable(db, 'sys_cloud_file')
    .addColumn('bucket', 'varchar(63)', notNull)
    .addColumn('object_key', 'varchar(1024)', notNull)
    .addColumn('name', 'varchar(255)', notNull)
    .addColumn('suffix', 'varchar(32)', notNull)
    .addColumn('size', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('sys_cloud_file_key').on('sys_cloud_file').columns(['bucket', 'object_key']).unique().execute();
  await referenceData(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_cloud_file').execute();
}
