import type { Permission } from '@cloud-classroom/shared/permission';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseContent } from '../test/database-content.js';
import { openTestDatabase, testConfig, type TestDatabase } from '../test/test-app.js';
import { created } from './audit-columns.js';
import { reapplyReferenceData } from './migrate.js';
import { addDictionary, addMenus, createAuditedTable, crudButtons, flag, grantMenusToRole, type CrudResource, type MenuSpec } from './migration-helpers.js';
import type { Database } from './schema.js';

let database: TestDatabase;
let db: Kysely<Database>;

beforeEach(async () => {
  database = await openTestDatabase(testConfig());
  db = database.db;
});
afterEach(async () => {
  await db.destroy();
  await database.dispose();
});

/** What a later migration adding a new domain (badges) would ship: a directory with a page and its buttons. */
// Codes of a resource a later migration will bring, not yet among the product's permissions.
const CERT = 'badge' as CrudResource;
const CERT_LIST = 'badge:list' as Permission;

const CERTS: MenuSpec[] = [
  {
    title: '徽章中心',
    titleEn: 'Badges',
    type: 0,
    path: 'badges',
    icon: 'education',
    sort: 0,
    children: [
      { title: '徽章管理', titleEn: 'Badges', type: 1, path: 'badge', component: 'badges/badge/index', componentName: 'Badge', permission: CERT_LIST, cache: true, children: crudButtons(CERT, '徽章', 'badge') },
    ],
  },
];

const menuNamed = (title: string) => db.selectFrom('sys_menu').selectAll().where('title', '=', title).executeTakeFirstOrThrow();
const grantsOf = async (role: string) =>
  (
    await db
      .selectFrom('sys_roles_menus as rm')
      .innerJoin('sys_role as r', 'r.id', 'rm.role_id')
      .innerJoin('sys_menu as m', 'm.id', 'rm.menu_id')
      .select('m.title')
      .where('r.name', '=', role)
      .execute()
  )
    .map((row) => row.title)
    .sort();

describe('addMenus and grantMenusToRole', () => {
  it('add a new tree once, granted to the admin role, and find it again on a second run', async () => {
    const first = await addMenus(db, CERTS);
    expect(first.inserted).toHaveLength(5);
    expect(await grantMenusToRole(db, 'admin', first.inserted)).toBe(true);
    const directory = await menuNamed('徽章中心');
    expect(directory).toMatchObject({ pid: null, type: 0, path: 'badges', menu_sort: 0, sub_count: 1, create_by: 'system', title_en: 'Badges' });
    expect(await menuNamed('徽章管理')).toMatchObject({ pid: directory.id, component: 'badges/badge/index', cache: 1, hidden: 0, sub_count: 3 });
    expect(await grantsOf('admin')).toEqual(expect.arrayContaining(['徽章中心', '徽章管理', '徽章新增', '徽章编辑', '徽章删除']));

    const before = await databaseContent(db);
    const second = await addMenus(db, CERTS);
    expect(second).toEqual({ ids: first.ids, inserted: [] });
    expect(await databaseContent(db)).toEqual(before);
  });

  it('find menus by what they are, not by title or place, and add only the missing ones under them', async () => {
    await addMenus(db, CERTS);
    // An operator renamed the directory and moved the page to the top level, and deleted a button.
    const directory = await menuNamed('徽章中心');
    await db.updateTable('sys_menu').set({ title: '我的徽章' }).where('id', '=', directory.id).execute();
    await db.updateTable('sys_menu').set({ pid: null }).where('component', '=', 'badges/badge/index').execute();
    await db.deleteFrom('sys_menu').where('permission', '=', 'badge:del').execute();

    const { inserted } = await addMenus(db, CERTS);
    expect(inserted).toHaveLength(1);
    expect(await db.selectFrom('sys_menu').select('title').where('title', 'in', ['徽章中心', '我的徽章']).execute()).toEqual([{ title: '我的徽章' }]);
    const page = await menuNamed('徽章管理');
    expect(page.pid).toBeNull();
    expect(page.sub_count).toBe(3);
    expect(await menuNamed('徽章删除')).toMatchObject({ pid: page.id, menu_sort: 3, permission: 'badge:del' });
  });

  it('give a new menu whose title another menu has taken a numbered title instead of stopping the upgrade', async () => {
    await db.insertInto('sys_menu').values({ ...created('admin', 1), pid: null, type: 0, title: '徽章中心', path: 'mine', menu_sort: 9, i_frame: 0, cache: 0, hidden: 0, sub_count: 0 }).execute();
    await addMenus(db, CERTS);
    expect((await menuNamed('徽章中心 (2)')).path).toBe('badges');
    expect((await menuNamed('徽章中心')).path).toBe('mine');
  });

  it('grant nothing to a role the install does not have, and keep what a role holds', async () => {
    const { inserted } = await addMenus(db, CERTS);
    expect(await grantMenusToRole(db, 'badge-admins', inserted)).toBe(false);
    const teacherBefore = await grantsOf('teacher');
    const page = await menuNamed('徽章管理');
    expect(await grantMenusToRole(db, 'teacher', [page.id, page.id])).toBe(true);
    expect(await grantMenusToRole(db, 'teacher', [page.id])).toBe(true);
    expect(await grantsOf('teacher')).toEqual([...teacherBefore, '徽章管理'].sort());
  });

  it('refuse a menu without what identifies it', async () => {
    await expect(addMenus(db, [{ title: '无名', titleEn: 'Nameless', type: 1, path: 'x' }])).rejects.toThrow('menu 无名: a page needs its component');
  });
});

