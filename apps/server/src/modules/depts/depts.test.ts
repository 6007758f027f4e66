import { deptSchema, deptTreeSchema, type Dept, type DeptTree } from '@cloud-classroom/shared/depts';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sheetRows } from '../../test/sheet-rows.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

const db = (app: FastifyInstance) => app.services.database.db;

async function idOf(app: FastifyInstance, name: string): Promise<number> {
  return (await db(app).selectFrom('sys_dept').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

async function row(app: FastifyInstance, name: string) {
  return db(app).selectFrom('sys_dept').selectAll().where('name', '=', name).executeTakeFirst();
}

async function list(app: FastifyInstance, token: string, query = ''): Promise<{ content: Dept[]; totalElements: number }> {
  const response = await call(app, 'GET', `/api/dept${query}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return pageOf(deptSchema).parse(response.json());
}

async function superior(app: FastifyInstance, token: string, ids: number[], exclude = false): Promise<DeptTree[]> {
  const response = await call(app, 'POST', `/api/dept/superior${exclude ? '?exclude=true' : ''}`, token, ids);
  expect(response.statusCode, response.body).toBe(200);
  return z.array(deptTreeSchema).parse(response.json());
}

const names = (depts: readonly Dept[]) => depts.map((dept) => dept.name);

/** A tree as nested names: 'name' for a leaf of the answer, { name: [...] } where it goes down. */
type Shape = string | Record<string, Shape[]>;
const shape = (nodes: readonly DeptTree[]): Shape[] =>
  nodes.map((node) => (node.children === undefined ? node.name : { [node.name]: shape(node.children) }));

async function create(app: FastifyInstance, token: string, name: string, pid: number | null, extra: Record<string, unknown> = {}): Promise<number> {
  const response = await call(app, 'POST', '/api/dept', token, { name, pid, deptSort: 9, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return idOf(app, name);
}

/** The seeded teacher role gets the department page: its scope is '自定义' = 培训部 and below, and 研发部. */
async function teacherWithDeptList(app: FastifyInstance, admin: string): Promise<string> {
  const role = await db(app).selectFrom('sys_role').select('id').where('name', '=', 'teacher').executeTakeFirstOrThrow();
  const menu = await db(app).selectFrom('sys_menu').select('id').where('title', '=', '部门管理').executeTakeFirstOrThrow();
  const granted = await call(app, 'PUT', '/api/roles/menu', admin, { id: role.id, menus: [{ id: menu.id }] });
  expect(granted.statusCode).toBe(204);
  return loginAs(app, 'teacher');
}

describe('depts: access', () => {
  const { app } = itRefusesOutsiders([
    ['GET', '/api/dept'],
    ['GET', '/api/dept/download'],
    ['POST', '/api/dept/superior', [1]],
    ['POST', '/api/dept', { name: 'nope', pid: null, deptSort: 1 }],
    ['PUT', '/api/dept', { id: 1, name: 'nope', pid: null, deptSort: 1 }],
    ['DELETE', '/api/dept', [2]],
  ]);

  it('nothing was changed by the refused writes', async () => {
    const { count } = await db(app()).selectFrom('sys_dept').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(Number(count)).toBe(6);
    expect((await row(app(), 'nope'))).toBeUndefined();
  });
});

describe('depts: reading', () => {
  let app: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists the top level when given neither a parent nor a filter', async () => {
    const page = await list(app, admin);
    expect(page.totalElements).toBe(1);
    const [top] = page.content;
    expect(top).toMatchObject({
      name: '云课堂',
      label: '云课堂',
      pid: null,
      enabled: true,
      deptSort: 1,
      subCount: 3,
      hasChildren: true,
      leaf: false,
      createBy: 'system',
      updateBy: 'system',
    });
    expect(top?.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('lists a parent’s children by deptSort, pages and sorts them', async () => {
    const top = await idOf(app, '云课堂');
    const children = await list(app, admin, `?pid=${top}`);
    expect(names(children.content)).toEqual(['研发部', '培训部', '市场部']);
    expect(children.content[0]).toMatchObject({ pid: top, subCount: 0, hasChildren: false, leaf: true });
    const second = await list(app, admin, `?pid=${top}&page=1&size=2`);
    expect(second).toMatchObject({ totalElements: 3 });
    expect(names(second.content)).toEqual(['市场部']);
    expect(names((await list(app, admin, `?pid=${top}&sort=deptSort,desc`)).content)).toEqual(['市场部', '培训部', '研发部']);
  });

  it('searches every level by name, enabled and creation time', async () => {
    expect(names((await list(app, admin, `?name=${encodeURIComponent('组')}`)).content)).toEqual(['讲师组', '学员服务组']);
    expect((await list(app, admin, `?name=${encodeURIComponent('%')}`)).totalElements).toBe(0);
    expect(await list(app, admin, '?enabled=false')).toEqual({ content: [], totalElements: 0 });
    expect((await list(app, admin, '?enabled=true')).totalElements).toBe(6);
    expect((await list(app, admin, '?createTime=2000-01-01+00:00:00&createTime=2000-01-02+00:00:00')).totalElements).toBe(0);
    expect((await list(app, admin, '?createTime=2000-01-01+00:00:00&createTime=2999-01-01+00:00:00')).totalElements).toBe(6);
  });

  it.each([
    ['?enabled=maybe', /^enabled: /],
    ['?pid=abc', /^pid: /],
    ['?sort=secret,asc', /^sort: cannot sort by secret/],
    ['?createTime=2024-01-01+00:00:00', /^createTime: /],
    ['?size=0', /^size: /],
  ])('answers 400 naming the field for %s', async (query, message) => {
    for (const url of [`/api/dept${query}`, `/api/dept/download${query}`]) {
      const response = await call(app, 'GET', url, admin);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });

  it('builds the picker tree: siblings of the department and of each ancestor', async () => {
    const tree = await superior(app, admin, [await idOf(app, '讲师组')]);
    expect(shape(tree)).toEqual([{ 云课堂: ['研发部', { 培训部: ['讲师组', '学员服务组'] }, '市场部'] }]);
    expect(tree[0]?.children?.[0]).toMatchObject({ name: '研发部', leaf: true, hasChildren: false });
    const two = await superior(app, admin, [await idOf(app, '研发部'), await idOf(app, '学员服务组')]);
    expect(shape(two)).toEqual([{ 云课堂: ['研发部', { 培训部: ['讲师组', '学员服务组'] }, '市场部'] }]);
    expect(shape(await superior(app, admin, [await idOf(app, '云课堂')]))).toEqual(['云课堂']);
  });

  it('with exclude=true leaves out the given departments and everything below them', async () => {
    const training = await idOf(app, '培训部');
    const tree = await superior(app, admin, [training], true);
    expect(shape(tree)).toEqual([{ 云课堂: ['研发部', '市场部'] }]);
    expect(tree[0]).toMatchObject({ subCount: 2, hasChildren: true, leaf: false });
    // A department below an excluded one is gone even when its own branch was asked for.
    const both = await superior(app, admin, [training, await idOf(app, '学员服务组')], true);
    expect(shape(both)).toEqual([{ 云课堂: ['研发部', '市场部'] }]);
    const leafOnly = await superior(app, admin, [await idOf(app, '讲师组')], true);
    expect(shape(leafOnly)).toEqual([{ 云课堂: ['研发部', { 培训部: ['学员服务组'] }, '市场部'] }]);
    expect(leafOnly[0]?.children?.[1]).toMatchObject({ name: '培训部', subCount: 1 });
  });

  it('answers 404 for an unknown department and 400 naming the field for a bad request', async () => {
    const missing = await call(app, 'POST', '/api/dept/superior', admin, [9999]);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toContain('9999');
    const empty = await call(app, 'POST', '/api/dept/superior', admin, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/^body: /);
    const exclude = await call(app, 'POST', '/api/dept/superior?exclude=yes', admin, [1]);
    expect(exclude.statusCode).toBe(400);
    expect(exclude.json().message).toMatch(/^exclude: /);
  });

  it('exports every matching department at every depth as .xlsx, and audits the export', async () => {
    const response = await call(app, 'GET', '/api/dept/download', admin);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toContain('.xlsx');
    const rows = await sheetRows(response.rawPayload);
    expect(rows[0]).toEqual(['部门名称', '部门状态', '排序', '创建日期']);
    expect(rows).toHaveLength(7);
    expect(rows[1]).toEqual(expect.arrayContaining(['云课堂', '启用', 1]));

    const filtered = await call(app, 'GET', `/api/dept/download?name=${encodeURIComponent('组')}`, admin);
    expect(await sheetRows(filtered.rawPayload)).toHaveLength(3);

    await expect
      .poll(() => db(app).selectFrom('sys_log').select(['username', 'method']).where('description', '=', '导出部门数据').execute())
      .toContainEqual({ username: 'admin', method: 'GET /api/dept/download' });
  });
});

describe('depts: data scope', () => {
  let app: FastifyInstance;
  let admin: string;
  beforeEach(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
  });
  afterEach(async () => {
    await app.close();
  });

  it('shows the seeded teacher (scope 自定义 = 培训部, 研发部) only 培训部 and below and 研发部, not 市场部', async () => {
    const teacher = await teacherWithDeptList(app, admin);
    const top = await list(app, teacher);
    expect(names(top.content)).toEqual(['研发部', '培训部']);
    expect(top.totalElements).toBe(2);
    expect(names((await list(app, teacher, `?pid=${await idOf(app, '培训部')}`)).content)).toEqual(['讲师组', '学员服务组']);
    expect(names((await list(app, teacher, `?pid=${await idOf(app, '云课堂')}`)).content)).toEqual(['研发部', '培训部']);
    expect(names((await list(app, teacher, `?name=${encodeURIComponent('部')}`)).content)).toEqual(['研发部', '培训部']);
    expect((await list(app, teacher, '?enabled=true')).totalElements).toBe(4);

    const tree = await superior(app, teacher, [await idOf(app, '讲师组')]);
    expect(shape(tree)).toEqual(['研发部', { 培训部: ['讲师组', '学员服务组'] }]);

    const download = await call(app, 'GET', '/api/dept/download', teacher);
    const rows = await sheetRows(download.rawPayload);
    expect(rows.slice(1).map((row) => row[0])).toEqual(expect.arrayContaining(['研发部', '培训部', '讲师组', '学员服务组']));
    expect(rows).toHaveLength(5);
  });

  it('follows a change of the role’s data scope at once', async () => {
    const teacher = await teacherWithDeptList(app, admin);
    const role = await db(app).selectFrom('sys_role').select('id').where('name', '=', 'teacher').executeTakeFirstOrThrow();
    const edit = (dataScope: string, depts: number[]) =>
      call(app, 'PUT', '/api/roles', admin, { id: role.id, name: 'teacher', level: 2, dataScope, depts: depts.map((id) => ({ id })) });

    expect((await edit('全部', [])).statusCode).toBe(204);
    expect(names((await list(app, teacher)).content)).toEqual(['云课堂']);

    expect((await edit('自定义', [await idOf(app, '研发部'), await idOf(app, '市场部')])).statusCode).toBe(204);
    expect(names((await list(app, teacher)).content)).toEqual(['研发部', '市场部']);

    // 本级: the teacher's own department, 讲师组.
    expect((await edit('本级', [])).statusCode).toBe(204);
    expect(names((await list(app, teacher)).content)).toEqual(['讲师组']);
  });

  it('lets the user page (user:list) read the tree, within the reader’s scope', async () => {
    const role = await db(app).selectFrom('sys_role').select('id').where('name', '=', 'learner').executeTakeFirstOrThrow();
    const menu = await db(app).selectFrom('sys_menu').select('id').where('title', '=', '用户管理').executeTakeFirstOrThrow();
    expect((await call(app, 'PUT', '/api/roles/menu', admin, { id: role.id, menus: [{ id: menu.id }] })).statusCode).toBe(204);
    const learner = await loginAs(app, 'learner1');
    // The learner role's scope is 本级, and learner1 sits in 研发部.
    expect(names((await list(app, learner)).content)).toEqual(['研发部']);
    expect(shape(await superior(app, learner, [await idOf(app, '研发部')]))).toEqual(['研发部']);
    expect((await call(app, 'GET', '/api/dept/download', learner)).statusCode).toBe(403);
  });
});

describe('depts: writing', () => {
  let app: FastifyInstance;
  let admin: string;
  beforeEach(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
  });
  afterEach(async () => {
    await app.close();
  });

  it('creates a department under a parent and counts it there; the body is allow-listed', async () => {
    const market = await idOf(app, '市场部');
    const response = await call(app, 'POST', '/api/dept', admin, { name: ' 渠道组 ', pid: market, deptSort: 5, id: 999, subCount: 42, createBy: 'mallory' });
    expect(response.statusCode).toBe(201);
    expect(response.body).toBe('');
    const created = await row(app, '渠道组');
    expect(created).toMatchObject({ pid: market, dept_sort: 5, enabled: 1, sub_count: 0, create_by: 'admin', update_by: 'admin' });
    expect(created?.id).not.toBe(999);
    expect(await row(app, '市场部')).toMatchObject({ sub_count: 1 });
    const children = await list(app, admin, `?pid=${market}`);
    expect(children.content).toEqual([expect.objectContaining({ name: '渠道组', enabled: true, leaf: true })]);
    expect((await list(app, admin, `?pid=${await idOf(app, '云课堂')}`)).content[2]).toMatchObject({ name: '市场部', subCount: 1, hasChildren: true, leaf: false });
    await expect
      .poll(() => db(app).selectFrom('sys_log').select(['username', 'status']).where('description', '=', '新增部门').execute())
      .toContainEqual({ username: 'admin', status: 201 });
  });

  it('creates a top-level department for pid 0, null or none', async () => {
    await create(app, admin, '分校一', 0);
    await create(app, admin, '分校二', null, { enabled: false });
    const third = await call(app, 'POST', '/api/dept', admin, { name: '分校三' });
    expect(third.statusCode).toBe(201);
    expect(await row(app, '分校三')).toMatchObject({ pid: null, dept_sort: 999, enabled: 1 });
    expect(names((await list(app, admin)).content)).toEqual(['云课堂', '分校一', '分校二', '分校三']);
    expect((await list(app, admin, '?enabled=false')).content).toEqual([expect.objectContaining({ name: '分校二', enabled: false })]);
  });

  it.each([
    [{ name: '', pid: null }, /^name: is required/],
    [{ pid: null }, /^name: /],
    [{ name: 'x', pid: -1 }, /^pid: /],
    [{ name: 'x', pid: 9999 }, /^pid: department 9999 does not exist/],
    [{ name: 'x', pid: null, deptSort: 'first' }, /^deptSort: /],
    [{ name: 'x', pid: null, enabled: 'yes' }, /^enabled: /],
  ])('answers 400 naming the field for %j', async (body, message) => {
    const response = await call(app, 'POST', '/api/dept', admin, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
    expect(await row(app, 'x')).toBeUndefined();
  });

  it('edits a department and moves it, keeping both parents’ counts right', async () => {
    const teachers = await idOf(app, '讲师组');
    const research = await idOf(app, '研发部');
    const response = await call(app, 'PUT', '/api/dept', admin, { id: teachers, name: '讲师一组', pid: research, deptSort: 3, enabled: false });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await row(app, '讲师一组')).toMatchObject({ id: teachers, pid: research, dept_sort: 3, enabled: 0, update_by: 'admin', create_by: 'system' });
    expect(await row(app, '培训部')).toMatchObject({ sub_count: 1 });
    expect(await row(app, '研发部')).toMatchObject({ sub_count: 1 });

    expect((await call(app, 'PUT', '/api/dept', admin, { id: teachers, name: '讲师一组', pid: 0, deptSort: 3 })).statusCode).toBe(204);
    expect(await row(app, '讲师一组')).toMatchObject({ pid: null, enabled: 1 });
    expect(await row(app, '研发部')).toMatchObject({ sub_count: 0 });
  });

  it('refuses to put a department under itself or below itself (400), an unknown one (404), a missing id (400)', async () => {
    const training = await idOf(app, '培训部');
    const self = await call(app, 'PUT', '/api/dept', admin, { id: training, name: '培训部', pid: training, deptSort: 2 });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toMatch(/^pid: /);
    const below = await call(app, 'PUT', '/api/dept', admin, { id: training, name: '培训部', pid: await idOf(app, '学员服务组'), deptSort: 2 });
    expect(below.statusCode).toBe(400);
    expect(below.json().message).toMatch(/^pid: /);
    expect(await row(app, '培训部')).toMatchObject({ pid: await idOf(app, '云课堂') });

    expect((await call(app, 'PUT', '/api/dept', admin, { id: 9999, name: 'ghost', pid: null })).statusCode).toBe(404);
    const noId = await call(app, 'PUT', '/api/dept', admin, { name: '培训部', pid: null });
    expect(noId.statusCode).toBe(400);
    expect(noId.json().message).toMatch(/^id: /);
  });

  it('deletes departments with everything below them and recounts the parent', async () => {
    const market = await idOf(app, '市场部');
    const temp = await create(app, admin, '临时部', market);
    await create(app, admin, '临时组', temp);
    await create(app, admin, '临时小组', await idOf(app, '临时组'));
    const other = await create(app, admin, '另一个', market);
    expect(await row(app, '市场部')).toMatchObject({ sub_count: 2 });

    const response = await call(app, 'DELETE', '/api/dept', admin, [temp]);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    for (const name of ['临时部', '临时组', '临时小组']) expect(await row(app, name)).toBeUndefined();
    expect(await row(app, '市场部')).toMatchObject({ sub_count: 1 });

    expect((await call(app, 'DELETE', '/api/dept', admin, [other, other])).statusCode).toBe(200);
    expect(await row(app, '市场部')).toMatchObject({ sub_count: 0 });
  });

  it('refuses while users or roles still point into the subtree (409, naming it), and deletes nothing', async () => {
    const training = await idOf(app, '培训部');
    const spare = await create(app, admin, '空部门', null);
    const withUsers = await call(app, 'DELETE', '/api/dept', admin, [spare, training]);
    expect(withUsers.statusCode).toBe(409);
    expect(withUsers.json().message).toMatch(/'培训部' .*2 user/);
    expect(await row(app, '空部门')).toBeDefined();
    expect(await row(app, '讲师组')).toBeDefined();

    const scoped = await create(app, admin, '范围部', await idOf(app, '市场部'));
    const scopedChild = await create(app, admin, '范围组', scoped);
    const role = await call(app, 'POST', '/api/roles', admin, { name: 'scoped', level: 3, dataScope: '自定义', depts: [{ id: scopedChild }] });
    expect(role.statusCode).toBe(201);
    const withRole = await call(app, 'DELETE', '/api/dept', admin, [scoped]);
    expect(withRole.statusCode).toBe(409);
    expect(withRole.json().message).toMatch(/'范围部' .*1 role/);
    expect(await row(app, '范围组')).toBeDefined();
  });

  it('answers 404 for an unknown department and 400 naming the body for no ids', async () => {
    const spare = await create(app, admin, '空部门', null);
    const unknown = await call(app, 'DELETE', '/api/dept', admin, [spare, 9999]);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain('9999');
    expect(await row(app, '空部门')).toBeDefined();
    const empty = await call(app, 'DELETE', '/api/dept', admin, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/^body: /);
  });
});
