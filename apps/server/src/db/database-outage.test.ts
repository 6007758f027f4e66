import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { toErrorBody } from '../http/error-handler.js';
import { buildTestApp, loginAs } from '../test/test-app.js';

describe('a database that cannot be reached', () => {
  it('is a 503 that says so, never a 500', async () => {
    // Nothing listens on port 1: the connection is refused, as by a PostgreSQL that is down.
    const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 5000 });
    const refused = await client.connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeDefined();
    expect(toErrorBody(refused)).toMatchObject({ status: 503, message: 'the database is not answering; try again in a moment' });
  });

  it.runIf(process.env.TEST_DATABASE_URL)('is a 503 for a connection PostgreSQL ended under a query, and the node lives on and reconnects', async () => {
    const app = await buildTestApp();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const token = await loginAs(app, 'admin');
      const db = app.services.database.db;
      // A connection of the node's pool, ended by the server while the pool holds it idle (what a
      // restart of PostgreSQL does to every one): unheard, that error ended the process.
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
      const pooled = app.services.database.pool?.().size ?? 0;
      await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
      // The pool drops it once its socket closes; until then it could hand it out again.
      await expect.poll(() => app.services.database.pool?.().size).toBeLessThan(pooled);
      // One ended in the middle of a query answers 503 in words.
      const busy = db.connection().execute(async (connection) => {
        const { rows: own } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
        // Its failure is taken at once: it may come before the terminating query has answered.
        const slow = sql`select pg_sleep(5)`.execute(connection).then(
          () => undefined,
          (error: unknown) => error,
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        await admin.query('select pg_terminate_backend($1)', [own[0]?.pid]);
        return slow;
      });
      expect(toErrorBody(await busy)).toMatchObject({ status: 503 });
      // The pool opens new connections: the node answers as before.
      await expect.poll(async () => (await app.inject({ method: 'GET', url: '/auth/info', headers: { authorization: token } })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
    } finally {
      await admin.end();
      await app.close();
    }
  }, 30_000);
});
