import type { Kysely } from 'kysely';
import { addMenus, grantMenusToRole, pageMenu, type MenuSpec } from '../migration-helpers.js';
import { ADMIN_ROLE } from './0009-system-data.js';

// The database monitor (issue 16, part 4; SPEC §7's `/druid/index.html`, eladmin's "SQL监控"):
// the page in the monitoring directory, after the server's, seen with `monitor:list` like it, and
// its button resetting the counters (`monitor:reset`), for the administrators. The counters
// themselves live in the server's memory (`db/statement-stats.ts`), not in rows.

export const DATABASE_MONITOR_MENUS: MenuSpec[] = [
  {
    title: '系统监控',
    titleEn: 'Monitoring',
    type: 0,
    path: 'monitor',
    children: [
      pageMenu(['SQL监控', 'Database monitor'], 'druid', 'monitor/sql/index', 'Sql', 'sqlMonitor', 'monitor:list', {
        sort: 5,
        children: [{ title: '重置SQL监控', titleEn: 'Reset the counters', type: 2, permission: 'monitor:reset' }],
      }),
    ],
  },
];

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, DATABASE_MONITOR_MENUS, Date.now());
  await grantMenusToRole(db, ADMIN_ROLE.name, menus.inserted);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await referenceData(db);
}

// Nothing to undo: removing reference data would take operators' grants and edits with it.
export async function down(): Promise<void> {}
