import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../app.js';
import type { Clock } from '../clock.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type AppDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { anotherSqliteHandle, sqliteGroupCommitOf } from '../db/sqlite-connection.js';
import { seedIfEmpty } from '../db/seed/seed.js';

/**
 * Server tests run on SQLite by default and on PostgreSQL when TEST_DATABASE_URL is set (CI
 * runs the suite both ways). Each test database is fresh: a temporary SQLite file, or a
 * PostgreSQL schema of its own that is dropped afterwards, so test files can run in parallel.
 */
/** The password of every seeded account in tests. */
export const TEST_PASSWORD = 'test-password-1';

export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-test-'));
  return {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: TEST_PASSWORD, CAPTCHA_ENABLED: 'false' }),
    ...overrides,
  };
}

async function removeDataDir(config: Config): Promise<void> {
  fs.rmSync(config.dataDir, { recursive: true, force: true });
}

export type TestDatabase = AppDatabase & { dispose: () => Promise<void>; openAnother: () => Promise<AppDatabase> };

/** A fresh database without even the tables, for tests of the migrations themselves. */
export async function openBlankTestDatabase(config: Config): Promise<TestDatabase> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (databaseUrl === undefined || databaseUrl === '') {
    const database = await openDatabase({ dataDir: config.dataDir });
    // A second server on the open file shares its connection (see anotherSqliteHandle); once it is
    // closed, the file is opened anew, as by a restart.
    const openAnother = async (): Promise<AppDatabase> =>
      sqliteGroupCommitOf(database.db)?.sqlite.open === true
        ? { ...database, db: anotherSqliteHandle(database.db) as AppDatabase['db'] }
        : openDatabase({ dataDir: config.dataDir });
    return { ...database, dispose: () => removeDataDir(config), openAnother };
  }
  const schema = `test_${crypto.randomBytes(6).toString('hex')}`;
  const database = await openDatabase({ databaseUrl, dataDir: config.dataDir, schema });
  return {
    ...database,
    openAnother: () => openDatabase({ databaseUrl, dataDir: config.dataDir, schema }),
    // The schema itself is dropped once all test files are done (test/global-setup.ts).
    dispose: () => removeDataDir(config),
  };
}

export async function openTestDatabase(config: Config): Promise<TestDatabase> {
  const database = await openBlankTestDatabase(config);
  await migrateToLatest(database);
  await seedIfEmpty(database.db, config.adminPassword);
  return database;
}

/**
 * The real app on a fresh database; closing the app also removes the database. A test about a
 * deadline or an expiry passes a `SettableClock` and moves it instead of waiting.
 */
export async function buildTestApp(overrides: Partial<Config> = {}, options: { clock?: Clock } = {}): Promise<FastifyInstance> {
  const config = testConfig(overrides);
  const database = await openTestDatabase(config);
  try {
    const app = await buildApp({ config, database, ...options });
    app.addHook('onClose', database.dispose);
    return app;
  } catch (error) {
    await database.db.destroy();
    await database.dispose();
    throw error;
  }
}

/** Logs in through the real endpoint and returns the Authorization header value. */
export async function loginAs(app: FastifyInstance, username: string, password = TEST_PASSWORD): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login as ${username} failed: ${response.body}`);
  return (response.json() as { token: string }).token;
}

/** A request through the real app, sent as the holder of `token` when one is given. */
export function call(app: FastifyInstance, method: InjectOptions['method'], url: string, token?: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: token === undefined ? {} : { authorization: token },
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
}

/**
 * Two app instances on one database, each with its own connections, as two server processes
 * behind a load balancer would be (on machines of their own with `ownDataDirs`: the second gets a
 * data folder of its own). Closing the first removes the database.
 */
export async function buildTestAppPair(
  overrides: Partial<Config> = {},
  { ownDataDirs = false, ...options }: { clock?: Clock; ownDataDirs?: boolean } = {},
): Promise<[FastifyInstance, FastifyInstance]> {
  const config = testConfig(overrides);
  const database = await openTestDatabase(config);
  const secondConfig = ownDataDirs ? { ...config, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'cc-test-')) } : config;
  const first = await buildApp({ config, database, ...options });
  const second = await buildApp({ config: secondConfig, database: await database.openAnother(), ...options });
  first.addHook('onClose', async () => {
    await second.close();
    await database.dispose();
    if (secondConfig !== config) await removeDataDir(secondConfig);
  });
  return [first, second];
}
