import type SQLite from 'better-sqlite3';
import { SqliteAdapter, SqliteDialect, type Kysely, type SqliteDatabase } from 'kysely';

/**
 * The embedded database's one better-sqlite3 connection, with the statement cache Kysely
 * prepares through.
 */
export type SqliteConnection = {
  sqlite: SQLite.Database;
  prepare: (sql: string) => SQLite.Statement;
};

/** Kysely's SQLite adapter, holding the connection the dialect runs on (see `runOnSqliteNow`). */
class ConnectedSqliteAdapter extends SqliteAdapter {
  constructor(readonly connection: SqliteConnection) {
    super();
  }
}

/** Kysely's SQLite dialect on a better-sqlite3 connection, which `runOnSqliteNow` may use directly. */
export class ConnectedSqliteDialect extends SqliteDialect {
  constructor(private readonly connection: SqliteConnection) {
    const database: SqliteDatabase = { close: () => connection.sqlite.close(), prepare: connection.prepare };
    super({ database });
  }

  override createAdapter(): SqliteAdapter {
    return new ConnectedSqliteAdapter(this.connection);
  }
}

/**
 * Runs a compiled statement straight on the SQLite connection, as Kysely's SQLite driver would
 * (a reader's rows, nothing for a write), without the driver's promises, connection lock and
 * result plumbing, which cost more than a short statement on the hot routes. Answers undefined,
 * and runs nothing, when it may not: on PostgreSQL, with a Kysely plugin, or when a transaction
 * that `db` is not part of is open on the connection (the statement would join it; Kysely's own
 * path waits for it to end). Kysely's lock exists for statements that wait between each other;
 * one that runs to its end at once, synchronously, needs no lock: nothing else can run
 * meanwhile. Inside a transaction, `db` is that transaction and holds the lock already.
 */
export function runOnSqliteNow<R, DB>(db: Kysely<DB>, sql: string, parameters: readonly unknown[]): R[] | undefined {
  const executor = db.getExecutor();
  const { adapter } = executor;
  if (!(adapter instanceof ConnectedSqliteAdapter) || executor.plugins.length > 0) return undefined;
  const { sqlite, prepare } = adapter.connection;
  // A transaction's handle runs in its own transaction; any other only outside every transaction.
  if (db.isTransaction !== sqlite.inTransaction) return undefined;
  const statement = prepare(sql);
  if (statement.reader) return statement.all(parameters) as R[];
  statement.run(parameters);
  return [];
}

/** Runs one statement inside `sqliteTransactionNow`'s transaction: a reader's (or RETURNING) rows, else none. */
export type SqliteRunner = <R>(query: { sql: string; parameters: readonly unknown[] }) => R[];

/**
 * Runs `work` as one transaction straight on the SQLite connection, synchronously from BEGIN to
 * COMMIT (rolled back on a throw), when no other transaction is open on it: nothing else can
 * run meanwhile, so Kysely's lock is not needed, and a batch of small writes (an exam's answers
 * saved together) costs one commit and no promises. IMMEDIATE: another process writing the file
 * makes it wait (busy_timeout) rather than fail half way. Answers undefined, and runs nothing,
 * when it may not: on PostgreSQL, with a Kysely plugin, inside a transaction, or while one is open.
 */
export function sqliteTransactionNow<T, DB>(db: Kysely<DB>, work: (run: SqliteRunner) => T): { value: T } | undefined {
  const executor = db.getExecutor();
  const { adapter } = executor;
  if (!(adapter instanceof ConnectedSqliteAdapter) || executor.plugins.length > 0) return undefined;
  const { sqlite, prepare } = adapter.connection;
  if (db.isTransaction || sqlite.inTransaction) return undefined;
  const run: SqliteRunner = <R>(query: { sql: string; parameters: readonly unknown[] }): R[] => {
    const statement = prepare(query.sql);
    if (statement.reader) return statement.all(query.parameters) as R[];
    statement.run(query.parameters);
    return [];
  };
  return { value: sqlite.transaction(() => work(run)).immediate() };
}
