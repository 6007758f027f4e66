import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { addDays, dayInZone, formatInZone, startOfDay } from '@cloud-classroom/shared/calendar-day';
import {
  backupScheduleSchema,
  DEFAULT_BACKUP_SCHEDULE,
  type Backup,
  type BackupKind,
  type BackupQuery,
  type BackupSchedule,
  type DatabaseStatus,
} from '@cloud-classroom/shared/database';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Page } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { AppDatabase } from '../../db/database.js';
import { MIGRATION_NAMES } from '../../db/migrate.js';
import type { Database } from '../../db/schema.js';
import { DISK_FULL } from '../../disk-full.js';
import { conflict, diskFull, notFound } from '../../domain-error.js';
import { LocalFileStore } from '../../files/local-file-store.js';
import type { Upload } from '../../files/upload.js';
import type { JobRunner } from '../../jobs/job-runner.js';
import type { ServiceLog } from '../../service-log.js';
import { checkBackupFile, leaveWalMode, type CheckedBackup } from './backup-check.js';
import { BackupFolder, type BackupFacts } from './backup-folder.js';
import { firstLines, pgEnvOf, runTool, snapshotSqlite, syncFile, toolVersion, ToolError } from './backup-tools.js';
import { appliedMigrations, readScheduleSetting, writeScheduleSetting } from './database.repo.js';

export const SCHEDULED_BACKUP_JOB = 'database.scheduledBackup';
type ScheduledBackupPayload = { at: number };

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** The first instant after `after` at the schedule's time of day in `timeZone`. */
export function nextRunAt(time: string, after: number, timeZone: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  let day = dayInZone(after, timeZone);
  for (;;) {
    const at = startOfDay(day, timeZone) + (hours * 60 + minutes) * MINUTE_MS;
    if (at > after) return at;
    day = addDays(day, 1);
  }
}

const PG_DUMP_MISSING =
  'pg_dump is not installed on this server (not on its PATH): backups of a PostgreSQL database are made with it. Install the PostgreSQL client tools of the server’s major version or newer (Debian: apt install postgresql-client).';

// strerror's words for ENOSPC and EDQUOT, as pg_dump reports a write it could not make.
const NO_ROOM = /No space left on device|Disk quota exceeded/;

type PgTools = { dump: string | undefined; restore: boolean };

export type DatabaseServiceOptions = {
  db: Kysely<Database>;
  database: AppDatabase;
  dataDir: string;
  clock: Clock;
  jobs: JobRunner;
  timeZone: string;
  log: ServiceLog;
};

/**
 * Backups of the running database (issue 16): made now or on the schedule (SQLite by VACUUM
 * INTO on a snapshot, PostgreSQL by pg_dump), uploaded files checked and kept for the offline
 * `npm run restore`. No request ever writes the live database from a backup.
 */
export class DatabaseService {
  readonly folder: BackupFolder;
  /** The backups' folder as a file store, to serve a download with ranges. */
  readonly files: LocalFileStore;
  private pgTools: Promise<PgTools> | undefined;

  constructor(private readonly options: DatabaseServiceOptions) {
    this.folder = new BackupFolder(options.dataDir, options.timeZone);
    this.files = new LocalFileStore(this.folder.root);
  }

  registerJobs(): void {
    this.options.jobs.register<ScheduledBackupPayload>(SCHEDULED_BACKUP_JOB, (payload) => this.scheduledBackup(payload));
  }

  private get dialect(): 'sqlite' | 'postgres' {
    return this.options.database.dialect;
  }

  /** Which PostgreSQL tools are on the PATH, asked once per process (a restart sees one installed since). */
  private tools(): Promise<PgTools> {
    this.pgTools ??= (async () => {
      const [dump, restore] = await Promise.all([toolVersion('pg_dump'), toolVersion('pg_restore')]);
      return { dump, restore: restore !== undefined };
    })();
    return this.pgTools;
  }

  async status(): Promise<DatabaseStatus> {
    const schedule = await this.schedule();
    const { timeZone } = this.options;
    const nextRun = schedule.enabled ? formatInZone(nextRunAt(schedule.time, this.options.clock.now(), timeZone), timeZone) : null;
    if (this.dialect === 'sqlite') return { dialect: 'sqlite', canBackUp: true, tool: 'SQLite VACUUM INTO', problem: null, schedule, nextRun, timeZone };
    const { dump } = await this.tools();
    return { dialect: 'postgres', canBackUp: dump !== undefined, tool: dump ?? 'pg_dump', problem: dump === undefined ? PG_DUMP_MISSING : null, schedule, nextRun, timeZone };
  }

