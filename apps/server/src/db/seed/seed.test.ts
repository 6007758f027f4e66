import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrate.js';
import { openBlankTestDatabase, testConfig, type TestDatabase } from '../../test/test-app.js';
import type { AppDatabase } from '../database.js';
import { seedIfEmpty } from './seed.js';

describe('the first start', () => {
  let database: TestDatabase | undefined;
  let other: AppDatabase | undefined;
  afterEach(async () => {
    await other?.db.destroy();
    await database?.db.destroy();
    await database?.dispose();
  });

  // On SQLite one process owns the file; several nodes share one PostgreSQL database.
  it.runIf(process.env.TEST_DATABASE_URL)('seeds once when two nodes start together on one fresh database', async () => {
    const config = testConfig();
    database = await openBlankTestDatabase(config);
    await migrateToLatest(database);
    other = await database.openAnother();
    const results = await Promise.all([seedIfEmpty(database.db, 'first-node-password'), seedIfEmpty(other.db, 'second-node-password')]);
    expect(results.map((result) => result.seeded).sort()).toEqual([false, true]);
    const admins = await database.db.selectFrom('sys_user').select('username').where('username', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
  }, 60_000);
});