describe('addDictionary', () => {
  it('adds a new dictionary once, and to an existing one only the values it lacks', async () => {
    const levels = { name: 'course_level', description: '课程难度', entries: [['入门', 'Beginner', '1'], ['进阶', 'Advanced', '2']] as const };
    await addDictionary(db, levels);
    await addDictionary(db, levels);
    const dict = await db.selectFrom('sys_dict').selectAll().where('name', '=', 'course_level').executeTakeFirstOrThrow();
    const entries = () => db.selectFrom('sys_dict_detail').select(['label', 'label_en', 'value', 'dict_sort']).where('dict_id', '=', dict.id).orderBy('id').execute();
    expect(await entries()).toEqual([
      { label: '入门', label_en: 'Beginner', value: '1', dict_sort: 1 },
      { label: '进阶', label_en: 'Advanced', value: '2', dict_sort: 2 },
    ]);

    await db.updateTable('sys_dict_detail').set({ label: '初级' }).where('value', '=', '1').where('dict_id', '=', dict.id).execute();
    await addDictionary(db, { ...levels, description: 'changed', entries: [...levels.entries, ['专家', 'Expert', '3']] });
    expect((await db.selectFrom('sys_dict').select('description').where('id', '=', dict.id).executeTakeFirstOrThrow()).description).toBe('课程难度');
    expect(await entries()).toEqual([
      { label: '初级', label_en: 'Beginner', value: '1', dict_sort: 1 },
      { label: '进阶', label_en: 'Advanced', value: '2', dict_sort: 2 },
      { label: '专家', label_en: 'Expert', value: '3', dict_sort: 3 },
    ]);
  });
});

describe('reapplyReferenceData', () => {
  it('changes nothing on an install that has all of it', async () => {
    const before = await databaseContent(db);
    await reapplyReferenceData(db);
    expect(await databaseContent(db)).toEqual(before);
  });
});

describe('createAuditedTable', () => {
  it('makes a table with an id that counts up, the audit columns and flags, on either dialect', async () => {
    const untyped = db as unknown as Kysely<unknown>;
    await createAuditedTable(untyped, 'helper_probe').addColumn('name', 'varchar(20)').addColumn('active', 'integer', flag).execute();
    const probe = db as unknown as Kysely<{ helper_probe: { id?: number; name: string; active?: number; create_by: string; update_by: string; create_time: number; update_time: number } }>;
    await probe.insertInto('helper_probe').values({ name: 'a', ...created('admin', 5) }).execute();
    await probe.insertInto('helper_probe').values({ name: 'b', active: 1, ...created('admin', 6) }).execute();
    expect(await probe.selectFrom('helper_probe').selectAll().orderBy('id').execute()).toEqual([
      { id: 1, name: 'a', active: 0, create_by: 'admin', update_by: 'admin', create_time: 5, update_time: 5 },
      { id: 2, name: 'b', active: 1, create_by: 'admin', update_by: 'admin', create_time: 6, update_time: 6 },
    ]);
    await untyped.schema.dropTable('helper_probe').execute();
  });
});
