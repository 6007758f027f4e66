import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { SettableClock } from './clock.js';
import { buildTestApp, call, loginAs } from './test/test-app.js';

describe('the clock given to the app', () => {
  let app: FastifyInstance;
  afterEach(async () => {
    await app.close();
  });

  it('stamps rows and audit entries with its time, not the machine time', async () => {
    const time = Date.UTC(2031, 4, 6, 7, 8, 9);
    const clock = new SettableClock(time);
    app = await buildTestApp({}, { clock });
    const token = await loginAs(app, 'admin');
    clock.advance(1000);
    expect((await call(app, 'POST', '/api/dict', token, { name: 'clock_test' })).statusCode).toBe(201);
    await app.auditLogSettled();

    const { db } = app.services.database;
    const dict = await db.selectFrom('sys_dict').select(['create_time', 'update_time']).where('name', '=', 'clock_test').executeTakeFirstOrThrow();
    expect(dict).toEqual({ create_time: time + 1000, update_time: time + 1000 });
    const session = await db.selectFrom('sys_session').select(['created_at', 'expires_at']).executeTakeFirstOrThrow();
    expect(session.created_at).toBe(time);
    const logged = await db.selectFrom('sys_log').select('create_time').orderBy('id').execute();
    expect(logged.map((row) => row.create_time)).toEqual([time, time + 1000]);
  });
});
