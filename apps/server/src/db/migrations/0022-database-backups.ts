import type { Kysely } from 'kysely';
import { addMenus, grantMenusToRole, pageMenu, type MenuSpec } from '../migration-helpers.js';
import { ADMIN_ROLE } from './0009-system-data.js';

// Database backups (issue 16, part 2): the page in the system tools directory, with its buttons
// (make or upload a backup, edit the schedule, delete backups), for the administrators. The
// backups themselves are files under DATA_DIR/backups, not rows: restoring an older database
// must not forget the backups made since.

export const DATABASE_BACKUP_MENUS: MenuSpec[] = [
  {
    title: '系统工具',
    titleEn: 'Tools',
    type: 0,
    path: 'sys-tools',
    children: [
      pageMenu(['数据库备份', 'Database backups'], 'database', 'tools/database/index', 'Database', 'database', 'database:list', {
        sort: 4,
        children: [
          { title: '新建备份', titleEn: 'Make or upload a backup', type: 2, permission: 'database:add' },
          { title: '备份计划', titleEn: 'Edit backup schedule', type: 2, permission: 'database:edit' },
          { title: '删除备份', titleEn: 'Delete backups', type: 2, permission: 'database:del' },
        ],
      }),
    ],
  },
];

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, DATABASE_BACKUP_MENUS, Date.now());
  await grantMenusToRole(db, ADMIN_ROLE.name, menus.inserted);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await referenceData(db);
}

// Nothing to undo: removing reference data would take operators' grants and edits with it.
export async function down(): Promise<void> {}
