import { formatDateTime } from '@cloud-classroom/shared/display';
import type { TimeRange } from '@cloud-classroom/shared/http';
import type { Menu, MenuInput } from '@cloud-classroom/shared/menus';
import type { Kysely, Selectable } from 'kysely';
import { contains, within } from '../../db/list-filters.js';
import { recountSubCounts } from '../../db/sub-count.js';
import type { Database, MenuTable } from '../../db/schema.js';
import { changed, created } from '../../db/audit-columns.js';

export type MenuFilter = {
  /** null: top level only; undefined: any level. */
  pid?: number | null;
  blurry?: string;
  createTime?: TimeRange;
};

function toMenu(row: Selectable<MenuTable>): Menu {
  return {
    id: row.id,
    pid: row.pid,
    type: row.type,
    title: row.title,
    titleEn: row.title_en,
    componentName: row.component_name,
    component: row.component,
    path: row.path,
    icon: row.icon,
    menuSort: row.menu_sort,
    permission: row.permission,
    iFrame: row.i_frame === 1,
    cache: row.cache === 1,
    hidden: row.hidden === 1,
    subCount: row.sub_count,
    hasChildren: row.sub_count > 0,
    leaf: row.sub_count <= 0,
    label: row.title,
    createBy: row.create_by,
    updateBy: row.update_by,
    createTime: formatDateTime(row.create_time),
    updateTime: formatDateTime(row.update_time),
  };
}

export async function findMenus(db: Kysely<Database>, filter: MenuFilter): Promise<Menu[]> {
  let query = db.selectFrom('sys_menu').selectAll();
  if (filter.pid === null) query = query.where('pid', 'is', null);
  else if (filter.pid !== undefined) query = query.where('pid', '=', filter.pid);
  if (filter.blurry) query = query.where(contains(['title', 'title_en', 'component', 'permission'], filter.blurry));
  if (filter.createTime !== undefined) query = query.where(within('create_time', filter.createTime));
  const rows = await query.orderBy('menu_sort').orderBy('id').execute();
  return rows.map(toMenu);
}

/** The fields the menu tree is built from, of the menus a user sees: not buttons, not hidden. */
export type RouteMenuRow = Pick<
  Selectable<MenuTable>,
  'id' | 'pid' | 'type' | 'title' | 'title_en' | 'component_name' | 'component' | 'path' | 'icon' | 'i_frame' | 'cache'
>;

/** `userId` undefined: every menu (an administrator). In menu order. */
export async function findRouteMenus(db: Kysely<Database>, userId: number | undefined): Promise<RouteMenuRow[]> {
  let query = db
    .selectFrom('sys_menu')
    .select(['id', 'pid', 'type', 'title', 'title_en', 'component_name', 'component', 'path', 'icon', 'i_frame', 'cache'])
    .where('type', '!=', 2)
    .where('hidden', '=', 0);
  if (userId !== undefined) {
    query = query.where('id', 'in', (eb) =>
      eb
        .selectFrom('sys_roles_menus as rm')
        .innerJoin('sys_users_roles as ur', 'ur.role_id', 'rm.role_id')
        .select('rm.menu_id')
        .where('ur.user_id', '=', userId),
    );
  }
  return query.orderBy('menu_sort').orderBy('id').execute();
}

export async function findMenuLinks(db: Kysely<Database>): Promise<Array<{ id: number; pid: number | null }>> {
  return db.selectFrom('sys_menu').select(['id', 'pid']).execute();
}

/** The menu's permission code; undefined when there is no such menu. */
export async function findMenuPermission(db: Kysely<Database>, id: number): Promise<{ permission: string | null } | undefined> {
  return db.selectFrom('sys_menu').select('permission').where('id', '=', id).executeTakeFirst();
}

/** Whether another menu (not `exceptId`) already has this value in a unique column. */
export async function menuValueTaken(
  db: Kysely<Database>,
  column: 'title' | 'component_name',
  value: string,
  exceptId?: number,
): Promise<boolean> {
  let query = db.selectFrom('sys_menu').select('id').where(column, '=', value);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

const columnsOf = (menu: MenuInput) => ({
  pid: menu.pid,
  type: menu.type,
  title: menu.title,
  title_en: menu.titleEn,
  component_name: menu.componentName,
  component: menu.component,
  path: menu.path,
  icon: menu.icon,
  menu_sort: menu.menuSort,
  permission: menu.permission,
  i_frame: menu.iFrame ? 1 : 0,
  cache: menu.cache ? 1 : 0,
  hidden: menu.hidden ? 1 : 0,
} as const);

export async function insertMenu(db: Kysely<Database>, menu: MenuInput, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('sys_menu')
    .values({ ...columnsOf(menu), sub_count: 0, ...created(by, now) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateMenu(db: Kysely<Database>, id: number, menu: MenuInput, by: string, now: number): Promise<void> {
  await db
    .updateTable('sys_menu')
    .set({ ...columnsOf(menu), ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}

/** Role links go with them (foreign-key cascade). */
export async function deleteMenus(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('sys_menu').where('id', 'in', ids).execute();
}

/** Sets each menu's sub_count to the number of menus directly under it. */
export async function recountChildren(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await recountSubCounts(db, 'sys_menu', ids);
}
