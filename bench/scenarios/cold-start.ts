import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ColdStartScenario, Launch } from '../scenario.js';
import { BENCH_PASSWORD } from '../servers/bench-password.js';

// A restart, as a rolling deploy or a crash's restart does it: the compiled server exactly as
// `npm start` runs it once built, on a database already migrated and seeded, with the build's V8
// code cache in place. prepare() starts it once for both, and keeps that first start running
// until the launcher has written the code cache (3 s after the start; a process stopped as soon
// as it listens never writes one, and every start then compiles the whole bundle: the 741 ms once
// read here). Where the rest of a start goes (a CPU profile to listening, 2-core machine): loading
// and running the bundle's modules (fastify, its https/http2/dns builtins, ws, pino), registering
// about 300 routes in find-my-way, deserialising the code cache (4 MB), young-generation GC, then
// migrations' check and listening.
const product: Launch = {
  script: '../apps/server/dist/server.js',
  env: { PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: BENCH_PASSWORD },
  ready: /running at http:\/\/[^/]+:(\d+)\//,
};

const distDir = fileURLToPath(new URL('../../apps/server/dist', import.meta.url));
/** The build's code cache: scripts/bundle-server.mjs removes other builds' caches, so any is this build's. */
const codeCacheWritten = () => fs.readdirSync(distDir).some((name) => name.startsWith('server-bundle.') && name.endsWith('.code-cache'));

export const coldStart: ColdStartScenario = {
  kind: 'cold-start',
  name: 'cold start to listening: a restart (migrated SQLite database, the build’s code cache written by its first start)',
  // A bare node:http server listens in about 60-75 ms on a quiet machine; the goal is 300 ms.
  target: 0.24,
  goalMs: 300,
  prepare: async (_dataDir, start) => start(product, codeCacheWritten),
  subject: product,
  reference: { script: 'servers/bare-listen.mjs', ready: /ready (\d+)/ },
};
