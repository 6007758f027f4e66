import type { Kysely } from 'kysely';
import { addMenus, createAuditedTable, crudButtons, grantMenusToRole, notNull, pageMenu, type MenuSpec } from '../migration-helpers.js';
import { ADMIN_ROLE } from './0009-system-data.js';

// Installation media (issue 16, part 1): the packages staff publish on the public `/download`
// page — clients, offline course packs, user guides. A row is one version of a package (a name on
// a platform), its file in the file store under a name the server chose (`deploy/<yyyyMM>/<hex>`),
// with the name it was uploaded with, its size, its SHA-256 (computed as the bytes arrived) and a
// count of downloads. A version is unique per name and platform. The page sits in the system
// tools (0009's `sys-tools` directory), with its add, edit and delete buttons.

export const INSTALLATION_MEDIA_MENUS: MenuSpec[] = [
  {
    title: '系统工具',
    titleEn: 'Tools',
    type: 0,
    path: 'sys-tools',
    children: [
      pageMenu(['安装包管理', 'Installation media'], 'deploy', 'tools/deploy/index', 'Deploy', 'download', 'deploy:list', {
        sort: 3,
        children: crudButtons('deploy', '安装包', 'package'),
      }),
    ],
  },
];

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, INSTALLATION_MEDIA_MENUS, Date.now());
  await grantMenusToRole(db, ADMIN_ROLE.name, menus.inserted);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createAuditedTable(db, 'sys_deploy_package')
    .addColumn('name', 'varchar(100)', notNull)
    .addColumn('version', 'varchar(50)', notNull)
    /** windows | macos | linux | android | ios | any (shared/deploy.ts). */
    .addColumn('platform', 'varchar(16)', notNull)
    .addColumn('release_notes', 'text', notNull)
    .addColumn('file_name', 'varchar(255)', notNull)
    .addColumn('file_key', 'varchar(255)', notNull)
    .addColumn('size', 'bigint', notNull)
    .addColumn('sha256', 'varchar(64)', notNull)
    .addColumn('downloads', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('sys_deploy_package_version').on('sys_deploy_package').columns(['name', 'platform', 'version']).unique().execute();
  await db.schema.createIndex('sys_deploy_package_file').on('sys_deploy_package').column('file_key').unique().execute();
  await referenceData(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_deploy_package').execute();
}
