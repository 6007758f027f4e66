import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../../test/test-app.js';

const TOKEN = 'metrics-token-for-the-test';

describe('GET /metrics', () => {
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
  });

  it('does not exist without METRICS_TOKEN', async () => {
    app = await buildTestApp();
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });

  it('answers the token only', async () => {
    app = await buildTestApp({ metricsToken: TOKEN });
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, TOKEN, `Bearer ${TOKEN.slice(1)}`, await loginAs(app, 'admin')]) {
      const response = await app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ status: 401, message: 'metrics need the METRICS_TOKEN bearer token' });
    }
  });

  it('counts requests by route pattern with their latency, and the figures of the node and the database', async () => {
    app = await buildTestApp({ metricsToken: TOKEN });
    const admin = await loginAs(app, 'admin');
    for (const id of [1, 2, 3]) await app.inject({ method: 'GET', url: `/api/logs/error/${id}`, headers: { authorization: admin } });
    const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    // One series for the three ids: the pattern, not the URL.
    expect(text).toMatch(/cc_http_request_duration_seconds_count\{method="GET",route="\/api\/logs\/error\/:id",status="404"\} 3/);
    expect(text).toMatch(/cc_http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/auth\/login",status="200"\} 1/);
    expect(text).toMatch(/^cc_jobs\{state="queued"\} \d+$/m);
    expect(text).toMatch(/^cc_jobs\{state="failed"\} \d+$/m);
    expect(text).toMatch(/^cc_websockets_open 0$/m);
    expect(text).toMatch(/^cc_exam_attempts_in_progress \d+$/m);
    expect(text).toMatch(/^cc_process_cpu_seconds_total /m);
    if (process.env.TEST_DATABASE_URL) {
      expect(text).toMatch(/^cc_db_pool_connections\{state="max"\} \d+$/m);
      expect(text).toMatch(/^cc_db_pool_waiting 0$/m);
    } else {
      expect(text).toMatch(/^cc_sqlite_commits [1-9]\d*$/m);
      expect(text).toMatch(/^cc_sqlite_wal_syncs \d+$/m);
    }
  });
});
