import { z } from 'zod';
import { pageQuerySchema, REQUIRED, sortableBy } from './http.js';

// Database backups (issue 16): made by the server (now, or on the schedule), or uploaded to be
// restored by the offline `npm run restore` command. The wire never says where a file lies.

/** How a backup came to be. */
export const BACKUP_KINDS = ['manual', 'scheduled', 'uploaded'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

/** What a backup file holds: an SQLite database file, or a pg_dump archive (custom) or script (plain). */
export const BACKUP_FORMATS = ['sqlite', 'pg-custom', 'pg-plain'] as const;
export type BackupFormat = (typeof BACKUP_FORMATS)[number];

/** The largest backup file an upload takes. */
export const BACKUP_UPLOAD_MAX_BYTES = 2 * 1024 * 1024 * 1024;

/** A backup's name: what it is stored, listed, downloaded and restored by. */
export const BACKUP_NAME_PATTERN = /^cc-\d{8}-\d{6}-\d{3}-(manual|scheduled|uploaded)\.(sqlite|dump|sql)$/;
export const backupNameSchema = z.string(REQUIRED).regex(BACKUP_NAME_PATTERN, 'is not the name of a backup');

export const backupSchema = z.object({
  name: z.string(),
  kind: z.enum(BACKUP_KINDS),
  format: z.enum(BACKUP_FORMATS),
  /** Bytes. */
  size: z.number().int().nonnegative(),
  /** Hex SHA-256 of the file as kept. */
  sha256: z.string(),
  /** The newest migration the backup holds (its version), when it could be read. */
  migration: z.string().nullable(),
  /** How many migrations the backup holds; null when they could not be read (see `note`). */
  migrations: z.number().int().nullable(),
  /** What could not be checked, for an uploaded file (a plain pg_dump script written with INSERTs). */
  note: z.string().nullable(),
  createBy: z.string().nullable(),
  createTime: z.string(),
});
export type Backup = z.infer<typeof backupSchema>;

export const BACKUP_SORT_FIELDS = ['name', 'kind', 'size', 'createTime'] as const;

/** `GET api/database`: the backups, newest first unless sorted otherwise; `kind` filters. */
export const backupQuerySchema = pageQuerySchema.extend({
  kind: z.enum(BACKUP_KINDS).optional(),
  sort: sortableBy(BACKUP_SORT_FIELDS),
});
export type BackupQuery = z.output<typeof backupQuerySchema>;

/** `DELETE api/database`: the names of the backups to delete. */
export const backupNamesSchema = z.array(backupNameSchema, REQUIRED).min(1, 'name at least one backup').max(1000);

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Backups made by the server on its own: daily at `time` (the organisation's zone), keeping the newest `keep` of them. */
export const backupScheduleSchema = z.object({
  enabled: z.boolean(REQUIRED),
  time: z.string(REQUIRED).regex(TIME_OF_DAY, "expected a time of day 'HH:mm'"),
  keep: z.number(REQUIRED).int('must be a whole number').min(1, 'must be at least 1').max(365, 'must be at most 365'),
});
export type BackupSchedule = z.infer<typeof backupScheduleSchema>;

export const DEFAULT_BACKUP_SCHEDULE: BackupSchedule = { enabled: false, time: '03:00', keep: 7 };

/** `GET api/database/status`: what this server can back up with, and its schedule. */
export const databaseStatusSchema = z.object({
  dialect: z.enum(['sqlite', 'postgres']),
  /** Whether backups can be made here; when not, `problem` says why (pg_dump missing). */
  canBackUp: z.boolean(),
  /** The tool backups are made with: SQLite's own, or pg_dump with its version. */
  tool: z.string(),
  problem: z.string().nullable(),
  schedule: backupScheduleSchema,
  /** The next scheduled backup, `yyyy-MM-dd HH:mm` in the organisation's zone (`timeZone`); null when the schedule is off. */
  nextRun: z.string().nullable(),
  timeZone: z.string(),
});
export type DatabaseStatus = z.infer<typeof databaseStatusSchema>;
