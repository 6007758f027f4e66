import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type Driver } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.js';
import { SearchPathPostgresDialect } from './search-path-introspector.js';
import { ConnectedSqliteDialect, type SqliteConnection } from './sqlite-connection.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';
import { MeasuredDriver, StatementStats } from './statement-stats.js';

export type DatabaseDialect = 'sqlite' | 'postgres';

export type AppDatabase = {
  db: Kysely<Database>;
  dialect: DatabaseDialect;
  /** Where the data lives, for the start-up banner (the file path, or the host/database). */
  location: string;
  /** PostgreSQL only: the schema the tables live in, when not the default one. */
  schema?: string;
  /** PostgreSQL only: the URL connected to, for pg_dump (database backups). */
  connectionUrl?: string;
  /**
   * PostgreSQL only: hears `NOTIFY`s on `channel` (a plain identifier) on a connection of its
   * own, outside the pool, for as long as it is open.
   */
  listen?: (channel: string, onPayload: (payload: string) => void) => Promise<Listening>;
  /** The database monitor's per-statement counters; absent when turned off (`DB_STATEMENT_STATS=off`). */
  statements?: StatementStats;
  /** SQLite only: the connection, for the monitor's read of its pragmas. */
  sqlite?: SQLite.Database;
  /** PostgreSQL only: the pool's connections now. */
  pool?: () => PoolState;
  /** SQLite only: commits made and WAL syncs they shared (the group commit), since start. */
  groupCommit?: () => { commits: number; syncs: number };
};

export type PoolState = { size: number; max: number; idle: number; waiting: number };

/** A LISTEN connection; `close` ends it. */
export type Listening = { close: () => Promise<void> };

export type DatabaseOptions = {
  /** A postgres:// URL; without it the embedded SQLite file under dataDir is used. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL only: work inside this schema (created if missing), so test runs stay apart. */
  schema?: string;
  /** Count every statement for the database monitor (default on). */
  statementStats?: boolean;
};

const SQLITE_FILE_NAME = 'cloud-classroom.sqlite';

/** The `application_name` of the server's PostgreSQL sessions. */
export const SERVER_APPLICATION_NAME = 'cloud-classroom';

export async function openDatabase(options: DatabaseOptions): Promise<AppDatabase> {
  const stats = options.statementStats === false ? undefined : new StatementStats();
  return options.databaseUrl === undefined
    ? openSqlite(options.dataDir, stats)
    : openPostgres(options.databaseUrl, options.schema, stats);
}

/** Where the embedded database of a data folder lives. */
export const sqliteFileOf = (dataDir: string): string => path.join(dataDir, SQLITE_FILE_NAME);

/**
 * The data folder and the database file are the server's alone: the file holds password hashes
 * and the token signing secret. SQLite gives its WAL and shared-memory files the database file's
 * permissions, so creating that file 0600 covers them; an older install's looser modes are tightened.
 */
function privateSqliteFile(dataDir: string): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = sqliteFileOf(dataDir);
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  if (process.platform !== 'win32') {
    fs.chmodSync(dataDir, 0o700);
    fs.chmodSync(file, 0o600);
  }
  return file;
}

function openSqlite(dataDir: string, stats: StatementStats | undefined): AppDatabase {
  const file = privateSqliteFile(dataDir);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // `synchronous` is set by the group commit, which makes acknowledged writes durable (WalSync).
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const connection = withStatementCache(sqlite);
  return {
    db: new Kysely<Database>({ dialect: new ConnectedSqliteDialect({ ...connection, stats }) }),
    dialect: 'sqlite',
    location: file,
    sqlite,
    groupCommit: () => ({ commits: connection.group.commits, syncs: connection.group.syncs }),
    ...(stats === undefined ? {} : { statements: stats }),
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; better-sqlite3's prepare costs more than running a small
 * query, and the same few hundred statements repeat forever. Reusing them was a third of the
 * CPU of an authenticated request. Bounded, oldest first out, for queries built with varying
 * shapes (IN lists of different lengths).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteConnection {
  const statements = new Map<string, SQLite.Statement>();
  return {
    group: new SqliteGroupCommit(sqlite),
    prepare: (text) => {
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = sqlite.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/** pg is loaded only when a PostgreSQL URL is given: an SQLite start has no use for it. */
async function loadPg(): Promise<typeof pg> {
  const { default: pg } = await import('pg');
  // bigint columns (ids, epoch-millisecond times) come back from pg as strings by default; every
  // value we store fits a double, so read them as numbers like SQLite does.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  return pg;
}

/** PostgreSQL through a driver that counts every statement for the database monitor. */
class MeasuredPostgresDialect extends SearchPathPostgresDialect {
  constructor(
    config: ConstructorParameters<typeof SearchPathPostgresDialect>[0],
    private readonly stats: StatementStats,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new MeasuredDriver(super.createDriver(), this.stats);
  }
}

const POOL_MAX = 10;

async function openPostgres(databaseUrl: string, schema: string | undefined, stats: StatementStats | undefined): Promise<AppDatabase> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new Error(`Invalid PostgreSQL schema name: ${schema}`);
  }
  const pg = await loadPg();
  if (schema !== undefined) {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: POOL_MAX,
    // Names the server's sessions in pg_stat_activity: `npm run restore` refuses while it sees one.
    application_name: SERVER_APPLICATION_NAME,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
    // A database that does not answer (a partition, a host gone) fails a request in 5 s (a 503)
    // instead of holding it until the client gives up.
    connectionTimeoutMillis: 5000,
  });
  // A connection broken under the pool (PostgreSQL restarted, an administrator ended it) is an
  // 'error' event, on the pool while it was idle and on the connection while a request held it:
  // unheard, either ended the process. The query under way fails by itself (a 503), and the pool
  // drops the connection and opens a new one when next needed.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // Fail at start, with the reason, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const url = new URL(databaseUrl);
  return {
    db: new Kysely<Database>({ dialect: stats === undefined ? new SearchPathPostgresDialect({ pool }) : new MeasuredPostgresDialect({ pool }, stats) }),
    dialect: 'postgres',
    location: `${url.host}${url.pathname}${schema === undefined ? '' : ` (schema ${schema})`}`,
    ...(schema === undefined ? {} : { schema }),
    connectionUrl: databaseUrl,
    listen: (channel, onPayload) => listenOn(pg, databaseUrl, channel, onPayload),
    pool: () => ({ size: pool.totalCount, max: POOL_MAX, idle: pool.idleCount, waiting: pool.waitingCount }),
    ...(stats === undefined ? {} : { statements: stats }),
  };
}

const RELISTEN_DELAY_MS = 1000;

/**
 * A client of its own (a pooled one would be handed to queries, and LISTEN holds its session):
 * on a lost connection it connects again after a pause, until closed. What was sent while it was
 * away is missed, which a reader's next list makes good.
 */
async function listenOn(driver: typeof pg, databaseUrl: string, channel: string, onPayload: (payload: string) => void): Promise<Listening> {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new driver.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    next.on('error', () => {
      if (closed || client !== next) return;
      client = undefined;
      void next.end().catch(() => undefined);
      retry = setTimeout(() => void connect().catch(scheduleRetry), RELISTEN_DELAY_MS).unref();
    });
    await next.connect();
    if (closed) {
      await next.end();
      return;
    }
    await next.query(`listen ${channel}`);
    client = next;
  };
  const scheduleRetry = () => {
    if (!closed) retry = setTimeout(() => void connect().catch(scheduleRetry), RELISTEN_DELAY_MS).unref();
  };
  await connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
