import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseContent, FIRST_START_CONTENT, FIRST_START_CONTENT_NOW, insertDatabaseContent, withChineseRoleDescriptions, withoutCourseMenus } from '../test/database-content.js';
import { openBlankTestDatabase, openTestDatabase, testConfig, type TestDatabase } from '../test/test-app.js';
import { migrateToLatest, migrateUpTo } from './migrate.js';
import * as dictDetailValueUnique from './migrations/0004-dict-detail-value-unique.js';
import type { Database } from './schema.js';
import type { MenuSpec } from './migration-helpers.js';
import { SYSTEM_DICTIONARIES as seedDicts, SYSTEM_MENUS as seedMenus } from './migrations/0009-system-data.js';
import { COURSE_MENUS } from './migrations/0010-courses.js';
import { ENROLMENT_MENUS } from './migrations/0011-enrolment.js';
import { EXAM_MENUS } from './migrations/0012-exams.js';
import { MARKING_BUTTONS } from './migrations/0013-attempts.js';
import { CERTIFICATE_MENUS } from './migrations/0015-certificates.js';
import { CERTIFICATE_PAGE_MENUS } from './migrations/0016-certificate-pages.js';
import { CERTIFICATE_RULE_PAGE_MENUS } from './migrations/0018-certificate-rule-page.js';
import { CENSUS_MENUS } from './migrations/0019-census.js';
import { INSTALLATION_MEDIA_MENUS } from './migrations/0021-installation-media.js';
import { DATABASE_MONITOR_MENUS } from './migrations/0024-database-monitor.js';
import { DATABASE_BACKUP_MENUS } from './migrations/0022-database-backups.js';
import { CLOUD_STORAGE_MENUS } from './migrations/0023-cloud-storage.js';

const flatten = (menus: readonly MenuSpec[]): MenuSpec[] => menus.flatMap((menu) => [menu, ...flatten(menu.children ?? [])]);
// 0011 adds its pages to 0010's course directory.
const SEEDED_MENUS = flatten([...seedMenus, ...COURSE_MENUS, ...ENROLMENT_MENUS.flatMap((directory) => directory.children ?? []), ...EXAM_MENUS, ...MARKING_BUTTONS, ...CERTIFICATE_MENUS, ...CERTIFICATE_PAGE_MENUS.flatMap((directory) => directory.children ?? []), ...CERTIFICATE_RULE_PAGE_MENUS.flatMap((directory) => directory.children ?? []), ...CENSUS_MENUS.flatMap((directory) => directory.children ?? []), ...INSTALLATION_MEDIA_MENUS.flatMap((directory) => directory.children ?? []), ...DATABASE_BACKUP_MENUS.flatMap((directory) => directory.children ?? []), ...CLOUD_STORAGE_MENUS.flatMap((directory) => directory.children ?? []), ...DATABASE_MONITOR_MENUS.flatMap((directory) => directory.children ?? [])]);
const COURSE_MENU_TITLES = new Set(flatten(COURSE_MENUS).map((menu) => menu.title));

const stamp = { create_by: 'system', update_by: 'system', create_time: 1, update_time: 1 };
const flags = { i_frame: 0, cache: 0, hidden: 0 } as const;

