import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteGroupCommitOf } from '../db/sqlite-connection.js';
import { buildTestApp, call, loginAs, TEST_PASSWORD } from '../test/test-app.js';
import { resetPasswordCommand, RESET_PASSWORD_USAGE } from './reset-password-command.js';

let app: FastifyInstance;

beforeEach(async () => {
  app = await buildTestApp();
});
afterEach(async () => {
  await app.close();
});

/** The environment that points the command at the test app's database, as the server's would. */
function serverEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { database, config } = app.services;
  if (database.dialect === 'sqlite') return { DATA_DIR: config.dataDir, ...extra };
  // The test database lives in a schema of its own: the URL's search_path takes the command there.
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.searchParams.set('options', `-c search_path=${database.schema}`);
  return { DATABASE_URL: url.href, ...extra };
}

async function run(args: string[], env: NodeJS.ProcessEnv = serverEnv()) {
  // The command is another process in life; here it shares the thread, so the server's open group
  // commit (the audit rows of the last answers) is committed before the command's connection waits on it.
  await sqliteGroupCommitOf(app.services.database.db)?.commit();
  const out: string[] = [];
  const err: string[] = [];
  const code = await resetPasswordCommand(args, env, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const login = (username: string, password: string, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'POST', url: '/auth/login', payload: { username, password }, remoteAddress });

describe('npm run reset-password', () => {
  it('generates a password, prints it once in a box, ends the sessions and lifts the locks of every address', async () => {
    const session = await loginAs(app, 'admin');
    for (const address of ['127.0.0.1', '10.8.0.1']) {
      for (let attempt = 0; attempt < 5; attempt += 1) await login('admin', 'wrong-password', address);
      expect((await login('admin', TEST_PASSWORD, address)).statusCode).toBe(429);
    }

    const { code, out, err } = await run(['admin']);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const password = /^│\s+(\S{16})\s+│$/m.exec(out)?.[1];
    expect(out.split('\n')[0]).toMatch(/^┌─+┐$/);
    expect(out).toContain('New password of admin, shown only now:');
    expect(password).toBeDefined();

    expect((await call(app, 'GET', '/auth/info', session)).statusCode).toBe(401);
    expect((await login('admin', TEST_PASSWORD)).statusCode).toBe(400);
    expect((await login('admin', password ?? '')).statusCode).toBe(200);
    expect((await login('admin', password ?? '', '10.8.0.1')).statusCode).toBe(200);
    const row = await app.services.database.db.selectFrom('sys_user').select(['password_hash', 'update_by']).where('username', '=', 'admin').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.update_by).toBe('system');
  });

  it('lifts a lock from wrong current passwords given to change it, too', async () => {
    const session = await loginAs(app, 'learner2');
    const change = (oldPass: string) =>
      call(app, 'POST', '/api/users/updatePass', session, { oldPass, newPass: 'another-password-1' });
    for (let attempt = 0; attempt < 5; attempt += 1) await change('wrong-password');
    expect((await change(TEST_PASSWORD)).statusCode).toBe(429);

    expect((await run(['learner2'], serverEnv({ NEW_PASSWORD: 'a-chosen-password' }))).code).toBe(0);
    const fresh = await loginAs(app, 'learner2', 'a-chosen-password');
    const changed = await call(app, 'POST', '/api/users/updatePass', fresh, { oldPass: 'a-chosen-password', newPass: 'another-password-1' });
    expect(changed.statusCode, changed.body).toBeLessThan(300);
  });

  it('takes the new password from NEW_PASSWORD, with the rules of the app', async () => {
    const short = await run(['learner1'], serverEnv({ NEW_PASSWORD: 'short' }));
    expect(short).toEqual({ code: 2, out: '', err: 'NEW_PASSWORD: must be at least 8 characters' });
    expect((await login('learner1', TEST_PASSWORD)).statusCode).toBe(200);

    const chosen = await run(['learner1'], serverEnv({ NEW_PASSWORD: 'a-chosen-password' }));
    expect(chosen.code).toBe(0);
    expect(chosen.out).toBe('The password of learner1 is now the one in NEW_PASSWORD; their sessions have ended.');
    expect(chosen.out).not.toContain('a-chosen-password');
    expect((await login('learner1', 'a-chosen-password')).statusCode).toBe(200);
  });

  it('says so for an unknown user, and shows the usage without exactly one user name', async () => {
    expect(await run(['nobody'])).toEqual({ code: 1, out: '', err: "no user named 'nobody'" });
    for (const args of [[], ['admin', 'teacher'], ['--help']]) {
      expect(await run(args)).toEqual({ code: 2, out: '', err: RESET_PASSWORD_USAGE });
    }
  });

  it('refuses a data folder without a database rather than create an empty one', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-reset-'));
    try {
      const { code, err } = await run(['admin'], { DATA_DIR: empty });
      expect(code).toBe(1);
      expect(err).toMatch(/^No database at .*cloud-classroom\.sqlite: start the server once/);
      expect(fs.readdirSync(empty)).toEqual([]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
