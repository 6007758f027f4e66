import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import type { StatementStats } from './statement-stats.js';

/** The savepoint each Kysely transaction runs in, inside the group's transaction. */
const TRANSACTION_SAVEPOINT = 'cc_transaction';

type Group = { durable: Promise<void>; resolve: () => void; reject: (error: unknown) => void };

/**
 * Group commit for the embedded database (DESIGN §8). A commit costs far more than the writes in
 * it: its sync to disk. So writers share commits: the first write opens one transaction (BEGIN
 * IMMEDIATE), every write and transaction until the next turn of the event loop joins it (each
 * transaction in its own savepoint, so a failing one rolls back alone), and one COMMIT then ends
 * them all. A writer is answered only once that commit is durable (`WalSync`): what the server
 * acknowledges survives a crash of the process and of the machine, and a failed commit or sync
 * fails every writer in it. Readers on the one connection see the group's writes before the
 * commit, as the next statement of a transaction would; only a commit that fails (the disk) can
 * take them back.
 *
 * It also is the connection's lock, in arrival order: a Kysely transaction holds it across its
 * awaits; the commit waits its turn, so it never lands inside one.
 */
export class SqliteGroupCommit {
  private held = false;
  private readonly waiting: (() => void)[] = [];
  private group: Group | undefined;
  /** Commits made (tests and benches count them). */
  commits = 0;
  /** Syncs of the WAL that ended (tests count them). */
  get syncs(): number {
    return this.wal?.syncs ?? this.commits;
  }

  /** Undefined where the file system refused WAL mode: then each COMMIT syncs (FULL). */
  private readonly wal: WalSync | undefined;

  /** Durability is the group commit's: it sets the connection's `synchronous` to match (see WalSync). */
  constructor(readonly sqlite: SQLite.Database) {
    const wal = sqlite.pragma('journal_mode', { simple: true }) === 'wal';
    sqlite.pragma(wal ? 'synchronous = NORMAL' : 'synchronous = FULL');
    this.wal = wal ? new WalSync(`${sqlite.name}-wal`) : undefined;
  }

  /** No one holds the connection: a statement run now, synchronously, runs between transactions. */
  get free(): boolean {
    return !this.held;
  }

  async lock(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    // The lock passes straight to the first in line (see unlock): no one can slip in between.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  unlock(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.held = false;
    else next();
  }

  /** The group's transaction, opened if none is: answers the promise of its durable commit. */
  join(): Promise<void> {
    if (this.group === undefined) {
      this.sqlite.exec('BEGIN IMMEDIATE');
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const durable = new Promise<void>((onDurable, onFailed) => {
        resolve = onDurable;
        reject = onFailed;
      });
      // A group only readers joined has no one awaiting it; its failure must not crash the process.
      durable.catch(() => undefined);
      this.group = { durable, resolve, reject };
      setImmediate(() => void this.commit());
    }
    return this.group.durable;
  }

  /** Commits the open group once the connection is free. */
  async commit(): Promise<void> {
    await this.lock();
    try {
      this.commitHeld();
    } finally {
      this.unlock();
    }
  }

  private commitHeld(): void {
    const group = this.group;
    if (group === undefined) return;
    this.group = undefined;
    try {
      this.sqlite.exec('COMMIT');
      this.commits += 1;
      if (this.wal === undefined) group.resolve();
      else this.wal.sync().then(group.resolve, group.reject);
    } catch (error) {
      if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
      group.reject(error);
    }
  }

  /** Commits what is open, then closes the connection. */
  async close(): Promise<void> {
    await this.lock();
    this.commitHeld();
    await this.wal?.close();
    this.sqlite.close();
  }
}

/**
 * Makes committed transactions durable off the event loop. The connection runs with
 * `synchronous=NORMAL`: a COMMIT writes its frames to the WAL file (so a killed process loses
 * nothing: they are in the kernel's cache) without waiting for the disk, and this syncs the WAL
 * (fdatasync, on libuv's thread pool) before anyone is answered: what `synchronous=FULL` does
 * inside every COMMIT, but with the event loop free to serve requests and to build the next group
 * meanwhile, where FULL blocked it for each sync (on a busy disk, tens of milliseconds). One sync
 * runs at a time; commits made while it runs share the next one, which starts when it ends.
 * Checkpoints sync the WAL before copying it into the database file, and that file after, as
 * under FULL.
 */
