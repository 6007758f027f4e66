import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { sql, type Generated, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, sqliteFileOf, type AppDatabase } from './database.js';
import { ReusableQuery } from './reusable-query.js';
import { runOnSqliteNow, sqliteGroupCommitOf, sqliteTransactionNow } from './sqlite-connection.js';
import { WalSync, type SqliteGroupCommit } from './sqlite-group-commit.js';

type Notes = { note: { id: Generated<number>; text: string } };

// The embedded database commits writes arriving together as one (one sync to disk): each writer
// is answered only once its write is committed, which another connection to the file (another
// process, or the server after a crash) proves by seeing it.
describe('the embedded database’s group commit', () => {
  let parent: string;
  let database: AppDatabase;
  let db: Kysely<Notes>;
  let group: SqliteGroupCommit;
  let observer: SQLite.Database;
  const seen = (text: string) => observer.prepare('select count(*) as n from note where text = ?').get(text) as { n: number };
  const committed = (text: string) => seen(text).n === 1;

  beforeEach(async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-group-'));
    database = await openDatabase({ dataDir: parent });
    db = database.db as unknown as Kysely<Notes>;
    await sql`create table note (id integer primary key, text text not null unique)`.execute(db);
    group = sqliteGroupCommitOf(db) as SqliteGroupCommit;
    observer = new SQLite(sqliteFileOf(parent), { readonly: true });
  });
  afterEach(async () => {
    observer.close();
    await database.db.destroy();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('commits writes, transactions and quick statements arriving together once, and answers each after the commit', async () => {
    const before = group.commits;
    const answered: string[] = [];
    const check = (text: string) => () => {
      // At the moment the writer is answered, its write is visible to another connection.
      if (committed(text)) answered.push(text);
    };
    const insert = new ReusableQuery(1, (kysely, [text]) => kysely.insertInto('note' as never).values({ text } as never));
    await Promise.all([
      ...Array.from({ length: 10 }, (_, index) => db.insertInto('note').values({ text: `plain ${index}` }).execute().then(check(`plain ${index}`))),
      ...Array.from({ length: 5 }, (_, index) =>
        db
          .transaction()
          .execute(async (trx) => {
            await trx.insertInto('note').values({ text: `transaction ${index} a` }).execute();
            await trx.insertInto('note').values({ text: `transaction ${index} b` }).execute();
          })
          .then(check(`transaction ${index} b`)),
      ),
      ...Array.from({ length: 5 }, (_, index) => insert.run(database.db, [`reusable ${index}`]).then(check(`reusable ${index}`))),
    ]);
    expect(answered).toHaveLength(20);
    expect(group.commits - before).toBeLessThanOrEqual(2);
  });

  it('rolls back a failing transaction alone; the others of its group commit', async () => {
    const results = await Promise.allSettled([
      db.insertInto('note').values({ text: 'kept 1' }).execute(),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('note').values({ text: 'undone' }).execute();
        await trx.insertInto('note').values({ text: 'kept 1' }).execute(); // unique: fails
      }),
      db.insertInto('note').values({ text: 'kept 2' }).execute(),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect([committed('kept 1'), committed('undone'), committed('kept 2')]).toEqual([true, false, true]);
  });

  it('never commits in the middle of a transaction that waits between its statements', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const long = db.transaction().execute(async (trx) => {
      await trx.insertInto('note').values({ text: 'first half' }).execute();
      await gate;
      await trx.insertInto('note').values({ text: 'second half' }).execute();
    });
    await sleep(20);
    // Meanwhile others write: they wait for the connection, and nothing is committed.
    const other = db.insertInto('note').values({ text: 'other' }).execute();
    expect(runOnSqliteNow(database.db, 'select 1', [])).toBeUndefined();
    expect(sqliteTransactionNow(database.db, () => 1)).toBeUndefined();
    await sleep(20);
    expect([committed('first half'), committed('other')]).toEqual([false, false]);
    release();
    await Promise.all([long, other]);
    expect([committed('first half'), committed('second half'), committed('other')]).toEqual([true, true, true]);
  });

  it('answers a quick transaction’s writer only once durable, and commits what is open when the database closes', async () => {
    const quick = sqliteTransactionNow(db, (run) => run({ sql: 'insert into note (text) values (?)', parameters: ['quick'] }));
    expect(quick).toBeDefined();
    expect(committed('quick')).toBe(false);
    await quick?.durable;
    expect(committed('quick')).toBe(true);

    void db.insertInto('note').values({ text: 'unawaited' }).execute();
    await database.db.destroy();
    expect(committed('unawaited')).toBe(true);
    database = await openDatabase({ dataDir: parent });
  });

  it('answers a writer only after a sync of the WAL; commits made while one runs share the next', async () => {
    const syncs = group.syncs;
    await db.insertInto('note').values({ text: 'synced' }).execute();
    expect(group.syncs).toBeGreaterThan(syncs);
    expect(observer.pragma('journal_mode', { simple: true })).toBe('wal');

    const wal = new WalSync(`${sqliteFileOf(parent)}-wal`);
    const first = wal.sync();
    // These came while the first sync ran: it may have begun before their writes, so they wait
    // for one more, which all of them share.
    const second = wal.sync();
    const third = wal.sync();
    expect(third).toBe(second);
    await first;
    expect(wal.syncs).toBe(1);
    await second;
    expect(wal.syncs).toBe(2);
    await wal.sync();
    expect(wal.syncs).toBe(3);
    await wal.close();
  });
});
