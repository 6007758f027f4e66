import { performance } from 'node:perf_hooks';
import type { DatabaseConnection, Driver, QueryResult, TransactionSettings, CompiledQuery } from 'kysely';

/** How many distinct statements are counted; runs of any other statement are only summed as `untracked`. */
export const MAX_TRACKED_STATEMENTS = 500;

type Entry = {
  sql: string;
  count: number;
  errors: number;
  totalMs: number;
  maxMs: number;
  rows: number;
  /** The last run's parameters, as given (masked only when read: most runs are never looked at). */
  lastParameters: readonly unknown[];
  lastRunAt: number;
};

export type StatementFigures = {
  sql: string;
  count: number;
  errors: number;
  totalMs: number;
  maxMs: number;
  rows: number;
  lastParameters: string[];
  lastRunAt: number;
};

export type StatementStatsSnapshot = {
  /** Epoch milliseconds: the start, or the last reset. */
  since: number;
  statements: StatementFigures[];
  /** Distinct statements seen once the table was full, and their runs: counted nowhere else. */
  untracked: { statements: number; count: number };
  maxStatements: number;
};

/**
 * What Druid's SQL monitor counted, for our database: per statement (keyed by its text, which
 * Kysely parameterises, normalised so literals and IN lists of any length count as one), its
 * runs, errors, rows, total and longest time, and its last parameters, shown masked. Recorded by
 * the dialects' connections (`measured` on PostgreSQL, the SQLite driver and its direct paths),
 * never by a Kysely plugin: a plugin would turn the SQLite fast paths off. Bounded: at most
 * `maxStatements` entries, and a normalisation cache as large.
 */
export class StatementStats {
  private entries = new Map<string, Entry>();
  private readonly normalised = new Map<string, string>();
  private untrackedKeys = new Set<string>();
  private untrackedCount = 0;
  private sinceMs: number;

  constructor(
    readonly maxStatements = MAX_TRACKED_STATEMENTS,
    private readonly now: () => number = Date.now,
  ) {
    this.sinceMs = now();
  }

  /** A run that ended now, started at `startedAt` (`performance.now()`), giving `rows` rows (or changed). */
  record(sql: string, parameters: readonly unknown[], startedAt: number, rows: number, failed = false): void {
    const elapsed = performance.now() - startedAt;
    const key = this.keyOf(sql);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      if (this.entries.size >= this.maxStatements) {
        this.untrackedCount += 1;
        if (this.untrackedKeys.size < this.maxStatements) this.untrackedKeys.add(key);
        return;
      }
      entry = { sql: key, count: 0, errors: 0, totalMs: 0, maxMs: 0, rows: 0, lastParameters: [], lastRunAt: 0 };
      this.entries.set(key, entry);
    }
    entry.count += 1;
    if (failed) entry.errors += 1;
    entry.totalMs += elapsed;
    if (elapsed > entry.maxMs) entry.maxMs = elapsed;
    entry.rows += rows;
    entry.lastParameters = parameters;
    entry.lastRunAt = this.now();
  }

  snapshot(): StatementStatsSnapshot {
    return {
      since: this.sinceMs,
      statements: [...this.entries.values()].map((entry) => ({
        sql: entry.sql,
        count: entry.count,
        errors: entry.errors,
        totalMs: round(entry.totalMs),
        maxMs: round(entry.maxMs),
        rows: entry.rows,
        lastParameters: entry.lastParameters.map(maskParameter),
        lastRunAt: entry.lastRunAt,
      })),
      untracked: { statements: this.untrackedKeys.size, count: this.untrackedCount },
      maxStatements: this.maxStatements,
    };
  }

  reset(): void {
    this.entries = new Map();
    this.untrackedKeys = new Set();
    this.untrackedCount = 0;
    this.sinceMs = this.now();
  }

  private keyOf(sql: string): string {
    let key = this.normalised.get(sql);
    if (key === undefined) {
      key = normaliseSql(sql);
      if (this.normalised.size >= this.maxStatements * 2) this.normalised.delete(this.normalised.keys().next().value as string);
      this.normalised.set(sql, key);
    }
    return key;
  }
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

/**
 * One statement whatever its values: whitespace collapsed, string and number literals (a raw
 * `sql` fragment's) as `?`, PostgreSQL's `$n` as `?`, and a list of placeholders of any length
 * (`in (?, ?, ?)`, a multi-row `values`) as one `?, …`.
 */
export function normaliseSql(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\$\d+/g, '?')
    .replace(/(?<![\w"$.])-?\d+(?:\.\d+)?(?![\w"])/g, '?')
    .replace(/\?(?:\s*,\s*\?)+/g, '?, …')
    .replace(/\(\?, …\)(?:\s*,\s*\(\?, …\))+/g, '(?, …), …');
}

/** A parameter as the monitor shows it: its kind and size, never its value. */
export function maskParameter(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return `text(${value.length})`;
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (value instanceof Uint8Array) return `blob(${value.byteLength})`;
  if (value instanceof Date) return 'date';
  return typeof value;
}

const rowsOf = (result: QueryResult<unknown>): number =>
  result.numAffectedRows !== undefined && result.rows.length === 0 ? Number(result.numAffectedRows) : result.rows.length;

/** A Kysely driver whose connections record every statement in `stats` (PostgreSQL's). */
export class MeasuredDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly stats: StatementStats,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let measured = this.wrapped.get(connection);
    if (measured === undefined) {
      measured = measuredConnection(connection, this.stats);
      this.wrapped.set(connection, measured);
    }
    return measured;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(this.unwrap(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(this.unwrap(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(this.unwrap(connection));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    await this.inner.savepoint?.(this.unwrap(connection), name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]): Promise<void> {
    await this.inner.rollbackToSavepoint?.(this.unwrap(connection), name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]): Promise<void> {
    await this.inner.releaseSavepoint?.(this.unwrap(connection), name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(this.unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  private unwrap(connection: DatabaseConnection): DatabaseConnection {
    return (connection as { inner?: DatabaseConnection }).inner ?? connection;
  }
}

function measuredConnection(inner: DatabaseConnection, stats: StatementStats): DatabaseConnection & { inner: DatabaseConnection } {
  return {
    inner,
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const started = performance.now();
      let result: QueryResult<R>;
      try {
        result = await inner.executeQuery<R>(query);
      } catch (error) {
        stats.record(query.sql, query.parameters, started, 0, true);
        throw error;
      }
      stats.record(query.sql, query.parameters, started, rowsOf(result));
      return result;
    },
    streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => inner.streamQuery<R>(query, chunkSize),
  };
}
