import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { openTestDatabase, testConfig } from './test/test-app.js';

describe('closing the app', () => {
  it('lets a request under way finish, then closes the database', async () => {
    const config = testConfig();
    const database = await openTestDatabase(config);
    const app: FastifyInstance = await buildApp({ config, database });
    let release: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      app.get('/api/test/slow', { config: { access: { public: true } } }, async () => {
        resolve();
        await new Promise<void>((done) => (release = done));
        const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
        return { one: Number(rows[0]?.one) };
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('no address');

    const inFlight = fetch(`http://127.0.0.1:${address.port}/api/test/slow`);
    await started;
    const closed = app.close();
    // A new connection is refused once closing has begun.
    await expect(fetch(`http://127.0.0.1:${address.port}/api/health`)).rejects.toThrow();
    release();

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ one: 1 });
    await closed;
    await expect(sql`select 1`.execute(database.db)).rejects.toThrow();
    await database.dispose();
  });

  it('writes the audit entries of the last answers before closing the database', async () => {
    const config = testConfig();
    const database = await openTestDatabase(config);
    const app = await buildApp({ config, database });
    const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'admin', password: 'wrong' } });
    expect(response.statusCode).toBe(400);
    await app.close();
    const reopened = await database.openAnother();
    const rows = await reopened.db.selectFrom('sys_log').select(['description', 'status']).execute();
    expect(rows).toContainEqual({ description: '用户登录', status: 400 });
    await reopened.db.destroy();
    await database.dispose();
  });
});
