import { performance } from 'node:perf_hooks';
import type SQLite from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type DatabaseIntrospector, type Dialect, type Driver, type QueryCompiler } from 'kysely';
import { GroupCommitSqliteDriver, type SqliteGroupCommit } from './sqlite-group-commit.js';
import type { StatementStats } from './statement-stats.js';

/**
 * The embedded database's one better-sqlite3 connection, its group commit (which is also its
 * lock), and the statement cache Kysely prepares through.
 */
export type SqliteConnection = {
  group: SqliteGroupCommit;
  prepare: (sql: string) => SQLite.Statement;
  /** The database monitor's counters (`statement-stats.ts`), when collected. */
  stats?: StatementStats | undefined;
};

/** Kysely's SQLite adapter, holding the connection the dialect runs on (see `runOnSqliteNow`). */
class ConnectedSqliteAdapter extends SqliteAdapter {
  constructor(readonly connection: SqliteConnection) {
    super();
  }
}

/** Kysely's SQLite dialect on the group-committing driver, whose connection `runOnSqliteNow` may use directly. */
export class ConnectedSqliteDialect implements Dialect {
  /** `owner`: destroying this Kysely closes the connection (else it only commits what is open). */
  constructor(
    private readonly connection: SqliteConnection,
    private readonly owner = true,
  ) {}

  createDriver(): Driver {
    return new GroupCommitSqliteDriver(this.connection.group, this.connection.prepare, this.owner, this.connection.stats);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): SqliteAdapter {
    return new ConnectedSqliteAdapter(this.connection);
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * Runs a compiled statement straight on the SQLite connection, as Kysely's driver would (a
 * reader's rows, nothing for a write), without the driver's promises, lock and result plumbing,
 * which cost more than a short statement on the hot routes. A write joins the group commit and
 * answers once durable. Answers undefined, and runs nothing, when it may not: on PostgreSQL, with
 * a Kysely plugin, or while someone holds the connection (a transaction `db` is not: the
 * statement would land inside it; Kysely's own path waits its turn). A statement that runs to its
 * end at once, synchronously, needs no lock: nothing else can run meanwhile. Inside a
 * transaction, `db` is that transaction, holds the lock already, and its commit is awaited by it.
 */
export function runOnSqliteNow<R, DB>(db: Kysely<DB>, sql: string, parameters: readonly unknown[]): R[] | Promise<R[]> | undefined {
  const executor = db.getExecutor();
  const { adapter } = executor;
  if (!(adapter instanceof ConnectedSqliteAdapter) || executor.plugins.length > 0) return undefined;
  const { group, prepare, stats } = adapter.connection;
  if (!db.isTransaction && !group.free) return undefined;
  const started = stats === undefined ? 0 : performance.now();
  let rows: R[] = [];
  let counted: number;
  let durable: Promise<void> | undefined;
  try {
    const statement = prepare(sql);
    durable = db.isTransaction || statement.readonly ? undefined : group.join();
    if (statement.reader) counted = (rows = statement.all(parameters) as R[]).length;
    else counted = statement.run(parameters).changes;
  } catch (error) {
    stats?.record(sql, parameters, started, 0, true);
    throw error;
  }
  stats?.record(sql, parameters, started, counted);
  return durable === undefined ? rows : durable.then(() => rows);
}

/** Runs one statement inside `sqliteTransactionNow`'s transaction: a reader's (or RETURNING) rows, else none. */
export type SqliteRunner = <R>(query: { sql: string; parameters: readonly unknown[] }) => R[];

/**
 * Runs `work` as one transaction straight on the SQLite connection, synchronously from start to
 * end (rolled back on a throw; a savepoint in the group commit's transaction), when no one holds
 * the connection: nothing else can run meanwhile, so no lock is needed, and a batch of small
 * writes (an exam's answers saved together) costs no promises. `durable` settles once the group
 * is committed: answer no one before. Answers undefined, and runs nothing, when it may not: on
 * PostgreSQL, with a Kysely plugin, inside a transaction, or while someone holds the connection.
 */
export function sqliteTransactionNow<T, DB>(db: Kysely<DB>, work: (run: SqliteRunner) => T): { value: T; durable: Promise<void> } | undefined {
  const executor = db.getExecutor();
  const { adapter } = executor;
  if (!(adapter instanceof ConnectedSqliteAdapter) || executor.plugins.length > 0) return undefined;
  const { group, prepare, stats } = adapter.connection;
  if (db.isTransaction || !group.free) return undefined;
  const run: SqliteRunner = <R>(query: { sql: string; parameters: readonly unknown[] }): R[] => {
    const started = stats === undefined ? 0 : performance.now();
    try {
      const statement = prepare(query.sql);
      if (statement.reader) {
        const rows = statement.all(query.parameters) as R[];
        stats?.record(query.sql, query.parameters, started, rows.length);
        return rows;
      }
      const { changes } = statement.run(query.parameters);
      stats?.record(query.sql, query.parameters, started, changes);
      return [];
    } catch (error) {
      stats?.record(query.sql, query.parameters, started, 0, true);
      throw error;
    }
  };
  const durable = group.join();
  // Inside the group's open transaction, better-sqlite3 makes this a savepoint.
  return { value: group.sqlite.transaction(() => work(run))(), durable };
}

/**
 * A second Kysely on the same SQLite connection and lock, left open when it is destroyed: what a
 * second server instance in the same process (a test's pair) uses. A second connection in the
 * same thread could not be: its write would wait for the first's open group, whose commit needs
 * the thread the wait blocks. Undefined on PostgreSQL.
 */
export function anotherSqliteHandle<DB>(db: Kysely<DB>): Kysely<DB> | undefined {
  const { adapter } = db.getExecutor();
  return adapter instanceof ConnectedSqliteAdapter ? new Kysely<DB>({ dialect: new ConnectedSqliteDialect(adapter.connection, false) }) : undefined;
}

/** The embedded database's group commit; undefined on PostgreSQL. */
export function sqliteGroupCommitOf<DB>(db: Kysely<DB>): SqliteGroupCommit | undefined {
  const { adapter } = db.getExecutor();
  return adapter instanceof ConnectedSqliteAdapter ? adapter.connection.group : undefined;
}
