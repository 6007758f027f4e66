import { toDate } from '@cloud-classroom/shared/display';
import { pageOf } from '@cloud-classroom/shared/http';
import { logExceptionSchema, logSchema, type Log } from '@cloud-classroom/shared/logs';
import type { FastifyInstance } from 'fastify';
import type { Insertable } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogTable } from '../../db/schema.js';
import { sheetRows } from '../../test/sheet-rows.js';
import { buildTestApp, loginAs, TEST_PASSWORD } from '../../test/test-app.js';
import { insertLog } from './logs.repo.js';

const logPage = pageOf(logSchema);

const at = (wireTime: string) => toDate(wireTime).getTime();
const range = (from: string, to: string) => `createTime=${encodeURIComponent(from)}&createTime=${encodeURIComponent(to)}`;
// The fixtures are dated 2020, which keeps them apart from the entries the tests' own logins write.
const IN_2020 = range('2020-01-01 00:00:00', '2020-12-31 23:59:59');

const entry = (fields: Partial<Insertable<LogTable>> & Pick<Insertable<LogTable>, 'create_time'>): Insertable<LogTable> => ({
  username: 'admin',
  description: 'something',
  method: 'POST /api/things',
  params: null,
  log_type: 'INFO',
  status: 200,
  request_ip: '10.0.0.9',
  browser: 'Chrome 126 on Windows',
  time: 10,
  exception_detail: null,
  ...fields,
});

const FIXTURES: Insertable<LogTable>[] = [
  entry({ description: '新增用户', method: 'POST /api/users', params: '{"body":{"username":"Zhang"}}', request_ip: '10.0.0.1', time: 12, create_time: at('2020-01-01 10:00:00') }),
  entry({ username: 'learner1', description: '用户登录', method: 'POST /auth/login', params: '{"body":{"username":"learner1","password":"******"}}', request_ip: '10.0.0.2', time: 300, create_time: at('2020-01-02 10:00:00') }),
  entry({ description: '导出用户数据', method: 'GET /api/users/download', request_ip: '10.0.0.3', time: 50, create_time: at('2020-01-03 10:00:00') }),
  entry({ log_type: 'ERROR', status: 500, description: 'PUT /api/users', method: 'PUT /api/users', exception_detail: 'Error: boom\n    at handler (users.ts:1:1)', create_time: at('2020-01-02 12:00:00') }),
  entry({ log_type: 'ERROR', status: 500, username: 'learner1', description: 'POST /api/things', create_time: at('2020-01-04 12:00:00') }),
];

