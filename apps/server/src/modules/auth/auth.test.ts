import { authInfoSchema, captchaSchema, loginResponseSchema } from '@cloud-classroom/shared/auth';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { SettableClock } from '../../clock.js';
import { buildTestApp, buildTestAppPair, loginAs, TEST_PASSWORD } from '../../test/test-app.js';
import { MAX_FAILURES_PER_ADDRESS } from './auth.service.js';
import { CAPTCHA_TTL_MS, LIVE_CAPTCHAS_PER_ADDRESS } from './captcha.service.js';
import { ACCOUNT_SLOW_AFTER, LOCK_AFTER_FAILURES } from './failure-throttle.js';
import { SESSION_IDLE_MS } from './session.service.js';

async function readCaptchaAnswer(app: FastifyInstance, uuid: string): Promise<string> {
  const row = await app.services.database.db.selectFrom('sys_captcha').select('answer').where('uuid', '=', uuid).executeTakeFirstOrThrow();
  return row.answer;
}

function login(app: FastifyInstance, payload: Record<string, unknown>, ip = '10.0.0.1') {
  return app.inject({ method: 'POST', url: '/auth/login', payload, remoteAddress: ip });
}

/** A fresh captcha issued to `remoteAddress`, with its answer. */
async function solvedCaptcha(app: FastifyInstance, remoteAddress: string): Promise<{ uuid: string; code: string }> {
  const { uuid } = captchaSchema.parse((await app.inject({ method: 'GET', url: '/auth/code', remoteAddress })).json());
  return { uuid, code: await readCaptchaAnswer(app, uuid) };
}

const info = (app: FastifyInstance, token?: string) =>
  app.inject({ method: 'GET', url: '/auth/info', headers: token === undefined ? {} : { authorization: token } });

