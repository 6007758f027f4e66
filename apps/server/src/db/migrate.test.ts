import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testConfig, type TestDatabase } from '../test/test-app.js';
import { migrateToLatest } from './migrate.js';
import * as dictDetailValueUnique from './migrations/0004-dict-detail-value-unique.js';

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
    expect(rows.map((row) => row.name)).toEqual([
      '0001-app-setting',
      '0002-identity',
      '0003-storage-path-index',
      '0004-dict-detail-value-unique',
    ]);
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

  it('make dictionary values unique, keeping the oldest entry of a repeated value and marking the others', async () => {
    database = await openTestDatabase(testConfig());
    const { db } = database;
    // Migrations see an untyped database, as the migrator hands it to them.
    const untyped = db as unknown as Kysely<unknown>;
    // The state before 0004: repeats were accepted.
    await dictDetailValueUnique.down(untyped);
    const stamp = { create_by: 'admin', update_by: 'admin', create_time: 1, update_time: 1 };
    const { id: dictId } = await db.insertInto('sys_dict').values({ name: 'repeats', description: null, ...stamp }).returning('id').executeTakeFirstOrThrow();
    const long = 'v'.repeat(100);
    for (const [label, value] of [['first', 'a'], ['second', 'a'], ['third', 'a'], ['other', 'b'], ['long', long], ['long again', long]]) {
      await db.insertInto('sys_dict_detail').values({ dict_id: dictId, label: label!, value: value!, dict_sort: 1, ...stamp }).execute();
    }
    await dictDetailValueUnique.up(untyped);
    const rows = await db.selectFrom('sys_dict_detail').select(['id', 'label', 'value']).where('dict_id', '=', dictId).orderBy('id').execute();
    const [, second, third, , , longAgain] = rows;
    expect(rows.map((row) => [row.label, row.value])).toEqual([
      ['first', 'a'],
      ['second', `a (duplicate #${second?.id})`],
      ['third', `a (duplicate #${third?.id})`],
      ['other', 'b'],
      ['long', long],
      ['long again', `${long.slice(0, 100 - ` (duplicate #${longAgain?.id})`.length)} (duplicate #${longAgain?.id})`],
    ]);
    expect(rows.every((row) => row.value.length <= 100)).toBe(true);
    // The seeded dictionaries had no repeats and are untouched.
    expect(await db.selectFrom('sys_dict_detail').select('value').where('value', 'like', '%duplicate%').where('dict_id', '!=', dictId).execute()).toEqual([]);
  });
});
