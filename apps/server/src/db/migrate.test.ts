import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testConfig, type TestDatabase } from '../test/test-app.js';
import { migrateToLatest } from './migrate.js';

describe('migrations', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.db.destroy();
    await database?.dispose();
  });

  it('apply once, then find nothing left to do', async () => {
    database = await openTestDatabase(testConfig());
    // openTestDatabase migrated already: a second run (a restart) applies nothing.
    expect(await migrateToLatest(database)).toEqual([]);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
    expect(rows.map((row) => row.name)).toEqual(['0001-app-setting', '0002-identity', '0003-storage-path-index']);
  });

  it('leave app_setting usable, with bigint times read back as numbers', async () => {
    database = await openTestDatabase(testConfig());
    const now = Date.now();
    await database.db.insertInto('app_setting').values({ key: 'installed_at', value: 'x', updated_at: now }).execute();
    const row = await database.db.selectFrom('app_setting').selectAll().executeTakeFirstOrThrow();
    expect(row).toEqual({ key: 'installed_at', value: 'x', updated_at: now });
    await expect(
      database.db.insertInto('app_setting').values({ key: 'installed_at', value: 'y', updated_at: now }).execute(),
    ).rejects.toThrow();
  });
});
