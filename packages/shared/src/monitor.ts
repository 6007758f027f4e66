import { z } from 'zod';

/** Sizes are human strings ("7.6 GiB"), the rate a percentage as text ("42.1"), as eladmin sends them. */
const usageSchema = z.object({
  total: z.string(),
  available: z.string(),
  used: z.string(),
  usageRate: z.string(),
});
export type Usage = z.infer<typeof usageSchema>;

/** `GET api/monitor`: the server, its process and its database, measured at `time` ('HH:mm:ss'). */
export const serverMonitorSchema = z.object({
  sys: z.object({
    os: z.string(),
    /** How long the machine has been up ("3d 4h 5m 6s"); the process's own uptime is under `process`. */
    day: z.string(),
    ip: z.string(),
  }),
  cpu: z.object({
    name: z.string(),
    /** Counts: physical packages, physical cores (twice: eladmin's `core` and `coreNumber`), logical CPUs. */
    package: z.number().int(),
    core: z.number().int(),
    coreNumber: z.number().int(),
    logic: z.number().int(),
    used: z.string(),
    idle: z.string(),
  }),
  memory: usageSchema,
  swap: usageSchema,
  disk: usageSchema,
  process: z.object({
    pid: z.number().int(),
    uptime: z.string(),
    rss: z.string(),
    heapUsed: z.string(),
    nodeVersion: z.string(),
  }),
  database: z.object({
    dialect: z.enum(['sqlite', 'postgres']),
    version: z.string(),
    size: z.string(),
  }),
  time: z.string(),
});
export type ServerMonitor = z.infer<typeof serverMonitorSchema>;

/** How the database monitor's statements may be ordered (each from the largest). */
export const STATEMENT_ORDERS = ['totalMs', 'count', 'maxMs', 'errors', 'rows'] as const;
export type StatementOrder = (typeof STATEMENT_ORDERS)[number];

/** `GET api/monitor/database`'s query: the order and how many statements (default: by total time, 100). */
export const databaseMonitorQuerySchema = z.object({
  sort: z.enum(STATEMENT_ORDERS).default('totalMs'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type DatabaseMonitorQuery = z.output<typeof databaseMonitorQuerySchema>;

/** One statement, normalised (literals and lists as `?`), with what its runs came to since `since`. */
export const statementFiguresSchema = z.object({
  sql: z.string(),
  count: z.number().int(),
  errors: z.number().int(),
  /** Milliseconds, to the microsecond. */
  totalMs: z.number(),
  maxMs: z.number(),
  avgMs: z.number(),
  /** Rows read or changed, all runs together. */
  rows: z.number().int(),
  /** The last run's parameters, masked: their kind and length (`text(12)`, `number`, `null`), never a value. */
  lastParameters: z.array(z.string()),
  lastRunAt: z.string(),
});
export type StatementFigures = z.infer<typeof statementFiguresSchema>;

/**
 * `GET api/monitor/database` (the page `/druid/index.html`, Druid's monitor for our database):
 * the engine's facts (SQLite's journal, pages, cache and WAL; PostgreSQL's pool), and the
 * statements counted since the start or the last reset, when counting is on.
 */
export const databaseMonitorSchema = z.object({
  dialect: z.enum(['sqlite', 'postgres']),
  version: z.string(),
  size: z.string(),
  sqlite: z
    .object({
      journalMode: z.string(),
      pageSize: z.number().int(),
      /** As SQLite reads it: pages when positive, KiB when negative; `cacheBytes` says it in bytes. */
      cacheSize: z.number().int(),
      cacheBytes: z.string(),
      walFileSize: z.string(),
      /** Frames (pages) in the WAL file now, and the count at which SQLite checkpoints it back by itself. */
      walFrames: z.number().int(),
      autoCheckpoint: z.number().int(),
    })
    .nullable(),
  pool: z.object({ size: z.number().int(), max: z.number().int(), idle: z.number().int(), waiting: z.number().int() }).nullable(),
  collecting: z.boolean(),
  since: z.string(),
  totals: z.object({ statements: z.number().int(), count: z.number().int(), errors: z.number().int(), totalMs: z.number(), rows: z.number().int() }),
  /** Statements first seen once `maxStatements` were counted: only their runs are summed. */
  untracked: z.object({ statements: z.number().int(), count: z.number().int() }),
  maxStatements: z.number().int(),
  statements: z.array(statementFiguresSchema),
  time: z.string(),
});
export type DatabaseMonitor = z.infer<typeof databaseMonitorSchema>;
