import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, localAddress, publicUrlWarning, socketCeiling } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { seedIfEmpty } from './db/seed/seed.js';
import { createFileStore } from './files/create-file-store.js';
import { checkS3Bucket } from './files/s3-bucket.js';
import { removeLeftoverFiles } from './services.js';
import { seedNotice } from './db/seed/seed-notice.js';

const SHUTDOWN_GRACE_MS = 10_000;
/** Within the grace above: jobs still running after this go back to the queue for the next start. */
const JOBS_GRACE_MS = 5_000;
const bundledWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

async function main(): Promise<void> {
  const config = loadConfig();
  // Wire times ("yyyy-MM-dd HH:mm:ss") are written in the process's zone and calendar days in the
  // organisation's: one zone for both, whatever zone the machine runs in.
  process.env.TZ = config.timeZone;
  if (config.webDistDir === undefined && fs.existsSync(bundledWebDist)) config.webDistDir = bundledWebDist;
  const openFiles = openFileLimit();
  const ceiling = socketCeiling(config.sockets.total, openFiles);
  if (ceiling < config.sockets.total) {
    console.warn(`Warning: SOCKETS_MAX=${config.sockets.total} is more than this process's limit of ${openFiles} open files allows; holding at most ${ceiling} sockets.`);
    config.sockets.total = ceiling;
  }

  // A bucket that cannot be reached stops the start here, named, rather than every upload later.
  if (config.storage.kind === 's3') {
    const { bucket } = config.storage;
    const problem = await checkS3Bucket(bucket);
    if (problem !== undefined) throw new ConfigError(`STORAGE=s3: bucket ${bucket.bucket}${bucket.endpoint === undefined ? '' : ` at ${bucket.endpoint}`}: ${problem}`);
  }
  const database = await openDatabase(config);
  const applied = await migrateToLatest(database);
  // The demo catalogue's media go where the app's files do (services.ts builds the same store).
  const seedFiles = createFileStore(config);
  const seeded = await seedIfEmpty(database.db, config.adminPassword, seedFiles, config.timeZone).finally(() => seedFiles.close());
  // Through process.stdout, like console.log: pino's own writer is asynchronous, and its lines
  // (the listening address) would land after the notice that must come last.
  const app = await buildApp({ config, database, logger: { level: config.logLevel, stream: process.stdout } });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');

  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests and jobs under way');
    setTimeout(() => {
      app.log.error('requests still running after the grace period; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    // Stops claiming at once, alongside the requests; closing the app waits for it before the database goes.
    void app.services.jobs.stop(JOBS_GRACE_MS);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  await app.listen({ port: config.port, host: config.host });
  app.services.jobs.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const warning = publicUrlWarning(config);
  if (warning !== undefined) console.warn(`Warning: ${warning}`);
  // Plain stdout, not the JSON log: this line is for the person who just typed `npm start`.
  console.log(
    `Cloud Classroom is running at ${localAddress(config.host, port)}/ (${database.dialect}: ${database.location})` +
      (config.webDistDir === undefined ? ' — API only, the web app is not built' : ''),
  );
  if (seeded.seeded) console.log(seedNotice('First start: created the demo organisation', seeded));
  // After listening, not before: walking a large upload folder must not delay the start.
  removeLeftoverFiles(app.services).then(
    (removed) => {
      if (removed > 0) app.log.info({ files: removed }, 'removed files left behind by interrupted uploads');
    },
    (error: unknown) => app.log.warn({ err: error }, 'could not sweep files left behind by interrupted uploads'),
  );
}

/** The process's soft limit of open files, where Linux tells it (Node has no call for it). */
function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    return line === null ? undefined : Number(line[1]);
  } catch {
    return undefined;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
