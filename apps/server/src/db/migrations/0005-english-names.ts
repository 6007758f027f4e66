import { sql, type Kysely } from 'kysely';

// Menu titles and dictionary labels are data, so an English back office needs them in English
// too. Each record keeps its Chinese name (eladmin's field, never empty) and gains an optional
// English one; the web shows the English one in English and falls back to the Chinese.
//
// The English names of what earlier versions seeded are written here, not read from the seed
// data: this migration must do the same thing whenever it runs, whatever the seed becomes. The
// seeded records are found by what identifies them for good (a directory's path, a page's
// component, a button's permission, an entry's dictionary and value), not by id or title, which
// an install may have changed.

/** Top-level directories by path. */
const DIRECTORIES: Array<[path: string, titleEn: string]> = [
  ['system', 'System'],
  ['monitor', 'Monitoring'],
  ['sys-tools', 'Tools'],
];

/** Pages by component. */
const PAGES: Array<[component: string, titleEn: string]> = [
  ['system/user/index', 'Users'],
  ['system/role/index', 'Roles'],
  ['system/menu/index', 'Menus'],
  ['system/dept/index', 'Departments'],
  ['system/dict/index', 'Dictionaries'],
  ['monitor/online/index', 'Online users'],
  ['monitor/log/index', 'Operation log'],
  ['monitor/log/errorLog', 'Error log'],
  ['monitor/server/index', 'Server status'],
  ['tools/storage/index', 'Storage'],
  ['tools/swagger/index', 'API docs'],
];

/** Buttons by permission. */
const BUTTONS: Array<[permission: string, titleEn: string]> = [
  ...(
    [
      ['user', 'user'],
      ['roles', 'role'],
      ['menu', 'menu'],
      ['dept', 'department'],
      ['dict', 'dictionary'],
      ['storage', 'file'],
    ] as const
  ).flatMap(([prefix, noun]): Array<[string, string]> => [
    [`${prefix}:add`, `Add ${noun}`],
    [`${prefix}:edit`, `Edit ${noun}`],
    [`${prefix}:del`, `Delete ${noun}`],
  ]),
  ['online:del', 'Force logout'],
];

/** Dictionary entries by dictionary name and value. */
const DICT_LABELS: Array<[dict: string, value: string, labelEn: string]> = [
  ['user_status', 'true', 'Active'],
  ['user_status', 'false', 'Disabled'],
  ['dept_status', 'true', 'Enabled'],
  ['dept_status', 'false', 'Disabled'],
  ['gender', '男', 'Male'],
  ['gender', '女', 'Female'],
];

/**
 * Audit descriptions earlier versions stored in English. The log now stores every action's
 * Chinese text once and shows it in the reader's language through the message catalogue.
 */
const AUDIT_DESCRIPTIONS: Array<[english: string, chinese: string]> = [
  ['login', '用户登录'],
  ['logout', '退出登录'],
  ['export menus', '导出菜单数据'],
  ['create menu', '新增菜单'],
  ['edit menu', '修改菜单'],
  ['delete menu', '删除菜单'],
  ['menu parent picker', '查询上级菜单'],
  ['export departments', '导出部门数据'],
  ['create department', '新增部门'],
  ['edit department', '修改部门'],
  ['delete departments', '删除部门'],
  ['view department picker tree', '查询上级部门'],
  ['export roles', '导出角色数据'],
  ['create role', '新增角色'],
  ['edit role', '修改角色'],
  ['edit role menus', '修改角色菜单'],
  ['delete roles', '删除角色'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sys_menu').addColumn('title_en', 'varchar(100)').execute();
  await db.schema.alterTable('sys_dict_detail').addColumn('label_en', 'varchar(100)').execute();

  for (const [path, titleEn] of DIRECTORIES) {
    await sql`update sys_menu set title_en = ${titleEn} where type = 0 and pid is null and path = ${path}`.execute(db);
  }
  for (const [component, titleEn] of PAGES) {
    await sql`update sys_menu set title_en = ${titleEn} where type = 1 and component = ${component}`.execute(db);
  }
  for (const [permission, titleEn] of BUTTONS) {
    await sql`update sys_menu set title_en = ${titleEn} where type = 2 and permission = ${permission}`.execute(db);
  }
  for (const [dict, value, labelEn] of DICT_LABELS) {
    await sql`update sys_dict_detail set label_en = ${labelEn}
      where value = ${value} and dict_id in (select id from sys_dict where name = ${dict})`.execute(db);
  }
  // One pass over what may be a long log.
  const cases = sql.join(
    AUDIT_DESCRIPTIONS.map(([english, chinese]) => sql`when ${english} then ${chinese}`),
    sql` `,
  );
  const englishTexts = sql.join(AUDIT_DESCRIPTIONS.map(([english]) => english));
  await sql`update sys_log set description = case description ${cases} end where description in (${englishTexts})`.execute(db);
}

// The audit descriptions stay Chinese: the catalogue shows them in English to whoever reads in English.
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sys_dict_detail').dropColumn('label_en').execute();
  await db.schema.alterTable('sys_menu').dropColumn('title_en').execute();
}
