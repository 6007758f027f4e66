import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseMonitorSchema } from '@cloud-classroom/shared/monitor';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StatementStats } from '../../db/statement-stats.js';
import { buildTestApp, loginAs } from '../../test/test-app.js';

const onPostgres = process.env.TEST_DATABASE_URL !== undefined;

/** Gives the roles of `username` the menus holding `permissions` (the teacher has no monitoring). */
async function grant(app: FastifyInstance, username: string, permissions: string[]): Promise<void> {
  const { db } = app.services.database;
  const roles = await db.selectFrom('sys_users_roles').innerJoin('sys_user', 'sys_user.id', 'sys_users_roles.user_id').select('sys_users_roles.role_id').where('sys_user.username', '=', username).execute();
  const menus = await db.selectFrom('sys_menu').select('id').where('permission', 'in', permissions).execute();
  await db.insertInto('sys_roles_menus').values(roles.flatMap((role) => menus.map((menu) => ({ role_id: role.role_id, menu_id: menu.id })))).execute();
}

describe('the database monitor', () => {
  let app: FastifyInstance;
  let webDist: string;
  beforeEach(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-druid-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Cloud Classroom</title><div id="root"></div>');
    app = await buildTestApp({ webDistDir: webDist });
  });
  afterEach(async () => {
    await app.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('counts, times and masks the statements run through the real database, and resets', async () => {
    const admin = await loginAs(app, 'admin');
    const { db } = app.services.database;
    // A statement three times with different values, and one that fails.
    for (const name of ['secret-one', 'secret-two', 'a-third-secret-value']) {
      await db.selectFrom('sys_user').select('username').where('username', '=', name).where('id', '>', 0).execute();
    }
    await expect(sql`select no_such_column from sys_user where username = ${'concealed'}`.execute(db)).rejects.toThrow();

    const response = await app.inject({ method: 'GET', url: '/api/monitor/database?sort=count&limit=500', headers: { authorization: admin } });
    expect(response.statusCode, response.body).toBe(200);
    const body = databaseMonitorSchema.parse(response.json());
    expect(body.dialect).toBe(onPostgres ? 'postgres' : 'sqlite');
    expect(body.collecting).toBe(true);
    expect(response.body).not.toContain('secret');
    expect(response.body).not.toContain('concealed');

    const lookup = body.statements.find((entry) => /from "sys_user" where "username" = \? and "id" > \?/.test(entry.sql));
    expect(lookup).toMatchObject({ count: 3, errors: 0, rows: 0, lastParameters: ['text(20)', 'number'] });
    expect(lookup?.totalMs).toBeGreaterThan(0);
    expect(lookup?.maxMs).toBeLessThanOrEqual(lookup?.totalMs ?? 0);
    const failed = body.statements.find((entry) => entry.sql.includes('no_such_column'));
    expect(failed).toMatchObject({ count: 1, errors: 1, lastParameters: ['text(9)'] });
    // The login read its rows: rows are counted.
    expect(body.totals.rows).toBeGreaterThan(0);
    expect(body.totals.count).toBeGreaterThanOrEqual(body.statements.reduce((sum, entry) => sum + entry.count, 0));
    if (onPostgres) {
      expect(body.sqlite).toBeNull();
      expect(body.pool).toMatchObject({ max: 10 });
      expect(body.pool?.size).toBeGreaterThan(0);
    } else {
      expect(body.pool).toBeNull();
      expect(body.sqlite).toMatchObject({ journalMode: 'wal', pageSize: expect.any(Number) as number });
      expect(body.sqlite?.walFileSize).toMatch(/B$/);
    }
    const ordered = body.statements.map((entry) => entry.count);
    expect(ordered).toEqual([...ordered].sort((a, b) => b - a));

    const reset = await app.inject({ method: 'DELETE', url: '/api/monitor/database/statements', headers: { authorization: admin } });
    expect(reset.statusCode).toBe(200);
    const after = databaseMonitorSchema.parse((await app.inject({ method: 'GET', url: '/api/monitor/database', headers: { authorization: admin } })).json());
    expect(after.statements.some((entry) => entry.sql.includes('no_such_column'))).toBe(false);
    expect(after.statements.find((entry) => /"username" = \? and "id" > \?/.test(entry.sql))).toBeUndefined();
  });

  it('answers 401 without a session, 403 without the permission, 400 for a bad query', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/monitor/database' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'DELETE', url: '/api/monitor/database/statements' })).statusCode).toBe(401);
    const learner = await loginAs(app, 'learner1');
    expect((await app.inject({ method: 'GET', url: '/api/monitor/database', headers: { authorization: learner } })).statusCode).toBe(403);
    expect((await app.inject({ method: 'DELETE', url: '/api/monitor/database/statements', headers: { authorization: learner } })).statusCode).toBe(403);

    // Seeing the monitor is not resetting it.
    await grant(app, 'teacher', ['monitor:list']);
    const teacher = await loginAs(app, 'teacher');
    expect((await app.inject({ method: 'GET', url: '/api/monitor/database', headers: { authorization: teacher } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: '/api/monitor/database/statements', headers: { authorization: teacher } })).statusCode).toBe(403);

    const admin = await loginAs(app, 'admin');
    for (const query of ['sort=name', 'limit=0', 'limit=501', 'limit=ten']) {
      const response = await app.inject({ method: 'GET', url: `/api/monitor/database?${query}`, headers: { authorization: admin } });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toMatch(/^(sort|limit): /);
    }
  });

  it('serves /druid/index.html to a browser signed in with monitor:list, from its cookie, and refuses the others', async () => {
    expect((await app.inject({ method: 'GET', url: '/druid/index.html' })).statusCode).toBe(401);
    const learner = await loginAs(app, 'learner1');
    const refused = await app.inject({ method: 'GET', url: '/druid/index.html', headers: { cookie: `TW-PLATFORM-TOEKN=${encodeURIComponent(learner)}` } });
    expect(refused.statusCode).toBe(403);
    const admin = await loginAs(app, 'admin');
    const page = await app.inject({ method: 'GET', url: '/druid/index.html', headers: { cookie: `TW-PLATFORM-TOEKN=${encodeURIComponent(admin)}` } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('<div id="root">');
  });
});

describe('StatementStats', () => {
  it('holds at most its cap of distinct statements, summing the runs of the rest', () => {
    const stats = new StatementStats(10);
    for (let index = 0; index < 100; index += 1) {
      stats.record(`select * from "t${index}" where "id" = ?`, [index], performance.now(), 1);
    }
    const snapshot = stats.snapshot();
    expect(snapshot.statements).toHaveLength(10);
    expect(snapshot.untracked).toEqual({ statements: 10, count: 90 });
    stats.reset();
    expect(stats.snapshot()).toMatchObject({ statements: [], untracked: { statements: 0, count: 0 } });
  });

  it('counts one statement whatever its literals and list lengths', () => {
    const stats = new StatementStats();
    stats.record('select * from "sys_user" where "user_id" in (?, ?, ?)', [1, 2, 3], performance.now(), 3);
    stats.record('select * from "sys_user" where "user_id" in ($1, $2)', [1, 2], performance.now(), 2);
    stats.record("select *  from \"sys_user\" where \"user_id\" in (7)  and name = 'x'", [], performance.now(), 1);
    stats.record('insert into "t" ("a", "b") values (?, ?), (?, ?), (?, ?)', [1, 'a', 2, null, 3, Buffer.from('xyz')], performance.now(), 3);
    const { statements } = stats.snapshot();
    expect(statements.map((entry) => [entry.sql, entry.count])).toEqual([
      ['select * from "sys_user" where "user_id" in (?, …)', 2],
      ['select * from "sys_user" where "user_id" in (?) and name = ?', 1],
      ['insert into "t" ("a", "b") values (?, …), …', 1],
    ]);
    expect(statements[2]?.lastParameters).toEqual(['number', 'text(1)', 'number', 'null', 'number', 'blob(3)']);
  });
});
