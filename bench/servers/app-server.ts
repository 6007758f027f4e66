// The product as `npm start` builds it: compiled server, real database, every plugin and hook.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../apps/server/dist/app.js';
import { loadConfig } from '../../apps/server/dist/config.js';
import { openDatabase } from '../../apps/server/dist/db/database.js';
import { migrateToLatest } from '../../apps/server/dist/db/migrate.js';
import { seedIfEmpty } from '../../apps/server/dist/db/seed/seed.js';
import { LocalFileStore } from '../../apps/server/dist/files/local-file-store.js';
import { announceReady } from './announce-ready.js';
import { BENCH_PASSWORD } from './bench-password.js';

const webDist = fileURLToPath(new URL('../../apps/web/dist', import.meta.url));
const dataDir = process.env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bench-'));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ADMIN_PASSWORD: BENCH_PASSWORD,
  CAPTCHA_ENABLED: 'false',
  ...(fs.existsSync(webDist) ? { WEB_DIST_DIR: webDist } : {}),
});
const database = await openDatabase(config);
await migrateToLatest(database);
// BENCH_DEMO=1: the whole demo as a first start makes it (courses, question bank, the demo exam
// and the learners it is assigned to), for the scenarios that take an exam.
await seedIfEmpty(database.db, config.adminPassword, process.env.BENCH_DEMO === '1' ? new LocalFileStore(config.dataDir) : undefined, config.timeZone);
const app = await buildApp({ config, database });
await app.listen({ port: 0, host: '127.0.0.1' });
announceReady(app.server);

process.on('SIGTERM', () => {
  void app.close().then(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