describe('auth', () => {
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
  });

  describe('captcha', () => {
    it('tells the login form when the server does not check the code', async () => {
      app = await buildTestApp({ captchaEnabled: false });
      expect(captchaSchema.parse((await app.inject({ method: 'GET', url: '/auth/code' })).json()).enabled).toBe(false);
    });

    it('issues an arithmetic captcha as a data URL, and a login needs its answer once', async () => {
      app = await buildTestApp({ captchaEnabled: true });
      const response = await app.inject({ method: 'GET', url: '/auth/code' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const captcha = captchaSchema.parse(response.json());
      expect(captcha.img).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(captcha.img.split(',')[1] ?? '', 'base64').toString()).toContain('<svg');
      expect(captcha.uuid).toMatch(/^captcha_code:[0-9a-f]{32}$/);
      expect(captcha.enabled).toBe(true);
      const answer = await readCaptchaAnswer(app, captcha.uuid);

      const ok = await login(app, { username: 'admin', password: TEST_PASSWORD, code: answer, uuid: captcha.uuid });
      expect(ok.statusCode).toBe(200);
      // Used up: the same captcha does not work twice.
      const again = await login(app, { username: 'admin', password: TEST_PASSWORD, code: answer, uuid: captcha.uuid });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toMatch(/^code: .*expired/);
    });

    it('is used up by a wrong answer too', async () => {
      app = await buildTestApp({ captchaEnabled: true });
      const { uuid } = captchaSchema.parse((await app.inject({ method: 'GET', url: '/auth/code' })).json());
      const answer = await readCaptchaAnswer(app, uuid);
      const wrong = await login(app, { username: 'admin', password: TEST_PASSWORD, code: `${answer}9`, uuid });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toMatch(/^code: .*wrong/);
      const right = await login(app, { username: 'admin', password: TEST_PASSWORD, code: answer, uuid });
      expect(right.json().message).toMatch(/^code: .*expired/);
    });

    it('expires after two minutes', async () => {
      const clock = new SettableClock();
      app = await buildTestApp({ captchaEnabled: true }, { clock });
      const issue = async () => {
        const { uuid } = captchaSchema.parse((await app.inject({ method: 'GET', url: '/auth/code' })).json());
        return { uuid, code: await readCaptchaAnswer(app, uuid) };
      };
      const [first, second] = [await issue(), await issue()];
      clock.advance(CAPTCHA_TTL_MS);
      expect((await login(app, { username: 'admin', password: TEST_PASSWORD, ...first })).statusCode).toBe(200);
      clock.advance(1);
      const response = await login(app, { username: 'admin', password: TEST_PASSWORD, ...second });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^code: .*expired/);
    });

    it(`holds an address to ${LIVE_CAPTCHAS_PER_ADDRESS} unused ones, whatever it used, and sweeps expired ones`, async () => {
      const clock = new SettableClock();
      app = await buildTestApp({ captchaEnabled: true }, { clock });
      const code = (remoteAddress: string) => app.inject({ method: 'GET', url: '/auth/code', remoteAddress });
      const first = captchaSchema.parse((await code('10.40.0.1')).json());
      clock.advance(CAPTCHA_TTL_MS + 1);
      const statuses: number[] = [];
      for (let call = 0; call < LIVE_CAPTCHAS_PER_ADDRESS; call += 1) statuses.push((await code('10.40.0.1')).statusCode);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      const refused = await code('10.40.0.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe('too many unused captchas for this address; wait a minute and try again');
      // Another address is not affected, and no refused call left a row; the expired one was swept.
      expect((await code('10.40.0.2')).statusCode).toBe(200);
      const rows = await app.services.database.db.selectFrom('sys_captcha').select('uuid').execute();
      expect(rows.map((row) => row.uuid)).not.toContain(first.uuid);
      expect(rows).toHaveLength(LIVE_CAPTCHAS_PER_ADDRESS + 1);
      // One used up by a login makes room for the next.
      const { uuid } = captchaSchema.parse((await code('10.40.0.2')).json());
      await login(app, { username: 'admin', password: TEST_PASSWORD, code: await readCaptchaAnswer(app, uuid), uuid }, '10.40.0.1');
      const held = (await app.services.database.db.selectFrom('sys_captcha').select('uuid').where('address', '=', '10.40.0.1').execute())[0];
      await login(app, { username: 'admin', password: TEST_PASSWORD, code: await readCaptchaAnswer(app, held?.uuid ?? ''), uuid: held?.uuid ?? '' }, '10.40.0.1');
      expect((await code('10.40.0.1')).statusCode).toBe(200);
    }, 60_000);

    it('is required when enabled', async () => {
      app = await buildTestApp({ captchaEnabled: true });
      const response = await login(app, { username: 'admin', password: TEST_PASSWORD });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^code: /);
    });
  });

  describe('login', () => {
    it('answers a Bearer token and the user with permissions, never the password hash', async () => {
      app = await buildTestApp();
      const response = await login(app, { username: 'admin', password: TEST_PASSWORD, code: '', uuid: '' });
      expect(response.statusCode).toBe(200);
      const body = loginResponseSchema.parse(response.json());
      expect(body.token).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      expect(body.user.user).toMatchObject({ username: 'admin', nickName: '管理员', enabled: true, dept: { name: '云课堂' } });
      expect(body.user.user.roles.map((role) => role.name)).toEqual(['admin']);
      expect(body.user.roles).toEqual(['admin']);
      expect(body.user.dataScopes).toEqual([]);
      expect(response.body).not.toMatch(/argon2|password_hash|passwordHash/i);
    });

    it('gives a learner no permissions and only their own department', async () => {
      app = await buildTestApp();
      const token = await loginAs(app, 'learner1');
      const body = authInfoSchema.parse((await info(app, token)).json());
      expect(body.roles).toEqual([]);
      const dept = body.user.dept;
      expect(dept?.name).toBe('研发部');
      expect(body.dataScopes).toEqual([dept?.id]);
    });

    it('gives the teacher the training department subtree and 研发部 as data scope, not 市场部', async () => {
      app = await buildTestApp();
      const body = authInfoSchema.parse((await info(app, await loginAs(app, 'teacher'))).json());
      const depts = await app.services.database.db.selectFrom('sys_dept').select(['id', 'name']).execute();
      const ids = depts.filter((d) => ['培训部', '讲师组', '学员服务组', '研发部'].includes(d.name)).map((d) => d.id).sort((a, b) => a - b);
      expect(body.dataScopes).toEqual(ids);
    });

    it('answers a wrong password and an unknown user with the same words', async () => {
      app = await buildTestApp();
      const wrongPassword = await login(app, { username: 'admin', password: 'not-the-password' });
      const unknownUser = await login(app, { username: 'nobody-here', password: 'not-the-password' });
      expect(wrongPassword.statusCode).toBe(400);
      expect(unknownUser.statusCode).toBe(400);
      expect(wrongPassword.json().message).toBe('username or password is wrong');
      expect(unknownUser.json().message).toBe(wrongPassword.json().message);
    });

    it.each([
      [{ password: 'x' }, /^username: /],
      [{ username: 'admin' }, /^password: /],
      [{ username: '', password: 'x' }, /^username: /],
      [{ username: 'admin', password: 7 }, /^password: /],
    ])('names the field of a bad body %o', async (payload, message) => {
      app = await buildTestApp();
      const response = await login(app, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(message);
    });

    it('refuses a disabled account', async () => {
      app = await buildTestApp();
      await app.services.database.db.updateTable('sys_user').set({ enabled: 0 }).where('username', '=', 'learner2').execute();
      const response = await login(app, { username: 'learner2', password: TEST_PASSWORD });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('this account is disabled');
    });

    it(`locks the address, not the account, after ${LOCK_AFTER_FAILURES} wrong passwords from it, existing user or not`, async () => {
      app = await buildTestApp();
      for (const username of ['admin', 'ghost-user']) {
        const statuses: number[] = [];
        for (let attempt = 0; attempt < LOCK_AFTER_FAILURES; attempt += 1) {
          statuses.push((await login(app, { username, password: 'wrong-password' }, '10.1.0.1')).statusCode);
        }
        expect(statuses).toEqual([400, 400, 400, 400, 429]);
        const locked = await login(app, { username, password: TEST_PASSWORD }, '10.1.0.1');
        expect(locked.statusCode).toBe(429);
        expect(locked.json().message).toMatch(/try again in 10 minutes/);
      }
      // The owner, at another address, is not denied by a stranger's guesses.
      expect((await login(app, { username: 'admin', password: TEST_PASSWORD }, '10.2.0.1')).statusCode).toBe(200);
      // Nor does their login lift the stranger's lock.
      expect((await login(app, { username: 'admin', password: TEST_PASSWORD }, '10.1.0.1')).statusCode).toBe(429);
      // Other accounts are untouched, even from the locked address.
      expect((await login(app, { username: 'learner1', password: TEST_PASSWORD }, '10.1.0.1')).statusCode).toBe(200);
      // Once the lock is over, the right password works again from there and clears the count.
      await app.services.database.db.updateTable('sys_login_throttle').set({ locked_until: Date.now() - 1 }).where('locked_until', 'is not', null).execute();
      expect((await login(app, { username: 'admin', password: TEST_PASSWORD }, '10.1.0.1')).statusCode).toBe(200);
      const again: number[] = [];
      for (let attempt = 0; attempt < LOCK_AFTER_FAILURES - 1; attempt += 1) {
        again.push((await login(app, { username: 'admin', password: 'wrong-password' }, '10.1.0.1')).statusCode);
      }
      expect(again).toEqual([400, 400, 400, 400]);
    });

    it('slows down the guessing addresses of an account guessed at from many, never one that has not failed', async () => {
      app = await buildTestApp();
      const guesses: number[] = [];
      for (let address = 0; address < ACCOUNT_SLOW_AFTER; address += 1) {
        guesses.push((await login(app, { username: 'admin', password: 'wrong-password' }, `10.3.${address >> 8}.${address & 255}`)).statusCode);
      }
      // Each address failed once only: none is locked, and the account is not.
      expect(guesses.every((status) => status === 400)).toBe(true);
      // From now on, an address that fails must wait before it may try this account again.
      expect((await login(app, { username: 'admin', password: 'wrong-password' }, '10.4.0.1')).statusCode).toBe(400);
      const slowed = await login(app, { username: 'admin', password: TEST_PASSWORD }, '10.4.0.1');
      expect(slowed.statusCode).toBe(429);
      expect(slowed.json().message).toMatch(/^too many failed logins for this account; try again in \d+ seconds$/);
      // The owner, who has not failed, signs in at once, and from another address too.
      expect((await login(app, { username: 'admin', password: TEST_PASSWORD }, '10.5.0.1')).statusCode).toBe(200);
      expect((await login(app, { username: 'admin', password: TEST_PASSWORD }, '10.5.0.2')).statusCode).toBe(200);
    });

    it('never lets many attempts from elsewhere in a minute refuse an address that has not failed', async () => {
      app = await buildTestApp();
      for (let address = 0; address < MAX_FAILURES_PER_ADDRESS; address += 1) {
        await login(app, { username: 'admin', password: 'wrong-password' }, `10.6.0.${address}`);
      }
      expect((await login(app, { username: 'admin', password: TEST_PASSWORD }, '10.7.0.1')).statusCode).toBe(200);
    });

    it(`holds one address trying many usernames to ${MAX_FAILURES_PER_ADDRESS} failures a minute, wrong captchas counted`, async () => {
      const clock = new SettableClock();
      app = await buildTestApp({ captchaEnabled: true }, { clock });
      const statuses: number[] = [];
      for (let attempt = 0; attempt < MAX_FAILURES_PER_ADDRESS; attempt += 1) {
        const captcha = attempt % 2 === 0 ? { code: '', uuid: '' } : await solvedCaptcha(app, '10.9.9.9');
        statuses.push((await login(app, { username: `someone-${attempt}`, password: 'x', ...captcha }, '10.9.9.9')).statusCode);
      }
      expect(statuses.filter((status) => status !== 400)).toEqual([]);
      const held = await login(app, { username: 'admin', password: TEST_PASSWORD, ...(await solvedCaptcha(app, '10.9.9.9')) }, '10.9.9.9');
      expect(held.statusCode).toBe(429);
      expect(held.json().message).toBe('too many failed logins from this address; wait a minute and try again');
      // Another address is not affected, and the minute over, this one may try again.
      expect((await login(app, { username: 'admin', password: TEST_PASSWORD, ...(await solvedCaptcha(app, '10.9.9.10')) }, '10.9.9.10')).statusCode).toBe(200);
      clock.advance(60_000);
      expect((await login(app, { username: 'admin', password: TEST_PASSWORD, ...(await solvedCaptcha(app, '10.9.9.9')) }, '10.9.9.9')).statusCode).toBe(200);
    });

    it('lets 600 people of one office sign in through the proxy within a minute, and still stops a guesser among them', async () => {
      const clock = new SettableClock();
      // The proxy at 10.0.0.2 (trusted); the office's NAT address as the proxy saw it, 203.0.113.7.
      app = await buildTestApp({ captchaEnabled: true, trustProxy: ['10.0.0.0/24'] }, { clock });
      const db = app.services.database.db;
      const learner = await db.selectFrom('sys_user').selectAll().where('username', '=', 'learner1').executeTakeFirstOrThrow();
      const people = Array.from({ length: 600 }, (_, index) => `office-${index}`);
      for (let from = 0; from < people.length; from += 200) {
        await db
          .insertInto('sys_user')
          .values(people.slice(from, from + 200).map((username) => ({ ...learner, id: undefined, username, phone: null, email: null })))
          .execute();
      }
      const throughProxy = { remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': '203.0.113.7' } };
      const statuses: number[] = [];
      for (const username of people) {
        const issued = await app.inject({ method: 'GET', url: '/auth/code', ...throughProxy });
        const { uuid } = captchaSchema.parse(issued.json());
        const response = await app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { username, password: TEST_PASSWORD, uuid, code: await readCaptchaAnswer(app, uuid) },
          ...throughProxy,
        });
        statuses.push(response.statusCode);
        clock.advance(90); // 600 within 54 seconds
      }
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      const sessions = await db.selectFrom('sys_session').select('ip').distinct().execute();
      expect(sessions.map((session) => session.ip)).toEqual(['203.0.113.7']);

      // 30 wrong passwords for one account from that address: stopped by the fifth.
      const guesses: number[] = [];
      for (let guess = 0; guess < 30; guess += 1) {
        const { uuid } = captchaSchema.parse((await app.inject({ method: 'GET', url: '/auth/code', ...throughProxy })).json());
        const payload = { username: 'office-7', password: `guess-${guess}`, uuid, code: await readCaptchaAnswer(app, uuid) };
        guesses.push((await app.inject({ method: 'POST', url: '/auth/login', payload, ...throughProxy })).statusCode);
      }
      expect(guesses.slice(0, 4)).toEqual([400, 400, 400, 400]);
      expect(guesses.slice(4).every((status) => status === 429)).toBe(true);
    }, 180_000);
  });

  describe('sessions', () => {
    it('answers auth/info for a live session and 401 otherwise', async () => {
      app = await buildTestApp();
      const token = await loginAs(app, 'admin');
      expect(authInfoSchema.parse((await info(app, token)).json()).user.username).toBe('admin');
      expect((await info(app)).statusCode).toBe(401);
      expect((await info(app, 'Bearer not.a.token')).statusCode).toBe(401);
      expect((await info(app, token.replace('Bearer ', ''))).statusCode).toBe(401);
      const forged = await new SignJWT({ sid: 'x' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('guess'));
      const response = await info(app, `Bearer ${forged}`);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ status: 401 });
    });

    it('speaks the caller\'s language in a 401', async () => {
      app = await buildTestApp();
      const zh = await app.inject({ method: 'GET', url: '/auth/info', headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
      expect(zh.json().message).toBe('登录状态已过期，请重新登录');
      const en = await app.inject({ method: 'GET', url: '/auth/info', headers: { 'accept-language': 'en-US' } });
      expect(en.json().message).toBe('your session has expired, please log in again');
    });

    it('ends the session on logout, at once', async () => {
      app = await buildTestApp();
      const token = await loginAs(app, 'admin');
      const other = await loginAs(app, 'admin');
      const logout = await app.inject({ method: 'DELETE', url: '/auth/logout', headers: { authorization: token } });
      expect(logout.statusCode).toBe(200);
      expect((await info(app, token)).statusCode).toBe(401);
      // Only that session: the same user's other login lives on.
      expect((await info(app, other)).statusCode).toBe(200);
      // Logging out without a (live) token still answers 200: the client clears its state either way.
      expect((await app.inject({ method: 'DELETE', url: '/auth/logout' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'DELETE', url: '/auth/logout', headers: { authorization: token } })).statusCode).toBe(200);
    });

    it('expires an idle session and slides the expiry of a used one', async () => {
      const clock = new SettableClock();
      app = await buildTestApp({}, { clock });
      const idle = await loginAs(app, 'learner1');
      const used = await loginAs(app, 'learner2');

      clock.advance(SESSION_IDLE_MS - 1);
      expect((await info(app, used)).statusCode).toBe(200);
      clock.advance(1);
      expect((await info(app, idle)).statusCode).toBe(401);
      // Its use a moment before the end moved the end a whole idle period on.
      expect((await info(app, used)).statusCode).toBe(200);
      clock.advance(SESSION_IDLE_MS - 2);
      expect((await info(app, used)).statusCode).toBe(200);
      clock.advance(SESSION_IDLE_MS);
      expect((await info(app, used)).statusCode).toBe(401);
    });

    it('ends every session of a user who is disabled', async () => {
      app = await buildTestApp();
      const token = await loginAs(app, 'learner1');
      await app.services.database.db.updateTable('sys_user').set({ enabled: 0 }).where('username', '=', 'learner1').execute();
      expect((await info(app, token)).statusCode).toBe(401);
    });

    it('works across two server instances on one database: tokens and logouts are shared', async () => {
      const [first, second] = await buildTestAppPair();
      app = first;
      const token = await loginAs(first, 'admin');
      expect((await info(second, token)).statusCode).toBe(200);
      await second.inject({ method: 'DELETE', url: '/auth/logout', headers: { authorization: token } });
      expect((await info(first, token)).statusCode).toBe(401);
      expect((await info(second, token)).statusCode).toBe(401);
    });
  });

  describe('permissions', () => {
    it('answer 401 without a session, 403 without the permission, and let admin through', async () => {
      app = await buildTestApp();
      app.get('/api/test/guarded', { config: { access: { permissions: ['user:list', 'dept:list'] } } }, async () => ({ ok: true }));
      const call = (token?: string) =>
        app.inject({ method: 'GET', url: '/api/test/guarded', headers: token === undefined ? {} : { authorization: token } });
      expect((await call()).statusCode).toBe(401);
      const denied = await call(await loginAs(app, 'learner1'));
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toMatchObject({ status: 403 });
      expect((await call(await loginAs(app, 'teacher'))).statusCode).toBe(403);
      expect((await call(await loginAs(app, 'admin'))).json()).toEqual({ ok: true });
    });

    it('never treat a menu carrying the string \'admin\' as the administrator\'s wildcard', async () => {
      app = await buildTestApp();
      app.get('/api/test/users', { config: { access: { permissions: ['user:list'] } } }, async () => ({ ok: true }));
      const db = app.services.database.db;
      const now = Date.now();
      const { id: menuId } = await db
        .insertInto('sys_menu')
        .values({ pid: null, type: 2, title: 'sneaky', permission: 'admin', menu_sort: 1, i_frame: 0, cache: 0, hidden: 0, sub_count: 0, component: null, component_name: null, path: null, icon: null, create_by: null, update_by: null, create_time: now, update_time: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const role = await db.selectFrom('sys_role').select('id').where('name', '=', 'learner').executeTakeFirstOrThrow();
      await db.insertInto('sys_roles_menus').values({ role_id: role.id, menu_id: menuId }).execute();
      const token = await loginAs(app, 'learner1');
      expect(authInfoSchema.parse((await info(app, token)).json()).roles).toEqual([]);
      expect((await app.inject({ method: 'GET', url: '/api/test/users', headers: { authorization: token } })).statusCode).toBe(403);
    });

    it('follow the menus of the user\'s roles, read on every request', async () => {
      app = await buildTestApp();
      app.get('/api/test/dict-list', { config: { access: { permissions: ['dict:list'] } } }, async () => ({ ok: true }));
      const db = app.services.database.db;
      const token = await loginAs(app, 'teacher');
      const call = () => app.inject({ method: 'GET', url: '/api/test/dict-list', headers: { authorization: token } });
      expect((await call()).statusCode).toBe(403);
      const role = await db.selectFrom('sys_role').select('id').where('name', '=', 'teacher').executeTakeFirstOrThrow();
      const menu = await db.selectFrom('sys_menu').select('id').where('permission', '=', 'dict:list').executeTakeFirstOrThrow();
      await db.insertInto('sys_roles_menus').values({ role_id: role.id, menu_id: menu.id }).execute();
      // Granted at once, no new login needed.
      expect((await call()).statusCode).toBe(200);
    });
  });
});
