import { onlineSessionSchema } from '@cloud-classroom/shared/online';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sheetRows } from '../../test/sheet-rows.js';
import { buildTestApp, loginAs } from '../../test/test-app.js';

const onlinePage = pageOf(onlineSessionSchema);

describe('online users', () => {
  let app: FastifyInstance;
  let admin: string;
  let learner: string;
  let adminKey: string;
  let learnerKey: string;
  let teacherKey: string;

  async function keyOf(token: string): Promise<string> {
    const key = await app.services.sessions.sessionIdOf(token);
    if (key === undefined) throw new Error('not a token');
    return key;
  }

  // Login times fixed apart, so that "newest first" does not depend on how fast the logins ran.
  async function setLoginTime(key: string, time: number): Promise<void> {
    await app.services.database.db.updateTable('sys_session').set({ created_at: time }).where('id', '=', key).execute();
  }

  // A null token sends no Authorization header.
  const list = (query = '', token: string | null = admin) =>
    app.inject({ method: 'GET', url: `/auth/online${query}`, headers: token === null ? {} : { authorization: token } });

  const kick = (keys: unknown, token: string | null = admin) =>
    app.inject({ method: 'DELETE', url: '/auth/online', payload: keys as object, headers: token === null ? {} : { authorization: token } });

  beforeEach(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
    learner = await loginAs(app, 'learner1');
    const teacher = await loginAs(app, 'teacher');
    [adminKey, learnerKey, teacherKey] = await Promise.all([keyOf(admin), keyOf(learner), keyOf(teacher)]);
    const now = Date.now();
    await setLoginTime(adminKey, now - 3000);
    await setLoginTime(learnerKey, now - 2000);
    await setLoginTime(teacherKey, now - 1000);
  });

  afterEach(async () => {
    await app.close();
  });

  describe('GET /auth/online', () => {
    it('lists the live sessions, newest login first, with user, department, browser and address', async () => {
      const response = await list();
      expect(response.statusCode).toBe(200);
      const page = onlinePage.parse(response.json());
      expect(page.totalElements).toBe(3);
      expect(page.content.map((row) => row.key)).toEqual([teacherKey, learnerKey, adminKey]);
      const row = page.content[1];
      expect(row).toMatchObject({ key: learnerKey, userName: 'learner1', nickName: '李明', dept: '研发部', ip: '127.0.0.1' });
      expect(row?.browser).toBeTypeOf('string');
      expect(row?.loginTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(row?.lastSeenTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    it('leaves out expired sessions and the sessions of disabled users', async () => {
      const { db } = app.services.database;
      await db.updateTable('sys_session').set({ expires_at: Date.now() - 1 }).where('id', '=', teacherKey).execute();
      await db.updateTable('sys_user').set({ enabled: 0 }).where('username', '=', 'learner1').execute();
      const page = onlinePage.parse((await list()).json());
      expect(page.content.map((row) => row.key)).toEqual([adminKey]);
      expect(page.totalElements).toBe(1);
    });

    it('filters on part of the user name or the nick name, ignoring case, taking % literally', async () => {
      const byName = onlinePage.parse((await list('?username=LEARN')).json());
      expect(byName.content.map((row) => row.userName)).toEqual(['learner1']);
      const byNickName = onlinePage.parse((await list(`?username=${encodeURIComponent('老师')}`)).json());
      expect(byNickName.content.map((row) => row.userName)).toEqual(['teacher']);
      const wildcard = onlinePage.parse((await list('?username=%25')).json());
      expect(wildcard).toEqual({ content: [], totalElements: 0 });
      // The client sends the empty filter as it is.
      expect(onlinePage.parse((await list('?username=')).json()).totalElements).toBe(3);
    });

    it('pages with a 0-based page and a size, counting every match', async () => {
      const page = onlinePage.parse((await list('?page=1&size=2')).json());
      expect(page.totalElements).toBe(3);
      expect(page.content.map((row) => row.key)).toEqual([adminKey]);
    });

    it('answers 401 without a session and 403 without online:list', async () => {
      expect((await list('', null)).statusCode).toBe(401);
      const forbidden = await list('', learner);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().status).toBe(403);
    });

    it('answers 400 naming the field on bad paging or filter', async () => {
      const badPage = await list('?page=-1');
      expect(badPage.statusCode).toBe(400);
      expect(badPage.json().message).toMatch(/^page: /);
      const badSize = await list('?size=0');
      expect(badSize.json().message).toMatch(/^size: /);
      const longName = await list(`?username=${'x'.repeat(65)}`);
      expect(longName.statusCode).toBe(400);
      expect(longName.json().message).toMatch(/^username: /);
    });
  });

  describe('DELETE /auth/online', () => {
    it('ends the named sessions at once and leaves the others alone', async () => {
      const response = await kick([learnerKey]);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('');
      expect((await app.inject({ method: 'GET', url: '/auth/info', headers: { authorization: learner } })).statusCode).toBe(401);
      const page = onlinePage.parse((await list()).json());
      expect(page.content.map((row) => row.key)).toEqual([teacherKey, adminKey]);
    });

    it('is audited, with who kicked whom', async () => {
      await kick([learnerKey]);
      await expect
        .poll(async () =>
          app.services.database.db
            .selectFrom('sys_log')
            .select(['username', 'description', 'params', 'status'])
            .where('method', '=', 'DELETE /auth/online')
            .execute(),
        )
        .toEqual([{ username: 'admin', description: '强制退出用户', params: JSON.stringify({ body: [learnerKey] }), status: 200 }]);
    });

    it('takes a key that no longer names a session as already done', async () => {
      await kick([learnerKey]);
      const again = await kick([learnerKey, 'no-such-session']);
      expect(again.statusCode).toBe(200);
      expect(onlinePage.parse((await list()).json()).totalElements).toBe(2);
    });

    it('answers 401 without a session and 403 without online:del', async () => {
      expect((await kick([teacherKey], null)).statusCode).toBe(401);
      expect((await kick([teacherKey], learner)).statusCode).toBe(403);
      expect(onlinePage.parse((await list()).json()).totalElements).toBe(3);
    });

    /** The seeded teacher (role level 2) is given the online page and its kick-out button. */
    async function teacherWithKickOut(): Promise<string> {
      const { db } = app.services.database;
      const { id: roleId } = await db.selectFrom('sys_role').select('id').where('name', '=', 'teacher').executeTakeFirstOrThrow();
      const menus = await db.selectFrom('sys_menu').select('id').where('title', 'in', ['系统监控', '在线用户', '强制退出']).execute();
      expect(menus).toHaveLength(3);
      const granted = await app.inject({ method: 'PUT', url: '/api/roles/menu', payload: { id: roleId, menus }, headers: { authorization: admin } });
      expect(granted.statusCode, granted.body).toBe(204);
      return loginAs(app, 'teacher');
    }

    it('refuses with 403 to end the session of a user above the caller, ending none of the listed ones', async () => {
      const teacher = await teacherWithKickOut();
      const refused = await kick([learnerKey, adminKey], teacher);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().message).toBe('admin is an administrator; only an administrator may change them');
      expect((await app.inject({ method: 'GET', url: '/auth/info', headers: { authorization: admin } })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/auth/info', headers: { authorization: learner } })).statusCode).toBe(200);

      // A role of a more powerful level than the caller's best one protects its holder too.
      const { db } = app.services.database;
      await db.updateTable('sys_role').set({ level: 1 }).where('name', '=', 'learner').execute();
      const above = await kick([learnerKey], teacher);
      expect(above.statusCode).toBe(403);
      expect(above.json().message).toBe('learner1 has a role of level 1, more powerful than your level 2');
    });

    it('lets a holder of online:del end the sessions of users at or below their level, and their own', async () => {
      const teacher = await teacherWithKickOut();
      const teacherNow = await keyOf(teacher);
      expect((await kick([learnerKey], teacher)).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/auth/info', headers: { authorization: learner } })).statusCode).toBe(401);
      expect((await kick([teacherKey, teacherNow], teacher)).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/auth/info', headers: { authorization: teacher } })).statusCode).toBe(401);
    });

    it('answers 400 naming the body when it is not a list of keys', async () => {
      const empty = await kick([]);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('body: is required');
      const notList = await kick({ key: learnerKey });
      expect(notList.statusCode).toBe(400);
      expect(notList.json().message).toMatch(/^body: /);
    });
  });

  describe('GET /auth/online/download', () => {
    it('exports every matching live session as .xlsx, and is audited', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/auth/online/download?username=learner&page=0&size=1',
        headers: { authorization: admin },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename=/);
      const rows = await sheetRows(response.rawPayload);
      expect(rows[0]).toEqual(['用户名', '用户昵称', '部门', '登录IP', '浏览器', '登录时间', '最后访问']);
      expect(rows.slice(1).map((row) => row.slice(0, 4))).toEqual([['learner1', '李明', '研发部', '127.0.0.1']]);
      await expect
        .poll(async () =>
          app.services.database.db.selectFrom('sys_log').select('description').where('method', '=', 'GET /auth/online/download').execute(),
        )
        .toEqual([{ description: '导出在线用户' }]);
    });

    it('answers 401, 403 and 400 like the list', async () => {
      const download = (query: string, token?: string) =>
        app.inject({ method: 'GET', url: `/auth/online/download${query}`, headers: token === undefined ? {} : { authorization: token } });
      expect((await download('')).statusCode).toBe(401);
      expect((await download('', learner)).statusCode).toBe(403);
      const bad = await download(`?username=${'x'.repeat(65)}`, admin);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^username: /);
    });
  });
});
