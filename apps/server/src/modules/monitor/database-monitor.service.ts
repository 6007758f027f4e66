import fs from 'node:fs/promises';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { DatabaseMonitor, DatabaseMonitorQuery, StatementFigures } from '@cloud-classroom/shared/monitor';
import type { Clock } from '../../clock.js';
import type { AppDatabase } from '../../db/database.js';
import { databaseFigures, sqliteSettings } from './monitor.repo.js';
import { formatBytes } from './monitor.service.js';

/** A WAL frame is a page and its 24-byte header; the file starts with a 32-byte header. */
const WAL_HEADER_BYTES = 32;
const WAL_FRAME_HEADER_BYTES = 24;

async function fileSize(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return 0;
  }
}

/** The database monitor (`/druid/index.html`): the engine's facts and the statements counted by `db/statement-stats.ts`. */
export class DatabaseMonitorService {
  constructor(
    private readonly database: AppDatabase,
    private readonly clock: Clock,
  ) {}

  async snapshot({ sort, limit }: DatabaseMonitorQuery): Promise<DatabaseMonitor> {
    const { db, dialect, statements: stats } = this.database;
    const figures = await databaseFigures(db, dialect);
    let sqlite: DatabaseMonitor['sqlite'] = null;
    if (dialect === 'sqlite') {
      const settings = await sqliteSettings(db);
      const walBytes = await fileSize(`${this.database.location}-wal`);
      const cacheBytes = settings.cacheSize < 0 ? -settings.cacheSize * 1024 : settings.cacheSize * settings.pageSize;
      sqlite = {
        ...settings,
        cacheBytes: formatBytes(cacheBytes),
        walFileSize: formatBytes(walBytes),
        walFrames: walBytes > WAL_HEADER_BYTES ? Math.floor((walBytes - WAL_HEADER_BYTES) / (settings.pageSize + WAL_FRAME_HEADER_BYTES)) : 0,
      };
    }
    const counted = stats?.snapshot();
    const all = counted?.statements ?? [];
    const statements: StatementFigures[] = [...all]
      .sort((a, b) => b[sort] - a[sort] || b.totalMs - a.totalMs)
      .slice(0, limit)
      .map(({ lastRunAt, ...entry }) => ({ ...entry, avgMs: Math.round((entry.totalMs / Math.max(entry.count, 1)) * 1000) / 1000, lastRunAt: formatDateTime(lastRunAt) }));
    return {
      dialect,
      version: figures.version,
      size: formatBytes(figures.size),
      sqlite,
      pool: this.database.pool?.() ?? null,
      collecting: stats !== undefined,
      since: formatDateTime(counted?.since ?? this.clock.now()),
      totals: {
        statements: all.length,
        count: all.reduce((sum, entry) => sum + entry.count, 0),
        errors: all.reduce((sum, entry) => sum + entry.errors, 0),
        totalMs: Math.round(all.reduce((sum, entry) => sum + entry.totalMs, 0) * 1000) / 1000,
        rows: all.reduce((sum, entry) => sum + entry.rows, 0),
      },
      untracked: counted?.untracked ?? { statements: 0, count: 0 },
      maxStatements: counted?.maxStatements ?? 0,
      statements,
      time: formatDateTime(this.clock.now(), '{h}:{i}:{s}'),
    };
  }

  /** Starts counting again from now. */
  reset(): void {
    this.database.statements?.reset();
  }
}