/** The menus and dictionaries as an install of 0003 seeded them: Chinese names only. */
async function seedAsBefore(db: Kysely<Database>): Promise<void> {
  const insertMenus = async (menus: readonly MenuSpec[], pid: number | null): Promise<void> => {
    for (const [index, menu] of menus.entries()) {
      const { id } = await db
        .insertInto('sys_menu')
        .values({
          ...stamp,
          ...flags,
          pid,
          type: menu.type,
          title: menu.title,
          component_name: menu.componentName ?? null,
          component: menu.component ?? null,
          path: menu.path ?? null,
          icon: menu.icon ?? null,
          menu_sort: index + 1,
          permission: menu.permission ?? null,
          sub_count: menu.children?.length ?? 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertMenus(menu.children ?? [], id);
    }
  };
  await insertMenus(seedMenus, null);
  for (const dict of seedDicts) {
    const { id } = await db.insertInto('sys_dict').values({ ...stamp, name: dict.name, description: dict.description }).returning('id').executeTakeFirstOrThrow();
    await db
      .insertInto('sys_dict_detail')
      .values(dict.entries.map(([label, , value], sort) => ({ ...stamp, dict_id: id, label, value, dict_sort: sort + 1 })))
      .execute();
  }
}

describe('migrations', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.db.destroy();
    await database?.dispose();
  });

  it('apply once, then find nothing left to do', async () => {
    database = await openTestDatabase(testConfig());
    // openTestDatabase migrated already: a second run (a restart) applies nothing.
    expect(await migrateToLatest(database)).toEqual([]);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
    expect(rows.map((row) => row.name)).toEqual([
      '0001-app-setting',
      '0002-identity',
      '0003-storage-path-index',
      '0004-dict-detail-value-unique',
      '0005-english-names',
      '0006-jobs',
      '0009-system-data',
      '0010-courses',
      '0011-enrolment',
      '0012-exams',
      '0013-attempts',
      '0014-attempt-paper-last',
      '0015-certificates',
      '0016-certificate-pages',
      '0017-certificate-rules',
      '0018-certificate-rule-page',
      '0019-census',
      '0020-notifications',
      '0021-installation-media',
      '0022-database-backups',
      '0023-cloud-storage',
      '0024-database-monitor',
      '0025-playback-credit',
      '0026-idempotency',
      '0027-role-description-en',
      '0028-captcha-address',
    ]);
  });

  // On PostgreSQL the two are schemas of one database, and test files migrate theirs side by side.
  it('see only their own database: a blank one beside a migrated one has no tables, and gets all of them', async () => {
    database = await openTestDatabase(testConfig());
    const blank = await openBlankTestDatabase(testConfig());
    try {
      expect(await blank.db.introspection.getTables({ withInternalKyselyTables: true })).toEqual([]);
      expect(await migrateToLatest(blank)).toHaveLength(26);
      const tables = await blank.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(tables.map((table) => table.name)).toContain('kysely_migration');
      expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([blank.schema]));
    } finally {
      await blank.db.destroy();
      await blank.dispose();
    }
  });

  it('leave app_setting usable, with bigint times read back as numbers', async () => {
    database = await openTestDatabase(testConfig());
    const now = Date.now();
    await database.db.insertInto('app_setting').values({ key: 'installed_at', value: 'x', updated_at: now }).execute();
    const row = await database.db.selectFrom('app_setting').selectAll().executeTakeFirstOrThrow();
    expect(row).toEqual({ key: 'installed_at', value: 'x', updated_at: now });
    await expect(
      database.db.insertInto('app_setting').values({ key: 'installed_at', value: 'y', updated_at: now }).execute(),
    ).rejects.toThrow();
  });

  it('make dictionary values unique, keeping the oldest entry of a repeated value and marking the others', async () => {
    database = await openTestDatabase(testConfig());
    const { db } = database;
    // Migrations see an untyped database, as the migrator hands it to them.
    const untyped = db as unknown as Kysely<unknown>;
    // The state before 0004: repeats were accepted.
    await dictDetailValueUnique.down(untyped);
    const stamp = { create_by: 'admin', update_by: 'admin', create_time: 1, update_time: 1 };
    const { id: dictId } = await db.insertInto('sys_dict').values({ name: 'repeats', description: null, ...stamp }).returning('id').executeTakeFirstOrThrow();
    const long = 'v'.repeat(100);
    for (const [label, value] of [['first', 'a'], ['second', 'a'], ['third', 'a'], ['other', 'b'], ['long', long], ['long again', long]]) {
      await db.insertInto('sys_dict_detail').values({ dict_id: dictId, label: label!, value: value!, dict_sort: 1, ...stamp }).execute();
    }
    await dictDetailValueUnique.up(untyped);
    const rows = await db.selectFrom('sys_dict_detail').select(['id', 'label', 'value']).where('dict_id', '=', dictId).orderBy('id').execute();
    const [, second, third, , , longAgain] = rows;
    expect(rows.map((row) => [row.label, row.value])).toEqual([
      ['first', 'a'],
      ['second', `a (duplicate #${second?.id})`],
      ['third', `a (duplicate #${third?.id})`],
      ['other', 'b'],
      ['long', long],
      ['long again', `${long.slice(0, 100 - ` (duplicate #${longAgain?.id})`.length)} (duplicate #${longAgain?.id})`],
    ]);
    expect(rows.every((row) => row.value.length <= 100)).toBe(true);
    // The seeded dictionaries had no repeats and are untouched.
    expect(await db.selectFrom('sys_dict_detail').select('value').where('value', 'like', '%duplicate%').where('dict_id', '!=', dictId).execute()).toEqual([]);
  });

  it('seed a fresh install with both names of every menu and dictionary entry', async () => {
    database = await openTestDatabase(testConfig());
    const menus = await database.db.selectFrom('sys_menu').select(['title', 'title_en']).execute();
    expect(menus).toHaveLength(SEEDED_MENUS.length);
    expect(Object.fromEntries(menus.map((menu) => [menu.title, menu.title_en]))).toEqual(
      Object.fromEntries(SEEDED_MENUS.map((menu) => [menu.title, menu.titleEn])),
    );
    const details = await database.db.selectFrom('sys_dict_detail').select('label_en').execute();
    expect(details.map((detail) => detail.label_en)).toEqual(seedDicts.flatMap((dict) => dict.entries.map(([, labelEn]) => labelEn)));
  });

  it('0005 gives an install of the previous version the English names of what it seeded, and Chinese audit descriptions', async () => {
    database = await openBlankTestDatabase(testConfig());
    expect(await migrateUpTo(database, '0004-dict-detail-value-unique')).toHaveLength(4);
    const { db } = database;
    await seedAsBefore(db);
    // What the install's staff did meanwhile: renamed a seeded page, added a menu and an entry.
    await db.updateTable('sys_menu').set({ title: '学员管理' }).where('component', '=', 'system/user/index').execute();
    await db.insertInto('sys_menu').values({ ...stamp, ...flags, pid: null, type: 0, title: '考试管理', path: 'exam', menu_sort: 9, sub_count: 0 }).execute();
    const gender = await db.selectFrom('sys_dict').select('id').where('name', '=', 'gender').executeTakeFirstOrThrow();
    await db.insertInto('sys_dict_detail').values({ ...stamp, dict_id: gender.id, label: '未知', value: '未知', dict_sort: 3 }).execute();
    const log = (description: string) => ({
      username: 'admin',
      description,
      method: 'POST /api/x',
      params: null,
      log_type: 'INFO' as const,
      status: 200,
      request_ip: '127.0.0.1',
      browser: 'Chrome',
      time: 1,
      exception_detail: null,
      create_time: 1,
    });
    const stored = ['create department', 'login', 'logout', 'edit role menus', '新增用户', 'POST /api/other', 'Login'];
    await db.insertInto('sys_log').values(stored.map(log)).execute();

    // Up to 0005 only: what later migrations do is theirs to test.
    expect(await migrateUpTo(database, '0005-english-names')).toEqual(['0005-english-names']);

    const menus = await db.selectFrom('sys_menu').select(['title', 'title_en']).execute();
    const englishOf = new Map(menus.map((menu) => [menu.title, menu.title_en]));
    for (const menu of flatten(seedMenus)) {
      const title = menu.title === '用户管理' ? '学员管理' : menu.title;
      expect(englishOf.get(title), title).toBe(menu.titleEn);
    }
    expect(englishOf.get('考试管理')).toBeNull();

    const details = await db.selectFrom('sys_dict_detail').select(['label', 'label_en']).orderBy('id').execute();
    expect(details).toEqual([
      ...seedDicts.flatMap((dict) => dict.entries.map(([label, labelEn]) => ({ label, label_en: labelEn }))),
      { label: '未知', label_en: null },
    ]);

    const descriptions = await db.selectFrom('sys_log').select('description').orderBy('id').execute();
    expect(descriptions.map((row) => row.description)).toEqual([
      '新增部门',
      '用户登录',
      '退出登录',
      '修改角色菜单',
      '新增用户',
      'POST /api/other',
      'Login',
    ]);
  });

  it('give a fresh install the same menus, roles, grants, dictionaries and demo organisation as the first start before 0009 (but for the demo teacher’s wider scope)', async () => {
    database = await openTestDatabase(testConfig());
    expect(withoutCourseMenus(await databaseContent(database.db))).toEqual(FIRST_START_CONTENT_NOW);
  });

  it('0010 gives a fresh install the course menus, held by the administrators and the teachers', async () => {
    database = await openTestDatabase(testConfig());
    const { menus, roles } = await databaseContent(database.db);
    const courseMenus = menus.filter((menu) => COURSE_MENU_TITLES.has(menu.title));
    expect(courseMenus.map((menu) => [menu.title, menu.parent])).toEqual(
      flatten(COURSE_MENUS).map((menu) => [menu.title, menu.type === 0 ? null : menu.type === 1 ? '课程中心' : '课程列表']),
    );
    const menusOf = (name: string) => roles.find((role) => role.name === name)?.menus.filter((title) => COURSE_MENU_TITLES.has(title ?? ''));
    expect(menusOf('admin')).toEqual([...COURSE_MENU_TITLES].sort());
    expect(menusOf('teacher')).toEqual([...COURSE_MENU_TITLES].sort());
    expect(menusOf('learner')).toEqual([]);
  });

  it('0010 gives an upgraded install the course menus, for its admin and teacher roles, once', async () => {
    database = await openBlankTestDatabase(testConfig());
    await migrateUpTo(database, '0005-english-names');
    const { db } = database;
    await insertDatabaseContent(db, FIRST_START_CONTENT);
    await migrateUpTo(database, '0009-system-data');
    const before = await databaseContent(db);
    expect(await migrateToLatest(database)).toEqual(['0010-courses', '0011-enrolment', '0012-exams', '0013-attempts', '0014-attempt-paper-last', '0015-certificates', '0016-certificate-pages', '0017-certificate-rules', '0018-certificate-rule-page', '0019-census', '0020-notifications', '0021-installation-media', '0022-database-backups', '0023-cloud-storage', '0024-database-monitor', '0025-playback-credit', '0026-idempotency', '0027-role-description-en', '0028-captcha-address']);
    const after = await databaseContent(db);
    expect(withoutCourseMenus(after)).toEqual(withChineseRoleDescriptions(before));
    for (const name of ['admin', 'teacher']) {
      expect(after.roles.find((role) => role.name === name)?.menus).toEqual(expect.arrayContaining([...COURSE_MENU_TITLES]));
    }
    expect(after.roles.find((role) => role.name === 'learner')?.menus).toEqual(before.roles.find((role) => role.name === 'learner')?.menus);
  });

  // The teacher's grant on a fresh install comes from the seed (SeedRole.menus): 0018 runs before the role exists.
  it('0018 gives a fresh install the issuing rules page in the certificates directory, third, held by the administrators and the teachers', async () => {
    database = await openTestDatabase(testConfig());
    const { menus, roles } = await databaseContent(database.db);
    const page = menus.find((menu) => menu.component === 'cert/rule/index');
    expect(page).toMatchObject({ title: '颁发规则', title_en: 'Issuing rules', parent: '证书管理', type: 1, path: 'rule', permission: 'cert:list', menu_sort: 3, hidden: 0 });
    expect(menus.find((menu) => menu.title === '证书管理')).toMatchObject({ hidden: 0, sub_count: menus.filter((menu) => menu.parent === '证书管理').length });
    const holds = (name: string) => roles.find((role) => role.name === name)?.menus.includes('颁发规则');
    expect([holds('admin'), holds('teacher'), holds('learner')]).toEqual([true, true, false]);
  });

  it('0018 gives an upgraded install the issuing rules page, for its admin and teacher roles, once', async () => {
    database = await openBlankTestDatabase(testConfig());
    await migrateUpTo(database, '0005-english-names');
    const { db } = database;
    await insertDatabaseContent(db, FIRST_START_CONTENT);
    await migrateUpTo(database, '0017-certificate-rules');
    const before = await databaseContent(db);
    expect(before.menus.map((menu) => menu.title)).not.toContain('颁发规则');

    expect(await migrateUpTo(database, '0018-certificate-rule-page')).toEqual(['0018-certificate-rule-page']);

    const after = await databaseContent(db);
    expect(after.menus.filter((menu) => menu.title === '颁发规则').map((menu) => menu.parent)).toEqual(['证书管理']);
    for (const name of ['admin', 'teacher']) {
      expect(after.roles.find((role) => role.name === name)?.menus).toEqual([...(before.roles.find((role) => role.name === name)?.menus ?? []), '颁发规则'].sort());
    }
    expect(after.roles.find((role) => role.name === 'learner')?.menus).toEqual(before.roles.find((role) => role.name === 'learner')?.menus);
  });

  it('0022 gives a fresh install the database backups page in the tools directory, fourth (after the installation media of 0021), with its buttons, held by the administrators alone', async () => {
    database = await openTestDatabase(testConfig());
    const { menus, roles } = await databaseContent(database.db);
    expect(menus.find((menu) => menu.component === 'tools/database/index')).toMatchObject({ title: '数据库备份', title_en: 'Database backups', parent: '系统工具', type: 1, path: 'database', permission: 'database:list', menu_sort: 4, hidden: 0 });
    expect(menus.filter((menu) => menu.parent === '数据库备份').map((menu) => menu.permission)).toEqual(['database:add', 'database:edit', 'database:del']);
    expect(menus.find((menu) => menu.title === '系统工具')).toMatchObject({ sub_count: menus.filter((menu) => menu.parent === '系统工具').length });
    const holds = (name: string) => roles.find((role) => role.name === name)?.menus.includes('数据库备份');
    expect([holds('admin'), holds('teacher'), holds('learner')]).toEqual([true, false, false]);
  });

  it('0022 gives an upgraded install the database backups page for its admin role, once', async () => {
    database = await openBlankTestDatabase(testConfig());
    await migrateUpTo(database, '0005-english-names');
    const { db } = database;
    await insertDatabaseContent(db, FIRST_START_CONTENT);
    await migrateUpTo(database, '0021-installation-media');
    const before = await databaseContent(db);
    expect(await migrateUpTo(database, '0022-database-backups')).toEqual(['0022-database-backups']);
    const after = await databaseContent(db);
    const added = ['数据库备份', '新建备份', '备份计划', '删除备份'];
    expect(after.menus.filter((menu) => added.includes(menu.title)).map((menu) => [menu.title, menu.parent])).toEqual([
      ['数据库备份', '系统工具'],
      ['新建备份', '数据库备份'],
      ['备份计划', '数据库备份'],
      ['删除备份', '数据库备份'],
    ]);
    expect(after.roles.find((role) => role.name === 'admin')?.menus).toEqual([...(before.roles.find((role) => role.name === 'admin')?.menus ?? []), ...added].sort());
    expect(after.roles.find((role) => role.name === 'teacher')?.menus).toEqual(before.roles.find((role) => role.name === 'teacher')?.menus);
  });

  it('0023 gives a fresh install the cloud storage page in the tools directory, fifth, its storage:* buttons being those of the Storage page, held by the administrators alone', async () => {
    database = await openTestDatabase(testConfig());
    const { menus, roles } = await databaseContent(database.db);
    expect(menus.find((menu) => menu.component === 'tools/cloud-storage/index')).toMatchObject({ title: '云存储', title_en: 'Cloud storage', parent: '系统工具', type: 1, path: 'cloud-storage', permission: 'storage:list', menu_sort: 5, hidden: 0 });
    // One button per code: the Storage page's (0009) serve this page too.
    expect(menus.filter((menu) => menu.parent === '云存储')).toEqual([]);
    expect(menus.filter((menu) => menu.permission?.startsWith('storage:') && menu.type === 2).map((menu) => [menu.permission, menu.parent])).toEqual([
      ['storage:add', '存储管理'],
      ['storage:edit', '存储管理'],
      ['storage:del', '存储管理'],
    ]);
    expect(menus.find((menu) => menu.title === '系统工具')).toMatchObject({ sub_count: menus.filter((menu) => menu.parent === '系统工具').length });
    const holds = (name: string) => roles.find((role) => role.name === name)?.menus.includes('云存储');
    expect([holds('admin'), holds('teacher'), holds('learner')]).toEqual([true, false, false]);
  });

  it('0023 gives an upgraded install the cloud storage page and its table for its admin role, once', async () => {
    database = await openBlankTestDatabase(testConfig());
    await migrateUpTo(database, '0005-english-names');
    const { db } = database;
    await insertDatabaseContent(db, FIRST_START_CONTENT);
    await migrateUpTo(database, '0022-database-backups');
    const before = await databaseContent(db);
    expect(await migrateUpTo(database, '0023-cloud-storage')).toEqual(['0023-cloud-storage']);
    const after = await databaseContent(db);
    const added = ['云存储'];
    expect(after.menus.filter((menu) => !before.menus.some((old) => old.title === menu.title)).map((menu) => [menu.title, menu.parent])).toEqual([['云存储', '系统工具']]);
    expect(after.roles.find((role) => role.name === 'admin')?.menus).toEqual([...(before.roles.find((role) => role.name === 'admin')?.menus ?? []), ...added].sort());
    expect(after.roles.find((role) => role.name === 'teacher')?.menus).toEqual(before.roles.find((role) => role.name === 'teacher')?.menus);
    expect(await db.selectFrom('sys_cloud_file').selectAll().execute()).toEqual([]);
  });

  it('0024 gives a fresh install the database monitor page in the monitoring directory, after the server monitor, with its reset button, held by the administrators alone', async () => {
    database = await openTestDatabase(testConfig());
    const { menus, roles } = await databaseContent(database.db);
    expect(menus.find((menu) => menu.component === 'monitor/sql/index')).toMatchObject({ title: 'SQL监控', title_en: 'Database monitor', parent: '系统监控', type: 1, path: 'druid', permission: 'monitor:list', menu_sort: 5, hidden: 0 });
    expect(menus.filter((menu) => menu.parent === 'SQL监控').map((menu) => menu.permission)).toEqual(['monitor:reset']);
    expect(menus.find((menu) => menu.title === '系统监控')).toMatchObject({ sub_count: 5 });
    const holds = (name: string) => roles.find((role) => role.name === name)?.menus.includes('SQL监控');
    expect([holds('admin'), holds('teacher'), holds('learner')]).toEqual([true, false, false]);
  });

  it('0024 gives an upgraded install the database monitor page for its admin role, once', async () => {
    database = await openBlankTestDatabase(testConfig());
    await migrateUpTo(database, '0005-english-names');
    const { db } = database;
    await insertDatabaseContent(db, FIRST_START_CONTENT);
    await migrateUpTo(database, '0023-cloud-storage');
    const before = await databaseContent(db);
    expect(await migrateUpTo(database, '0024-database-monitor')).toEqual(['0024-database-monitor']);
    const after = await databaseContent(db);
    const added = ['SQL监控', '重置SQL监控'];
    expect(after.menus.filter((menu) => added.includes(menu.title)).map((menu) => [menu.title, menu.parent])).toEqual([
      ['SQL监控', '系统监控'],
      ['重置SQL监控', 'SQL监控'],
    ]);
    expect(after.roles.find((role) => role.name === 'admin')?.menus.filter((title) => added.includes(title ?? ''))).toEqual([...added].sort());
    expect(after.roles.find((role) => role.name === 'teacher')?.menus.some((title) => added.includes(title ?? ''))).toBe(false);
    expect(before.menus.some((menu) => added.includes(menu.title))).toBe(false);
    expect(await migrateUpTo(database, '0024-database-monitor')).toEqual([]);
  });

  it('0027 describes the seeded roles in Chinese and English on an upgraded install, leaving what operators wrote', async () => {
    database = await openBlankTestDatabase(testConfig());
    await migrateUpTo(database, '0005-english-names');
    const { db } = database;
    await insertDatabaseContent(db, FIRST_START_CONTENT);
    await migrateUpTo(database, '0026-idempotency');
    await db.updateTable('sys_role').set({ description: 'Our own words' }).where('name', '=', 'learner').execute();
    expect(await migrateUpTo(database, '0027-role-description-en')).toEqual(['0027-role-description-en']);
    const roles = await db.selectFrom('sys_role').select(['name', 'description', 'description_en']).orderBy('level').execute();
    expect(roles).toEqual([
      { name: 'admin', description: '管理员：全部权限', description_en: 'Administrators: everything' },
      { name: 'teacher', description: '讲师：培训部的课程、考试、阅卷和证书', description_en: 'Teachers: content, exams, marking and certificates of the training department' },
      { name: 'learner', description: 'Our own words', description_en: null },
    ]);
  });

  it('0009 leaves an install that an earlier first start seeded as it was, with what its operators changed', async () => {
    database = await openBlankTestDatabase(testConfig());
    await migrateUpTo(database, '0005-english-names');
    const { db } = database;
    await insertDatabaseContent(db, FIRST_START_CONTENT);
    // What the install's staff did meanwhile: renamed a page, removed another, took a button
    // from the admin role, dropped a dictionary entry and relabelled another.
    await db.updateTable('sys_menu').set({ title: '学员管理', title_en: 'Learners' }).where('component', '=', 'system/user/index').execute();
    await db.deleteFrom('sys_menu').where('component', '=', 'tools/swagger/index').execute();
    const menuDelete = await db.selectFrom('sys_menu').select('id').where('permission', '=', 'menu:del').executeTakeFirstOrThrow();
    await db.deleteFrom('sys_roles_menus').where('menu_id', '=', menuDelete.id).execute();
    await db.deleteFrom('sys_dict_detail').where('label', '=', '女').execute();
    await db.updateTable('sys_dict_detail').set({ label: '在职' }).where('label', '=', '激活').execute();
    const before = await databaseContent(db);

    expect(await migrateUpTo(database, '0009-system-data')).toContain('0009-system-data');

    const after = await databaseContent(db);
    expect(after).toEqual(before);
    expect(after.menus.map((menu) => menu.title)).toContain('学员管理');
    expect(after.menus.map((menu) => menu.title)).not.toContain('接口文档');
  });

  it('0009 gives an install migrated before it but never started the system data, as a first start does', async () => {
    database = await openBlankTestDatabase(testConfig());
    await migrateUpTo(database, '0005-english-names');
    await migrateUpTo(database, '0009-system-data');
    const { menus, dicts, roles } = await databaseContent(database.db);
    expect({ menus, dicts, roles }).toEqual({
      menus: FIRST_START_CONTENT.menus,
      dicts: FIRST_START_CONTENT.dicts,
      roles: FIRST_START_CONTENT.roles.filter((role) => role.name === 'admin'),
    });
  });

  it('0014 keeps every attempt, its indexes and the ids still to come, with the paper stored last on SQLite', async () => {
    database = await openBlankTestDatabase(testConfig());
    await migrateUpTo(database, '0013-attempts');
    const { db } = database;
    const attempt = (number: number) => ({
      exam_id: 7,
      user_id: 3,
      number,
      state: 'graded',
      started_at: 1_000,
      deadline: 2_000,
      submitted_at: 1_500,
      submitted_by: 'learner',
      score: 12.5,
      passed: 1 as const,
      paper: JSON.stringify({ questions: [{ id: 1, score: 5 }] }).repeat(200),
      ip: '127.0.0.1',
      agent: 'Firefox',
      update_time: 1_600,
    });
    await db.insertInto('edu_attempt').values([attempt(1), attempt(2), { ...attempt(3), state: 'in_progress', score: null, passed: null, submitted_at: null, submitted_by: null }]).execute();
    // The last attempt made is gone: its id is still not to be given again.
    const { id: gone } = await db.selectFrom('edu_attempt').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
    await db.deleteFrom('edu_attempt').where('id', '=', gone).execute();
    const before = await db.selectFrom('edu_attempt').selectAll().orderBy('id').execute();

    expect(await migrateToLatest(database)).toEqual(['0014-attempt-paper-last', '0015-certificates', '0016-certificate-pages', '0017-certificate-rules', '0018-certificate-rule-page', '0019-census', '0020-notifications', '0021-installation-media', '0022-database-backups', '0023-cloud-storage', '0024-database-monitor', '0025-playback-credit', '0026-idempotency', '0027-role-description-en', '0028-captcha-address']);

    expect(await db.selectFrom('edu_attempt').selectAll().orderBy('id').execute()).toEqual(before);
    const { id: next } = await db.insertInto('edu_attempt').values(attempt(4)).returning('id').executeTakeFirstOrThrow();
    expect(next).toBeGreaterThan(gone as number);
    await expect(db.insertInto('edu_attempt').values(attempt(4)).execute()).rejects.toThrow();
    if (database.dialect === 'sqlite') {
      const columns = await sql<{ name: string }>`select name from pragma_table_info('edu_attempt')`.execute(db);
      expect(columns.rows.at(-1)?.name).toBe('paper');
      const indexes = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'edu_attempt' and sql is not null order by name`.execute(db);
      expect(indexes.rows.map((row) => row.name)).toEqual(['edu_attempt_person', 'edu_attempt_state', 'edu_attempt_user']);
    }
  });
});