  async page(query: BackupQuery): Promise<Page<Backup>> {
    let backups = await this.folder.list();
    if (query.kind !== undefined) backups = backups.filter((backup) => backup.kind === query.kind);
    for (const { field, direction } of [...query.sort].reverse()) {
      const sign = direction === 'asc' ? 1 : -1;
      const value = (backup: BackupFacts) => (field === 'createTime' ? backup.createTime : backup[field]);
      backups.sort((a, b) => {
        const [x, y] = [value(a), value(b)];
        return x < y ? -sign : x > y ? sign : 0;
      });
    }
    const start = query.page * query.size;
    return { content: backups.slice(start, start + query.size).map(toWire), totalElements: backups.length };
  }

  /** A kept backup's facts, for its download; 404 for any other name. */
  async backup(name: string): Promise<Backup> {
    const found = await this.folder.find(name);
    if (found === undefined) throw notFound(`backup ${name} does not exist`);
    return toWire(found);
  }

  /** Makes a backup of the running database now. */
  async backUp(kind: Exclude<BackupKind, 'uploaded'>, by: string | null, scheduledFor?: number): Promise<Backup> {
    const now = this.options.clock.now();
    const partial = await this.folder.partial();
    try {
      const checked = this.dialect === 'sqlite' ? await this.snapshotSqlite(partial) : await this.dumpPostgres(partial);
      const facts = await this.folder.keep(partial, {
        kind,
        format: checked.format,
        migrations: checked.migrations,
        note: checked.note,
        createBy: by,
        createTime: now,
        ...(scheduledFor === undefined ? {} : { scheduledFor }),
      });
      return toWire(facts);
    } catch (error) {
      await this.folder.drop(partial);
      throw error;
    }
  }

  private async snapshotSqlite(partial: string): Promise<CheckedBackup> {
    await snapshotSqlite(this.options.database.location, partial);
    // The copy is checked as an upload would be: what is kept opens and is restorable.
    return checkBackupFile(partial, { dialect: 'sqlite', known: MIGRATION_NAMES, field: 'backup', pgRestore: false });
  }