describe('audit log', () => {
  let app: FastifyInstance;
  let admin: string;
  let learner: string;
  let ids: number[];

  // A null token sends no Authorization header.
  const get = (url: string, token: string | null = admin) =>
    app.inject({ method: 'GET', url, headers: token === null ? {} : { authorization: token } });
  const del = (url: string, token: string | null = admin) =>
    app.inject({ method: 'DELETE', url, headers: token === null ? {} : { authorization: token } });
  const idsOf = (body: unknown) => logPage.parse(body).content.map((row) => row.id);
  const fixture = (index: number) => ids[index] as number;

  /** The teacher gets the log pages (log:list) without being an administrator. */
  async function teacherWithLogList(): Promise<string> {
    const { db } = app.services.database;
    const role = await db.selectFrom('sys_role').select('id').where('name', '=', 'teacher').executeTakeFirstOrThrow();
    const menu = await db.selectFrom('sys_menu').select('id').where('permission', '=', 'log:list').executeTakeFirstOrThrow();
    await db.insertInto('sys_roles_menus').values({ role_id: role.id, menu_id: menu.id }).execute();
    return loginAs(app, 'teacher');
  }

  beforeEach(async () => {
    app = await buildTestApp();
    // Routes that only tests have, to see what the log keeps of a body and of a crash.
    app.post('/api/test/echo', { config: { access: { public: true } } }, async (request) => request.body);
    app.post('/api/test/boom', { config: { access: { public: true } } }, async () => {
      throw new Error('kaboom');
    });
    admin = await loginAs(app, 'admin');
    learner = await loginAs(app, 'learner1');
    ids = [];
    for (const fields of FIXTURES) {
      await insertLog(app.services.database.db, fields);
    }
    const rows = await app.services.database.db.selectFrom('sys_log').select('id').where('create_time', '<', at('2021-01-01 00:00:00')).orderBy('id').execute();
    ids = rows.map((row) => row.id);
  });

  afterEach(async () => {
    await app.close();
  });

  describe('GET /api/logs', () => {
    it('lists INFO entries newest first, with every wire field and no stack trace', async () => {
      const response = await get(`/api/logs?${IN_2020}`);
      expect(response.statusCode).toBe(200);
      const page = logPage.parse(response.json());
      expect(page.totalElements).toBe(3);
      expect(page.content.map((row) => row.id)).toEqual([fixture(2), fixture(1), fixture(0)]);
      expect(response.json().content[0]).toEqual({
        id: fixture(2),
        username: 'admin',
        description: '导出用户数据',
        method: 'GET /api/users/download',
        params: null,
        logType: 'INFO',
        status: 200,
        requestIp: '10.0.0.3',
        browser: 'Chrome 126 on Windows',
        time: 50,
        createTime: '2020-01-03 10:00:00',
      } satisfies Log);
    });

    it('sorts by the fields asked for', async () => {
      expect(idsOf((await get(`/api/logs?${IN_2020}&sort=time,asc`)).json())).toEqual([fixture(0), fixture(2), fixture(1)]);
      expect(idsOf((await get(`/api/logs?${IN_2020}&sort=username,asc&sort=createTime,desc`)).json())).toEqual([
        fixture(2),
        fixture(0),
        fixture(1),
      ]);
    });

    it('filters with blurry on user, description, method, params and address, ignoring case', async () => {
      const blurry = async (text: string) => idsOf((await get(`/api/logs?${IN_2020}&blurry=${encodeURIComponent(text)}`)).json());
      expect(await blurry('ZHANG')).toEqual([fixture(0)]);
      expect(await blurry('10.0.0.2')).toEqual([fixture(1)]);
      expect(await blurry('download')).toEqual([fixture(2)]);
      expect(await blurry('用户')).toEqual([fixture(2), fixture(1), fixture(0)]);
      expect(await blurry('learner1')).toEqual([fixture(1)]);
      expect(await blurry('%')).toEqual([]);
    });

    it('filters on a creation time range, both ends inclusive to the second', async () => {
      const one = await get(`/api/logs?${range('2020-01-02 10:00:00', '2020-01-02 10:00:00')}`);
      expect(idsOf(one.json())).toEqual([fixture(1)]);
      const before = await get(`/api/logs?${range('2020-01-01 00:00:00', '2020-01-02 09:59:59')}`);
      expect(idsOf(before.json())).toEqual([fixture(0)]);
    });

    it('pages with a 0-based page and a size, counting every match', async () => {
      const page = logPage.parse((await get(`/api/logs?${IN_2020}&page=1&size=2`)).json());
      expect(page).toMatchObject({ totalElements: 3 });
      expect(page.content.map((row) => row.id)).toEqual([fixture(0)]);
    });

    it('answers 401 without a session and 403 without log:list', async () => {
      expect((await get('/api/logs', null)).statusCode).toBe(401);
      expect((await get('/api/logs', learner)).statusCode).toBe(403);
    });

    it('answers 400 naming the field on a bad sort, time range or page', async () => {
      const message = async (query: string) => {
        const response = await get(`/api/logs?${query}`);
        expect(response.statusCode).toBe(400);
        return response.json().message as string;
      };
      expect(await message('sort=exception,asc')).toMatch(/^sort\b/);
      expect(await message('sort=id')).toMatch(/^sort\b/);
      expect(await message(`createTime=${encodeURIComponent('2020-01-01 00:00:00')}`)).toBe('createTime: expected a start and an end time');
      expect(await message(range('2020-01-01', '2020-01-02'))).toMatch(/^createTime\.0: expected 'yyyy-MM-dd HH:mm:ss'/);
      expect(await message(range('2020-01-02 00:00:00', '2020-01-01 00:00:00'))).toBe('createTime: the end is before the start');
      expect(await message('page=x')).toMatch(/^page: /);
      expect(await message(`blurry=${'x'.repeat(101)}`)).toMatch(/^blurry: /);
    });
  });

  describe('GET /api/logs/user', () => {
    it("lists only the caller's own INFO entries, to any logged-in user", async () => {
      const mine = logPage.parse((await get(`/api/logs/user?${IN_2020}`, learner)).json());
      expect(mine.content.map((row) => row.id)).toEqual([fixture(1)]);
      expect(mine.totalElements).toBe(1);
      // Without the range: their own logins too, and still nobody else's, and no errors.
      const all = logPage.parse((await get('/api/logs/user?size=100', learner)).json());
      expect(all.content.length).toBeGreaterThan(0);
      expect(all.content.every((row) => row.username === 'learner1' && row.logType === 'INFO')).toBe(true);
    });

    it('answers 401 without a session and 400 naming the field', async () => {
      expect((await get('/api/logs/user', null)).statusCode).toBe(401);
      const bad = await get('/api/logs/user?sort=nope,asc', learner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^sort\b/);
    });
  });

  describe('GET /api/logs/error', () => {
    it('lists ERROR entries without their stack traces, to anyone with log:list', async () => {
      const teacher = await teacherWithLogList();
      const response = await get(`/api/logs/error?${IN_2020}`, teacher);
      expect(response.statusCode).toBe(200);
      const page = logPage.parse(response.json());
      expect(page.content.map((row) => row.id)).toEqual([fixture(4), fixture(3)]);
      expect(page.content[1]).toMatchObject({ logType: 'ERROR', status: 500, method: 'PUT /api/users' });
      expect(response.body).not.toContain('boom');
      expect(idsOf((await get(`/api/logs/error?${IN_2020}&blurry=things`)).json())).toEqual([fixture(4)]);
    });

    it('answers 401, 403 and 400 like the INFO list', async () => {
      expect((await get('/api/logs/error', null)).statusCode).toBe(401);
      expect((await get('/api/logs/error', learner)).statusCode).toBe(403);
      const bad = await get('/api/logs/error?size=0');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^size: /);
    });
  });

  describe('GET /api/logs/error/{id}', () => {
    it('shows an administrator the stack trace', async () => {
      const response = await get(`/api/logs/error/${fixture(3)}`);
      expect(response.statusCode).toBe(200);
      expect(logExceptionSchema.parse(response.json())).toEqual({ exception: 'Error: boom\n    at handler (users.ts:1:1)' });
      expect((await get(`/api/logs/error/${fixture(4)}`)).json()).toEqual({ exception: '' });
    });

    it('answers 404 for an unknown id and for an INFO entry', async () => {
      const unknown = await get('/api/logs/error/999999');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toMatch(/^id: /);
      expect((await get(`/api/logs/error/${fixture(0)}`)).statusCode).toBe(404);
    });

    it('answers 403 to anyone but an administrator, even with log:list, and 401 without a session', async () => {
      const teacher = await teacherWithLogList();
      const response = await get(`/api/logs/error/${fixture(3)}`, teacher);
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain('boom');
      expect((await get(`/api/logs/error/${fixture(3)}`, learner)).statusCode).toBe(403);
      expect((await get(`/api/logs/error/${fixture(3)}`, null)).statusCode).toBe(401);
    });

    it('answers 400 naming the id when it is not a number', async () => {
      const response = await get('/api/logs/error/abc');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^id: /);
    });
  });

  describe('DELETE /api/logs/del/info and /api/logs/del/error', () => {
    it('clears the INFO entries only, and the clearing itself is logged', async () => {
      const response = await del('/api/logs/del/info');
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('');
      expect(logPage.parse((await get(`/api/logs?${IN_2020}`)).json()).totalElements).toBe(0);
      expect(logPage.parse((await get(`/api/logs/error?${IN_2020}`)).json()).totalElements).toBe(2);
      await expect
        .poll(async () => logPage.parse((await get('/api/logs?blurry=del/info')).json()).content.map((row) => row.description))
        .toEqual(['清空操作日志']);
    });

    it('clears the ERROR entries only', async () => {
      expect((await del('/api/logs/del/error')).statusCode).toBe(200);
      expect(logPage.parse((await get(`/api/logs/error?${IN_2020}`)).json()).totalElements).toBe(0);
      expect(logPage.parse((await get(`/api/logs?${IN_2020}`)).json()).totalElements).toBe(3);
    });

    it('is for administrators only: 403 even with log:list, 401 without a session', async () => {
      const teacher = await teacherWithLogList();
      for (const url of ['/api/logs/del/info', '/api/logs/del/error']) {
        expect((await del(url, teacher)).statusCode).toBe(403);
        expect((await del(url, learner)).statusCode).toBe(403);
        expect((await del(url, null)).statusCode).toBe(401);
      }
      expect(logPage.parse((await get(`/api/logs?${IN_2020}`)).json()).totalElements).toBe(3);
      expect(logPage.parse((await get(`/api/logs/error?${IN_2020}`)).json()).totalElements).toBe(2);
    });
  });

  describe('GET /api/logs/download and /api/logs/error/download', () => {
    it('exports every matching entry of the type as .xlsx, unpaged, and is audited', async () => {
      const info = await get(`/api/logs/download?${IN_2020}&size=1&sort=time,asc`);
      expect(info.statusCode).toBe(200);
      expect(info.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const rows = await sheetRows(info.rawPayload);
      expect(rows[0]).toEqual(['用户名', 'IP', '描述', '方法', '参数', '状态', '浏览器', '请求耗时(ms)', '创建日期']);
      expect(rows.slice(1).map((row) => row[2])).toEqual(['新增用户', '导出用户数据', '用户登录']);

      const errors = await get(`/api/logs/error/download?${IN_2020}`);
      expect(errors.statusCode).toBe(200);
      const errorRows = await sheetRows(errors.rawPayload);
      expect(errorRows.slice(1).map((row) => row[3])).toEqual(['POST /api/things', 'PUT /api/users']);
      expect(JSON.stringify(errorRows)).not.toContain('boom');

      await expect
        .poll(async () => {
          const audited = await app.services.database.db
            .selectFrom('sys_log')
            .select('description')
            .where('method', 'in', ['GET /api/logs/download', 'GET /api/logs/error/download'])
            .orderBy('description')
            .execute();
          return audited.map((row) => row.description);
        })
        .toEqual(['导出异常日志', '导出操作日志']);
    });

    it('answers 401, 403 and 400 like the lists', async () => {
      for (const url of ['/api/logs/download', '/api/logs/error/download']) {
        expect((await get(url, null)).statusCode).toBe(401);
        expect((await get(url, learner)).statusCode).toBe(403);
        const bad = await get(`${url}?sort=nope,desc`);
        expect(bad.statusCode).toBe(400);
        expect(bad.json().message).toMatch(/^sort\b/);
      }
    });
  });

  describe('what gets written', () => {
    const loginEntries = async (username: string) =>
      logPage.parse((await get(`/api/logs?blurry=${username}&sort=id,asc`)).json()).content.filter((row) => row.method === 'POST /auth/login');

    it('records a failed and a successful login, naming the user and masking the password', async () => {
      const failed = await app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'learner2', password: 'wrong-password' } });
      expect(failed.statusCode).toBe(400);
      await expect.poll(async () => (await loginEntries('learner2')).map((row) => row.status)).toEqual([400]);
      await loginAs(app, 'learner2');
      await expect.poll(async () => (await loginEntries('learner2')).map((row) => row.status)).toEqual([400, 200]);

      const [failure, success] = await loginEntries('learner2');
      expect(failure).toMatchObject({ username: 'learner2', description: '用户登录', logType: 'INFO', requestIp: '127.0.0.1' });
      expect(failure?.params).toBe(JSON.stringify({ body: { username: 'learner2', password: '******', code: '', uuid: '' } }));
      expect(success?.params).not.toContain(TEST_PASSWORD);
    });

    it('records who logged out, and a logout without a live session as nobody', async () => {
      const learner2 = await loginAs(app, 'learner2');
      expect((await del('/auth/logout', learner2)).statusCode).toBe(200);
      // The same token again: its session is over, so nobody is named.
      expect((await del('/auth/logout', learner2)).statusCode).toBe(200);
      const logouts = async () =>
        logPage.parse((await get('/api/logs?blurry=/auth/logout&sort=id,asc')).json()).content.map((row) => [row.description, row.username]);
      await expect.poll(logouts).toEqual([
        ['退出登录', 'learner2'],
        ['退出登录', null],
      ]);
    });

    it('masks secret-looking fields at any depth', async () => {
      const body = {
        note: 'kept',
        profile: { newPassword: 'secret-1', items: [{ accessToken: 'secret-2' }, { nested: { clientSecret: 'secret-3' } }] },
      };
      expect((await app.inject({ method: 'POST', url: '/api/test/echo', payload: body })).statusCode).toBe(200);
      await expect.poll(async () => logPage.parse((await get('/api/logs?blurry=/api/test/echo')).json()).totalElements).toBe(1);
      const [row] = logPage.parse((await get('/api/logs?blurry=/api/test/echo')).json()).content;
      expect(JSON.parse(row?.params ?? 'null')).toEqual({
        body: { note: 'kept', profile: { newPassword: '******', items: [{ accessToken: '******' }, { nested: { clientSecret: '******' } }] } },
      });
    });

    it('stores the stack of a 500 as an ERROR entry, while the answer carries no internals', async () => {
      const response = await app.inject({ method: 'POST', url: '/api/test/boom', payload: {} });
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain('kaboom');
      await expect.poll(async () => idsOf((await get('/api/logs/error?blurry=/api/test/boom')).json()).length).toBe(1);
      const [row] = logPage.parse((await get('/api/logs/error?blurry=/api/test/boom')).json()).content;
      expect(row).toMatchObject({ logType: 'ERROR', status: 500, method: 'POST /api/test/boom' });
      const { exception } = logExceptionSchema.parse((await get(`/api/logs/error/${row?.id}`)).json());
      expect(exception).toMatch(/^Error: kaboom\n\s+at /);
    });
  });
});