export class WalSync {
  private handle: Promise<fs.promises.FileHandle> | undefined;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  syncs = 0;

  constructor(private readonly file: string) {}

  /** Settles once everything committed before the call is on disk. */
  sync(): Promise<void> {
    if (this.next !== undefined) return this.next;
    if (this.running === undefined) return this.begin();
    const next = this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.begin();
      });
    this.next = next;
    return next;
  }

  private begin(): Promise<void> {
    const run = this.open()
      .then((handle) => handle.datasync())
      .then(() => {
        this.syncs += 1;
      })
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    this.running = run;
    return run;
  }

  /** The WAL file exists from the first commit on, for as long as the connection is open. */
  private open(): Promise<fs.promises.FileHandle> {
    if (this.handle === undefined) {
      const handle = openWal(this.file);
      handle.catch(() => {
        if (this.handle === handle) this.handle = undefined;
      });
      this.handle = handle;
    }
    return this.handle;
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.next, this.running]);
    const handle = await this.handle?.catch(() => undefined);
    this.handle = undefined;
    await handle?.close();
  }
}

async function openWal(file: string): Promise<fs.promises.FileHandle> {
  const handle = await fs.promises.open(file, 'r');
  // The WAL file's name in its folder must survive a crash too, once.
  const folder = await fs.promises.open(path.dirname(file), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
  return handle;
}

/**
 * Kysely's driver for the one better-sqlite3 connection, committing in groups (SqliteGroupCommit):
 * a transaction is a savepoint in the group's transaction, a write outside any joins the group,
 * and whoever wrote gets the connection's release only once the group is durable, after letting
 * the next one in (so the next writers join the same group).
 */
export class GroupCommitSqliteDriver implements Driver {
  private readonly connection: GroupCommitConnection;

  constructor(
    private readonly group: SqliteGroupCommit,
    prepare: (sql: string) => SQLite.Statement,
    private readonly owner: boolean,
    stats?: StatementStats,
  ) {
    this.connection = new GroupCommitConnection(group, prepare, stats);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.group.lock();
    this.connection.durable = undefined;
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    this.connection.durable = this.group.join();
    this.group.sqlite.exec(`SAVEPOINT ${TRANSACTION_SAVEPOINT}`);
  }

  async commitTransaction(): Promise<void> {
    this.group.sqlite.exec(`RELEASE ${TRANSACTION_SAVEPOINT}`);
  }

  async rollbackTransaction(): Promise<void> {
    this.group.sqlite.exec(`ROLLBACK TO ${TRANSACTION_SAVEPOINT}`);
    this.group.sqlite.exec(`RELEASE ${TRANSACTION_SAVEPOINT}`);
    // What it wrote is gone: nothing of it to wait for.
    this.connection.durable = undefined;
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`SAVEPOINT "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`ROLLBACK TO "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`RELEASE "${name}"`));
  }

  async releaseConnection(): Promise<void> {
    const durable = this.connection.durable;
    this.connection.durable = undefined;
    this.group.unlock();
    if (durable !== undefined) await durable;
  }

  async destroy(): Promise<void> {
    await (this.owner ? this.group.close() : this.group.commit());
  }
}

class GroupCommitConnection implements DatabaseConnection {
  /** Set when the current holder wrote: the commit it must wait for before it is released. */
  durable: Promise<void> | undefined;

  constructor(
    private readonly group: SqliteGroupCommit,
    private readonly prepare: (sql: string) => SQLite.Statement,
    private readonly stats: StatementStats | undefined,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { stats } = this;
    if (stats === undefined) return this.run(query);
    const started = performance.now();
    let result: QueryResult<R>;
    try {
      result = this.run(query);
    } catch (error) {
      stats.record(query.sql, query.parameters, started, 0, true);
      throw error;
    }
    stats.record(query.sql, query.parameters, started, result.rows.length > 0 ? result.rows.length : Number(result.numAffectedRows ?? 0));
    return result;
  }

  private run<R>(query: CompiledQuery): QueryResult<R> {
    const statement = this.prepare(query.sql);
    // `readonly`, not `reader`: an INSERT … RETURNING reads rows and writes.
    if (!statement.readonly) this.durable ??= this.group.join();
    if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(query.parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.prepare(query.sql);
    if (!statement.reader) throw new Error('only a reader streams');
    for (const row of statement.iterate(query.parameters)) yield { rows: [row as R] };
  }
}
