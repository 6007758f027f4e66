import type { Permission } from '@cloud-classroom/shared/permission';
import { type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { created } from './audit-columns.js';
import { isPostgres } from './dialect.js';
import { recountSubCounts } from './sub-count.js';
import type { DataScope, Database, MenuType } from './schema.js';

// What migrations share: the column conventions of every table, and the reference data
// (menus with their permission codes, the roles' grants, dictionaries) a migration ships so
// that fresh and upgraded installs end up with the same.
//
// Old migrations keep calling these helpers, so they must go on doing what they did: a helper
// writes only columns its tables have had since it was written (sys_menu.title_en and
// sys_dict_detail.label_en since 0005); a column added later needs a default, or old
// migrations calling a helper that does not fill it would break.

// ---- Columns -------------------------------------------------------------------------------

/**
 * A flag: integer 0/1 on both dialects. SQLite binds no booleans and PostgreSQL will not cast
 * integers to boolean, so one representation keeps every repository dialect-free.
 */
export const flag = (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(0);
export const notNull = (col: ColumnDefinitionBuilder) => col.notNull();

/** A new table whose first column is an auto-increment integer `id` on either dialect. */
export function createTableWithId(db: Kysely<unknown>, name: string) {
  return isPostgres(db)
    ? db.schema.createTable(name).addColumn('id', 'serial', (col) => col.primaryKey())
    : db.schema.createTable(name).addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

/** A new table with `id` and the who-and-when columns that `created()` and `changed()` fill. */
export function createAuditedTable(db: Kysely<unknown>, name: string) {
  return createTableWithId(db, name)
    .addColumn('create_by', 'varchar(64)')
    .addColumn('update_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', notNull)
    .addColumn('update_time', 'bigint', notNull);
}

// ---- Reference data ------------------------------------------------------------------------

type ReferenceTables = Pick<Database, 'sys_menu' | 'sys_role' | 'sys_roles_menus' | 'sys_dict' | 'sys_dict_detail'>;

/** Migrations get an untyped database and the seed a typed one; the helpers see the tables they write. */
export type AnyDatabase = Kysely<unknown> | Kysely<Database>;
const tablesOf = (db: AnyDatabase) => db as unknown as Kysely<ReferenceTables>;

/** Reference rows are written by the system, not by a person. */
const BY = 'system';

export type MenuSpec = {
  /** Chinese, as eladmin's field; unique among menus (see addMenus). */
  title: string;
  titleEn: string;
  type: MenuType;
  /** What identifies a directory for good. */
  path?: string;
  /** What identifies a page for good (a name in the web app's page registry). */
  component?: string;
  componentName?: string;
  icon?: string;
  /** What identifies a button for good; a page's code guards its list. */
  permission?: Permission;
  cache?: boolean;
  hidden?: boolean;
  /** Place among its siblings; by default its place in the list given. */
  sort?: number;
  children?: MenuSpec[];
};

/**
 * How a menu is found again on any install, whatever its id, title or place: a directory by
 * its path, a page by its component, a button by its permission — wherever it now sits, as
 * operators rename and move menus but do not change what they are.
 */
function keyOf(menu: MenuSpec): { column: 'path' | 'component' | 'permission'; value: string } {
  const column = menu.type === 0 ? 'path' : menu.type === 1 ? 'component' : 'permission';
  const value = menu[column];
  if (value === undefined || value === '') throw new Error(`menu ${menu.title}: a ${['directory', 'page', 'button'][menu.type]} needs its ${column}`);
  return { column, value };
}

export type AddedMenus = {
  /** The id of every menu of the tree, found or inserted, depth first. */
  ids: number[];
  /** The ids of those inserted now. */
  inserted: number[];
};

/**
 * Inserts each menu of the tree that the install lacks (see keyOf), under its parent as found
 * or inserted; a menu already there keeps everything an operator gave it, and only its missing
 * children are added. A title another menu already has (titles are unique) gets ' (2)', ' (3)'…
 * rather than stopping the upgrade; the operator can rename it.
 */
export async function addMenus(database: AnyDatabase, menus: readonly MenuSpec[], now = Date.now()): Promise<AddedMenus> {
  const db = tablesOf(database);
  const ids: number[] = [];
  const inserted: number[] = [];
  const parents = new Set<number>();
  const add = async (list: readonly MenuSpec[], pid: number | null): Promise<void> => {
    for (const [index, menu] of list.entries()) {
      const { column, value } = keyOf(menu);
      const found = await db.selectFrom('sys_menu').select('id').where('type', '=', menu.type).where(column, '=', value).orderBy('id').executeTakeFirst();
      let id = found?.id;
      if (id === undefined) {
        ({ id } = await db
          .insertInto('sys_menu')
          .values({
            ...created(BY, now),
            pid,
            type: menu.type,
            title: await freeTitle(db, menu.title),
            title_en: menu.titleEn,
            component_name: menu.componentName ?? null,
            component: menu.component ?? null,
            path: menu.path ?? null,
            icon: menu.icon ?? null,
            menu_sort: menu.sort ?? index + 1,
            permission: menu.permission ?? null,
            i_frame: 0,
            cache: menu.cache === true ? 1 : 0,
            hidden: menu.hidden === true ? 1 : 0,
            sub_count: 0,
          })
          .returning('id')
          .executeTakeFirstOrThrow());
        inserted.push(id);
        if (pid !== null) parents.add(pid);
      }
      ids.push(id);
      if (menu.children !== undefined && menu.children.length > 0) await add(menu.children, id);
    }
  };
  await add(menus, null);
  await recountSubCounts(database as Kysely<Database>, 'sys_menu', [...parents]);
  return { ids, inserted };
}

async function freeTitle(db: Kysely<ReferenceTables>, title: string): Promise<string> {
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? title : `${title} (${n})`;
    const taken = await db.selectFrom('sys_menu').select('id').where('title', '=', candidate).executeTakeFirst();
    if (taken === undefined) return candidate;
  }
}

/** `descriptionEn` only from 0027 on, which adds its column (see the note at the top). */
export type RoleSpec = { name: string; level: number; dataScope: DataScope; description: string; descriptionEn?: string };

/** Inserts the role unless one of that name exists (which is kept as it is); answers its id. */
export async function addRole(database: AnyDatabase, role: RoleSpec, now = Date.now()): Promise<{ id: number; inserted: boolean }> {
  const db = tablesOf(database);
  const found = await db.selectFrom('sys_role').select('id').where('name', '=', role.name).executeTakeFirst();
  if (found !== undefined) return { id: found.id, inserted: false };
  const { id } = await db
    .insertInto('sys_role')
    .values({
      ...created(BY, now),
      name: role.name,
      level: role.level,
      data_scope: role.dataScope,
      description: role.description,
      ...(role.descriptionEn === undefined ? {} : { description_en: role.descriptionEn }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, inserted: true };
}

/**
 * Gives the named role these menus (and so their permission codes), keeping what it has.
 * Without such a role (an operator removed it, or the install never had it) it does nothing
 * and answers false: a migration does not bring back a role to hand it menus.
 */
export async function grantMenusToRole(database: AnyDatabase, roleName: string, menuIds: readonly number[]): Promise<boolean> {
  const db = tablesOf(database);
  const role = await db.selectFrom('sys_role').select('id').where('name', '=', roleName).executeTakeFirst();
  if (role === undefined) return false;
  if (menuIds.length === 0) return true;
  const held = await db.selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', role.id).where('menu_id', 'in', menuIds).execute();
  const heldIds = new Set(held.map((grant) => grant.menu_id));
  const missing = [...new Set(menuIds)].filter((id) => !heldIds.has(id));
  if (missing.length > 0) await db.insertInto('sys_roles_menus').values(missing.map((menuId) => ({ role_id: role.id, menu_id: menuId }))).execute();
  return true;
}

export type DictionarySpec = {
  name: string;
  description: string;
  entries: ReadonlyArray<readonly [label: string, labelEn: string, value: string]>;
};

/**
 * Inserts the dictionary unless one of that name exists, then each entry whose value the
 * dictionary lacks (an entry is its dictionary and value; labels may have been edited).
 */
export async function addDictionary(database: AnyDatabase, dict: DictionarySpec, now = Date.now()): Promise<void> {
  const db = tablesOf(database);
  const found = await db.selectFrom('sys_dict').select('id').where('name', '=', dict.name).executeTakeFirst();
  const dictId =
    found?.id ??
    (await db.insertInto('sys_dict').values({ ...created(BY, now), name: dict.name, description: dict.description }).returning('id').executeTakeFirstOrThrow()).id;
  const present = await db.selectFrom('sys_dict_detail').select('value').where('dict_id', '=', dictId).execute();
  const values = new Set(present.map((entry) => entry.value));
  const missing = dict.entries
    .map(([label, labelEn, value], index) => ({ ...created(BY, now), dict_id: dictId, label, label_en: labelEn, value, dict_sort: index + 1 }))
    .filter((entry) => !values.has(entry.value));
  if (missing.length > 0) await db.insertInto('sys_dict_detail').values(missing).execute();
}

/** A page of the back office: a menu of type 1, cached, opening `component` at `path`. */
export const pageMenu = (
  [title, titleEn]: [string, string],
  path: string,
  component: string,
  componentName: string,
  icon: string,
  permission: Permission,
  extra: Partial<MenuSpec> = {},
): MenuSpec => ({ title, titleEn, type: 1, path, component, componentName, icon, permission, cache: true, ...extra });

/** A resource with add, edit and delete permission codes, so its buttons' codes type-check. */
export type CrudResource = {
  [P in Permission]: P extends `${infer R}:add` ? (`${R}:edit` | `${R}:del` extends Permission ? R : never) : never;
}[Permission];

/** A page's add, edit and delete buttons: `<prefix>:add|edit|del`, named after the noun. */
export const crudButtons = (prefix: CrudResource, noun: string, nounEn: string): MenuSpec[] => [
  { title: `${noun}新增`, titleEn: `Add ${nounEn}`, type: 2, permission: `${prefix}:add` },
  { title: `${noun}编辑`, titleEn: `Edit ${nounEn}`, type: 2, permission: `${prefix}:edit` },
  { title: `${noun}删除`, titleEn: `Delete ${nounEn}`, type: 2, permission: `${prefix}:del` },
];
