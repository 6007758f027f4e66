import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import SQLite from 'better-sqlite3';
import { BACKUP_NAME_PATTERN } from '@cloud-classroom/shared/database';
import { loadConfig, type Config } from '../config.js';
import { SERVER_APPLICATION_NAME, sqliteFileOf } from '../db/database.js';
import { MIGRATION_NAMES } from '../db/migrate.js';
import { DomainError } from '../domain-error.js';
import { checkBackupFile, leaveWalMode, type CheckedBackup } from '../modules/database/backup-check.js';
import { BackupFolder, sha256Of } from '../modules/database/backup-folder.js';
import { durableRename, firstLines, pgEnvOf, runTool, syncFile, toolVersion, ToolError } from '../modules/database/backup-tools.js';
import type { ConsoleOutput } from './console-command.js';

export const RESTORE_USAGE = [
  'Usage: npm run restore -- FILE',
  '',
  'Replaces the database with the backup FILE: the name of a backup in DATA_DIR/backups (as the',
  'back office lists it) or the path of a file. Stop the server first: the command refuses while',
  'a server holds the database. The file is checked as an upload is (a database of the server\'s',
  'kind, every migration known to this version); the next start applies the migrations it lacks.',
  '',
  'SQLite (DATA_DIR): the database file is replaced; the one it replaces is kept beside it as',
  'cloud-classroom.sqlite.before-restore-<time>.',
  'PostgreSQL (DATABASE_URL): the schema holding the tables is renamed to <schema>_before_restore_<time>',
  'and the backup restored into a new one, by pg_restore (a pg_dump archive) or psql (a plain',
  'script), in one transaction; if that fails, the old schema is put back.',
].join('\n');

const pad = (value: number) => String(value).padStart(2, '0');
const stampOf = (time: number) => {
  const d = new Date(time);
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
};

/** Stops the command with a message on stderr and exit code 1. */
class Refusal extends Error {}

/** `npm run restore -- FILE`: answers the process's exit code. */
export async function restoreCommand(args: readonly string[], env: NodeJS.ProcessEnv, output: ConsoleOutput, now: () => number = Date.now): Promise<number> {
  const [given] = args;
  if (args.length !== 1 || given === undefined || given.startsWith('-')) {
    output.err(RESTORE_USAGE);
    return 2;
  }
  const config = loadConfig(env);
  try {
    const file = backupFileOf(given, config, env.INIT_CWD ?? process.cwd());
    const label = path.basename(file);
    if (config.databaseUrl === undefined) await restoreSqlite(file, label, config, output, now);
    else await restorePostgres(file, label, config.databaseUrl, output, now);
    return 0;
  } catch (error) {
    if (error instanceof Refusal || error instanceof DomainError) {
      output.err(error.message);
      return 1;
    }
    throw error;
  }
}

/** A backup's name in the backups' folder, or a path (relative to where the command was run). */
function backupFileOf(given: string, config: Config, cwd: string): string {
  if (BACKUP_NAME_PATTERN.test(given)) {
    const kept = new BackupFolder(config.dataDir, config.timeZone).pathOf(given);
    if (kept !== undefined && fs.existsSync(kept)) return kept;
  }
  const file = path.resolve(cwd, given);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new Refusal(`${given}: no such backup or file`);
  return file;
}

function describe(label: string, checked: CheckedBackup, sha256: string): string {
  return `${label} (SHA-256 ${sha256}; ${checked.migrations.length} migrations, the newest ${checked.migrations.at(-1) ?? '-'})`;
}

async function restoreSqlite(file: string, label: string, config: Config, output: ConsoleOutput, now: () => number): Promise<void> {
  const live = sqliteFileOf(config.dataDir);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // The backup is copied next to the database first, so the switch is a rename on one disk.
  const copy = `${live}.restoring-${process.pid}`;
  fs.rmSync(copy, { force: true });
  await fs.promises.copyFile(file, copy, fs.constants.COPYFILE_EXCL);
  try {
    await leaveWalMode(copy);
    const checked = await checkBackupFile(copy, { dialect: 'sqlite', known: MIGRATION_NAMES, field: label, pgRestore: false });
    await fs.promises.chmod(copy, 0o600);
    await syncFile(copy);
    const sha256 = await sha256Of(copy);
    const kept = fs.existsSync(live) ? `${live}.before-restore-${stampOf(now())}` : undefined;
    const current = kept === undefined ? undefined : holdAlone(live);
    try {
      if (kept !== undefined) {
        await fs.promises.rename(live, kept);
        for (const leftover of [`${live}-wal`, `${live}-shm`, `${live}-journal`]) fs.rmSync(leftover, { force: true });
      }
      await durableRename(copy, live);
    } finally {
      current?.close();
    }
    output.out(`Restored ${describe(label, checked, sha256)} into ${live}.`);
    if (kept !== undefined) output.out(`The database it replaced is kept as ${kept}.`);
    output.out('Start the server: it applies the migrations the backup lacks.');
  } finally {
    fs.rmSync(copy, { force: true });
  }
}

