import type { Permission } from '@cloud-classroom/shared/permission';
import { sql, type Kysely } from 'kysely';
import { addDictionary, addMenus, addRole, crudButtons, grantMenusToRole, pageMenu, type DictionarySpec, type MenuSpec, type RoleSpec } from '../migration-helpers.js';

// The system's reference data — the menus with their permission codes, the administrators'
// role and its grants, the dictionaries — shipped by a migration, so that a fresh install and
// an upgraded one hold the same, and a later migration can add to it (addMenus and
// grantMenusToRole) for every install. Until this version the first-start seed inserted it
// together with the demo organisation; the seed now brings only the accounts and the demo.
//
// Written out here, not read from elsewhere: a migration does the same whenever it runs.
//
// On a fresh install (no user yet) it inserts all of it. On an upgraded install it does
// nothing: the earlier first start inserted exactly this data in the one transaction that
// created the first user, so a menu, grant or entry missing now was removed by an operator, and
// one that differs (a renamed menu, an edited label) was changed by one; both stay as they are.
// `npm run seed -- --reset` applies it again (referenceData), inserting what is missing.

const page = (titles: [string, string], path: string, component: string, componentName: string, icon: string, permission: Permission, children: MenuSpec[] = []): MenuSpec =>
  pageMenu(titles, path, component, componentName, icon, permission, { children });

/** The system menus; components name pages of the web app's page registry. */
export const SYSTEM_MENUS: MenuSpec[] = [
  {
    title: '系统管理',
    titleEn: 'System',
    type: 0,
    path: 'system',
    icon: 'system',
    children: [
      page(['用户管理', 'Users'], 'user', 'system/user/index', 'User', 'peoples', 'user:list', crudButtons('user', '用户', 'user')),
      page(['角色管理', 'Roles'], 'role', 'system/role/index', 'Role', 'role', 'roles:list', crudButtons('roles', '角色', 'role')),
      page(['菜单管理', 'Menus'], 'menu', 'system/menu/index', 'Menu', 'menu', 'menu:list', crudButtons('menu', '菜单', 'menu')),
      page(['部门管理', 'Departments'], 'dept', 'system/dept/index', 'Dept', 'dept', 'dept:list', crudButtons('dept', '部门', 'department')),
      page(['字典管理', 'Dictionaries'], 'dict', 'system/dict/index', 'Dict', 'dictionary', 'dict:list', crudButtons('dict', '字典', 'dictionary')),
    ],
  },
  {
    title: '系统监控',
    titleEn: 'Monitoring',
    type: 0,
    path: 'monitor',
    icon: 'monitor',
    children: [
      page(['在线用户', 'Online users'], 'online', 'monitor/online/index', 'OnlineUser', 'online', 'online:list', [
        { title: '强制退出', titleEn: 'Force logout', type: 2, permission: 'online:del' },
      ]),
      page(['操作日志', 'Operation log'], 'logs', 'monitor/log/index', 'Log', 'log', 'log:list'),
      page(['异常日志', 'Error log'], 'errorLog', 'monitor/log/errorLog', 'ErrorLog', 'error', 'log:list'),
      page(['服务监控', 'Server status'], 'server', 'monitor/server/index', 'ServerMonitor', 'codeConsole', 'monitor:list'),
    ],
  },
  {
    title: '系统工具',
    titleEn: 'Tools',
    type: 0,
    path: 'sys-tools',
    icon: 'sys-tools',
    children: [
      page(['存储管理', 'Storage'], 'storage', 'tools/storage/index', 'Storage', 'qiniu', 'storage:list', crudButtons('storage', '文件', 'file')),
      page(['接口文档', 'API docs'], 'swagger', 'tools/swagger/index', 'Swagger', 'swagger', 'swagger:list'),
    ],
  },
];

/**
 * The built-in role of administrators, holding every system menu. Later migrations that add
 * menus grant them to it by this name.
 */
export const ADMIN_ROLE: RoleSpec = { name: 'admin', level: 1, dataScope: '全部', description: 'Administrators: everything' };

export const SYSTEM_DICTIONARIES: DictionarySpec[] = [
  { name: 'user_status', description: '用户状态', entries: [['激活', 'Active', 'true'], ['禁用', 'Disabled', 'false']] },
  { name: 'dept_status', description: '部门状态', entries: [['启用', 'Enabled', 'true'], ['停用', 'Disabled', 'false']] },
  { name: 'gender', description: '性别', entries: [['男', 'Male', '男'], ['女', 'Female', '女']] },
];

/** Inserts what of this migration's data the install lacks (see the helpers for how each is found). */
export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const now = Date.now();
  const menus = await addMenus(db, SYSTEM_MENUS, now);
  const admin = await addRole(db, ADMIN_ROLE, now);
  // A role kept from before keeps its own choice of menus: it gets only menus inserted now.
  await grantMenusToRole(db, ADMIN_ROLE.name, admin.inserted ? menus.ids : menus.inserted);
  for (const dict of SYSTEM_DICTIONARIES) await addDictionary(db, dict, now);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql`select id from sys_user limit 1`.execute(db);
  if (rows.length > 0) return;
  await referenceData(db);
}

// Nothing to undo: removing reference data would take operators' grants and edits with it.
export async function down(): Promise<void> {}