  private async dumpPostgres(partial: string): Promise<CheckedBackup> {
    const { connectionUrl, schema } = this.options.database;
    const tools = await this.tools();
    if (tools.dump === undefined) throw conflict(PG_DUMP_MISSING);
    if (connectionUrl === undefined) throw conflict('the PostgreSQL connection is not known to the backup');
    const args = ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, ...(schema === undefined ? [] : [`--schema=${schema}`])];
    // Its messages in English, the API's language, where a full disk can be told by its words
    // (LC_ALL would override LC_MESSAGES).
    const env: NodeJS.ProcessEnv = { ...pgEnvOf(connectionUrl), LC_MESSAGES: 'C' };
    delete env.LC_ALL;
    try {
      await runTool('pg_dump', args, { env });
    } catch (error) {
      if (error instanceof ToolError && NO_ROOM.test(error.stderr)) throw diskFull(DISK_FULL);
      // Its own words (a server newer than pg_dump, a refused login); never the URL.
      if (error instanceof ToolError) throw conflict(`pg_dump failed: ${firstLines(error.stderr)}`);
      throw error;
    }
    await syncFile(partial);
    if (tools.restore) return checkBackupFile(partial, { dialect: 'postgres', known: MIGRATION_NAMES, field: 'backup', pgRestore: true });
    return { format: 'pg-custom', migrations: await appliedMigrations(this.options.db), note: null };
  }

  /**
   * Keeps an uploaded backup once it is checked (see checkBackupFile); a refused file leaves
   * nothing behind.
   */
  async upload(upload: Upload, by: string | null): Promise<Backup> {
    const now = this.options.clock.now();
    const partial = await this.folder.partial();
    try {
      await pipeline(upload.content, fs.createWriteStream(partial, { flags: 'wx', mode: 0o600, flush: true }));
      const tools = this.dialect === 'postgres' ? await this.tools() : { restore: false };
      const options = { dialect: this.dialect, known: MIGRATION_NAMES, field: upload.field, pgRestore: tools.restore };
      if ((await fs.promises.stat(partial)).size > 0 && this.dialect === 'sqlite') await leaveWalModeIfSqlite(partial);
      const checked = await checkBackupFile(partial, options);
      const facts = await this.folder.keep(partial, { kind: 'uploaded', format: checked.format, migrations: checked.migrations, note: checked.note, createBy: by, createTime: now });
      return toWire(facts);
    } catch (error) {
      await this.folder.drop(partial);
      throw error;
    }
  }

  async delete(names: readonly string[]): Promise<void> {
    const kept = new Set((await this.folder.list()).map((backup) => backup.name));
    const missing = names.find((name) => !kept.has(name));
    if (missing !== undefined) throw notFound(`backup ${missing} does not exist`);
    await this.folder.remove(names);
  }

  async schedule(): Promise<BackupSchedule> {
    const saved = await readScheduleSetting(this.options.db);
    if (saved === undefined) return DEFAULT_BACKUP_SCHEDULE;
    const parsed = backupScheduleSchema.safeParse(JSON.parse(saved));
    return parsed.success ? parsed.data : DEFAULT_BACKUP_SCHEDULE;
  }

  /** Saves the schedule and queues its next run (a run queued for another time finds it changed and does nothing). */
  async setSchedule(schedule: BackupSchedule): Promise<void> {
    const now = this.options.clock.now();
    await writeScheduleSetting(this.options.db, JSON.stringify(schedule), now);
    if (schedule.enabled) await this.queueRun(nextRunAt(schedule.time, now, this.options.timeZone));
  }

  private async queueRun(at: number): Promise<void> {
    await this.options.jobs.enqueue(SCHEDULED_BACKUP_JOB, { at } satisfies ScheduledBackupPayload, { runAt: at, dedupeKey: `${SCHEDULED_BACKUP_JOB}:${at}`, maxAttempts: 3 });
  }

  /**
   * A scheduled run: does nothing when the schedule was turned off or moved since it was queued;
   * else queues the next run first (a failing backup does not end the schedule), makes the
   * backup unless this run made one already, and keeps only the newest `keep` scheduled ones.
   */
  async scheduledBackup({ at }: ScheduledBackupPayload): Promise<void> {
    const schedule = await this.schedule();
    const { timeZone, clock } = this.options;
    if (!schedule.enabled || nextRunAt(schedule.time, at - 1, timeZone) !== at) return;
    await this.queueRun(nextRunAt(schedule.time, Math.max(at, clock.now()), timeZone));
    const backups = await this.folder.list();
    if (!backups.some((backup) => backup.scheduledFor === at)) {
      if (this.dialect === 'postgres' && (await this.tools()).dump === undefined) {
        this.options.log.warn({ at }, `scheduled backup skipped: ${PG_DUMP_MISSING}`);
        return;
      }
      await this.backUp('scheduled', 'system', at);
    }
    const scheduled = (await this.folder.list()).filter((backup) => backup.kind === 'scheduled');
    await this.folder.remove(scheduled.slice(schedule.keep).map((backup) => backup.name));
  }

  /** Removes backups a crash cut short (at start). */
  async removeUnfinished(): Promise<void> {
    await this.folder.removeUnfinished(this.options.clock.now() - DAY_MS);
  }
}

async function leaveWalModeIfSqlite(file: string): Promise<void> {
  const head = Buffer.alloc(16);
  const handle = await fs.promises.open(file, 'r');
  try {
    await handle.read(head, 0, 16, 0);
  } finally {
    await handle.close();
  }
  if (head.toString('latin1') === 'SQLite format 3\0') await leaveWalMode(file);
}

/** `yyyy-MM-dd HH:mm` on the wall clock of `timeZone`, where the schedule's time of day is read. */
function toWire(facts: BackupFacts): Backup {
  return {
    name: facts.name,
    kind: facts.kind,
    format: facts.format,
    size: facts.size,
    sha256: facts.sha256,
    migration: facts.migrations.at(-1) ?? null,
    migrations: facts.migrations.length,
    note: facts.note,
    createBy: facts.createBy,
    createTime: formatDateTime(facts.createTime),
  };
}