/**
 * Opens the live database alone: a server holding it in WAL mode keeps a shared lock on it for as
 * long as it runs, so an exclusive lock is refused then. Once held, the WAL is folded into the
 * file (rollback-journal mode), which then stands alone wherever it is moved; the lock is held
 * until closed, so no server starts on it meanwhile.
 */
function holdAlone(live: string): SQLite.Database {
  const db = new SQLite(live, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    db.pragma('journal_mode = DELETE');
    // A write makes the exclusive lock stay until close.
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new Refusal(`A server holds the database ${live}: stop it first, then run the restore again. Nothing was changed.`);
    throw error;
  }
}

/** Where the backup's tables live, and whether it makes that schema itself. */
async function pgSchemaOf(file: string, checked: CheckedBackup): Promise<{ schema: string; createsSchema: boolean }> {
  if (checked.format === 'pg-custom') {
    const listing = (await runTool('pg_restore', ['--list', file])).stdout.toString('utf8');
    const schema = / TABLE DATA (\S+) kysely_migration /.exec(listing)?.[1] ?? 'public';
    return { schema, createsSchema: new RegExp(`^\\d+; \\d+ \\d+ SCHEMA - ${schema} `, 'm').test(listing) };
  }
  let schema = 'public';
  const lines = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const schemas = new Set<string>();
  for await (const line of lines) {
    const created = /^CREATE SCHEMA "?([\w$]+)"?;$/.exec(line);
    if (created?.[1] !== undefined) schemas.add(created[1]);
    const copy = /^(?:COPY|INSERT INTO) "?([\w$]+)"?\."?kysely_migration"? /.exec(line);
    if (copy?.[1] !== undefined) {
      schema = copy[1];
      break;
    }
  }
  lines.close();
  return { schema, createsSchema: schemas.has(schema) };
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function restorePostgres(file: string, label: string, databaseUrl: string, output: ConsoleOutput, now: () => number): Promise<void> {
  const [pgRestore, psql] = await Promise.all([toolVersion('pg_restore'), toolVersion('psql')]);
  const checked = await checkBackupFile(file, { dialect: 'postgres', known: MIGRATION_NAMES, field: label, pgRestore: pgRestore !== undefined });
  if (checked.format === 'pg-plain' && psql === undefined) throw new Refusal(`${label}: a plain pg_dump script is restored with psql, which is not installed here.`);
  const sha256 = await sha256Of(file);
  const { schema, createsSchema } = await pgSchemaOf(file, checked);
  const env = pgEnvOf(databaseUrl);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl, application_name: `${SERVER_APPLICATION_NAME}-restore` });
  await client.connect();
  try {
    const servers = await client.query<{ n: string }>(
      'select count(*) as n from pg_stat_activity where datname = current_database() and application_name = $1 and pid <> pg_backend_pid()',
      [SERVER_APPLICATION_NAME],
    );
    if (Number(servers.rows[0]?.n ?? 0) > 0) {
      throw new Refusal(`A server is connected to the database (${servers.rows[0]?.n} sessions named ${SERVER_APPLICATION_NAME} in pg_stat_activity): stop it first, then run the restore again. Nothing was changed.`);
    }
    const kept = `${schema}_before_restore_${stampOf(now()).replace('-', '_')}`;
    const exists = (await client.query('select 1 from pg_namespace where nspname = $1', [schema])).rowCount === 1;
    if (exists) await client.query(`alter schema ${quoted(schema)} rename to ${quoted(kept)}`);
    try {
      if (!createsSchema) await client.query(`create schema ${quoted(schema)}`);
      const database = env.PGDATABASE ?? env.PGUSER ?? 'postgres';
      if (checked.format === 'pg-custom') {
        await runTool('pg_restore', ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${database}`, file], { env });
      } else {
        await runTool('psql', ['--no-psqlrc', '--quiet', '--single-transaction', '--set=ON_ERROR_STOP=1', `--dbname=${database}`, `--file=${file}`], { env });
      }
    } catch (error) {
      await client.query(`drop schema if exists ${quoted(schema)} cascade`);
      if (exists) await client.query(`alter schema ${quoted(kept)} rename to ${quoted(schema)}`);
      if (error instanceof ToolError) throw new Refusal(`${error.command} failed, the database is as it was: ${firstLines(error.stderr, 3)}`);
      throw error;
    }
    output.out(`Restored ${describe(label, checked, sha256)} into the schema ${schema}.`);
    if (exists) output.out(`The schema it replaced is kept as ${kept} (drop it once the restore is confirmed: drop schema ${kept} cascade).`);
    output.out('Start the server: it applies the migrations the backup lacks.');
  } finally {
    await client.end();
  }
}

