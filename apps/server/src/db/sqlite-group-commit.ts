import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';

/** The savepoint each Kysely transaction runs in, inside the group's transaction. */
const TRANSACTION_SAVEPOINT = 'cc_transaction';

type Group = { durable: Promise<void>; resolve: () => void; reject: (error: unknown) => void };

/**
 * Group commit for the embedded database (DESIGN §8). With `synchronous=FULL` every COMMIT waits
 * for an fsync, on the event loop, and a commit costs far more than the writes in it: an exam
 * start spike made of one commit per start, per session touch and per audit row left the server
 * waiting on the disk rather than working. So writers share commits: the first write opens one
 * transaction (BEGIN IMMEDIATE), every write and transaction until the next turn of the event
 * loop joins it (each transaction in its own savepoint, so a failing one rolls back alone), and
 * one COMMIT then makes them all durable at once. A writer is answered only after that commit:
 * what the server acknowledges is on disk, as before, and a failed commit fails every writer in
 * it. Readers on the one connection see the group's writes before the commit, as the next
 * statement of a transaction would; only a commit that fails (the disk) can take them back.
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

  constructor(readonly sqlite: SQLite.Database) {}

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
      group.resolve();
    } catch (error) {
      if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
      group.reject(error);
    }
  }

  /** Commits what is open, then closes the connection. */
  async close(): Promise<void> {
    await this.lock();
    this.commitHeld();
    this.sqlite.close();
  }
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
  ) {
    this.connection = new GroupCommitConnection(group, prepare);
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
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
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
