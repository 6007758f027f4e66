import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testConfig, type TestDatabase } from '../test/test-app.js';
import { ReusableQuery } from './reusable-query.js';

const insertSetting = new ReusableQuery(3, (db, [key, value, now]) => db.insertInto('app_setting').values({ key, value, updated_at: now }));
const settingValue = new ReusableQuery(1, (db, [key]) => db.selectFrom('app_setting').select('value').where('key', '=', key));

// On SQLite a reusable query may run straight on the connection (`runOnSqliteNow`): these are the
// transaction rules it must keep, the same on both databases.
describe('a reusable query', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(testConfig());
  });
  afterAll(async () => {
    await database.db.destroy();
    await database.dispose();
  });

  const valueOf = async (key: string) => (await settingValue.run(database.db, [key]))[0]?.value;

  it('runs outside any transaction, and its write stays', async () => {
    await insertSetting.run(database.db, ['plain', 'one', 1]);
    expect(await valueOf('plain')).toBe('one');
  });

  it('inside a transaction sees its writes before the commit, and goes with its rollback', async () => {
    const seen = await database.db
      .transaction()
      .execute(async (trx) => {
        await insertSetting.run(trx, ['undone', 'two', 2]);
        const inside = (await settingValue.run(trx, ['undone']))[0]?.value;
        throw new Error(`roll back (saw ${String(inside)})`);
      })
      .catch((error: Error) => error.message);
    expect(seen).toBe('roll back (saw two)');
    expect(await valueOf('undone')).toBeUndefined();
  });

  it('outside a transaction that is open meanwhile never joins it: its write outlives that rollback', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let begun = () => {};
    const opened = new Promise<void>((resolve) => (begun = resolve));
    const rolledBack = database.db
      .transaction()
      .execute(async (trx) => {
        await insertSetting.run(trx, ['inside', 'three', 3]);
        begun();
        await held;
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await opened;
    // On SQLite this waits for the transaction to end, as any other statement of the pool would.
    const outside = insertSetting.run(database.db, ['outside', 'four', 4]);
    release();
    await Promise.all([rolledBack, outside]);
    expect(await valueOf('inside')).toBeUndefined();
    expect(await valueOf('outside')).toBe('four');
  });
});
