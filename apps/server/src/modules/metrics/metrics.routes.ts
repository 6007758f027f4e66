import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppDatabase } from '../../db/database.js';
import { HttpError } from '../../http/http-error.js';
import type { Services } from '../../services.js';

export type MetricsOptions = { token: string; database: AppDatabase; services: Services };

const BEARER = 'Bearer ';

/** A comparison whose time does not tell how much of the token was right. */
function sameToken(sent: string | undefined, token: string): boolean {
  if (sent === undefined || !sent.startsWith(BEARER)) return false;
  const [a, b] = [crypto.createHash('sha256').update(sent.slice(BEARER.length)).digest(), crypto.createHash('sha256').update(token).digest()];
  return crypto.timingSafeEqual(a, b);
}

/**
 * Prometheus's `GET /metrics`, registered only when `METRICS_TOKEN` is set and answered only to
 * that bearer token (it names routes and counts people at work). prom-client is loaded then, so a
 * node without metrics neither loads it nor times a request. Figures: requests by route, method
 * and status with their latency; the database pool (PostgreSQL) or group commit (SQLite); the job
 * queue by state; open sockets; exam attempts in progress. What the database holds is read at
 * scrape time and is the same on every node.
 */
export async function registerMetrics(app: FastifyInstance, { token, database, services }: MetricsOptions): Promise<void> {
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry, prefix: 'cc_' });

  const requests = new prom.Histogram({
    name: 'cc_http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, with their duration',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The pattern, never the URL: ids in paths would make a series per row.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  const gauge = (name: string, help: string, collect: (set: (value: number, labels?: Record<string, string>) => void) => Promise<void> | void, labelNames: string[] = []) =>
    new prom.Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        await collect((value, labels) => (labels === undefined ? this.set(value) : this.set(labels, value)));
      },
    });

  if (database.pool !== undefined) {
    const pool = database.pool;
    gauge('cc_db_pool_connections', 'PostgreSQL pool connections by state', (set) => {
      const state = pool();
      set(state.size - state.idle, { state: 'busy' });
      set(state.idle, { state: 'idle' });
      set(state.max, { state: 'max' });
    }, ['state']);
    gauge('cc_db_pool_waiting', 'Queries waiting for a PostgreSQL pool connection', (set) => set(pool().waiting));
  }
  if (database.groupCommit !== undefined) {
    const groupCommit = database.groupCommit;
    gauge('cc_sqlite_commits', 'SQLite commits since start', (set) => set(groupCommit().commits));
    gauge('cc_sqlite_wal_syncs', 'SQLite WAL syncs since start: commits share them (the group commit)', (set) => set(groupCommit().syncs));
  }
  gauge('cc_jobs', 'Background jobs by state (every node)', async (set) => {
    for (const [state, count] of Object.entries(await services.jobs.countByState())) set(count, { state });
  }, ['state']);
  gauge('cc_websockets_open', 'WebSockets this node holds', (set) => set(services.sockets.openCount));
  gauge('cc_exam_attempts_in_progress', 'Exam attempts started and not handed in (every node)', async (set) => set(await services.attempts.countInProgress()));

  app.get('/metrics', { config: { access: { public: true }, audit: false } }, async (request, reply) => {
    if (!sameToken(request.headers.authorization, token)) throw new HttpError(401, 'metrics need the METRICS_TOKEN bearer token');
    reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
    return registry.metrics();
  });
}
