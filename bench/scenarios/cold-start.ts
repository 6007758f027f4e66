import type { ColdStartScenario, Launch } from '../scenario.js';
import { BENCH_PASSWORD } from '../servers/bench-password.js';

// The compiled server exactly as `npm start` runs it once built, on a database that is already
// migrated and seeded (prepare() starts it once for that), so the rounds time a restart.
const product: Launch = {
  script: '../apps/server/dist/server.js',
  env: { PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: BENCH_PASSWORD },
  ready: /running at http:\/\/[^/]+:(\d+)\//,
};

export const coldStart: ColdStartScenario = {
  kind: 'cold-start',
  name: 'cold start to listening, migrated SQLite database',
  // A bare node:http server listens in about 73 ms on a quiet machine; the goal is 300 ms.
  target: 0.24,
  goalMs: 300,
  prepare: async (_dataDir, start) => start(product),
  subject: product,
  reference: { script: 'servers/bare-listen.mjs', ready: /ready (\d+)/ },
};
