import fs from 'node:fs';
import readline from 'node:readline';
import SQLite from 'better-sqlite3';
import type { BackupFormat } from '@cloud-classroom/shared/database';
import { invalidInput } from '../../domain-error.js';
import { firstLines, runTool, ToolError } from './backup-tools.js';

// Whether a backup file can be restored here: a database of this server's kind whose migrations
// this version all knows (it may lack later ones: the next start applies them). The same check
// for an upload and for `npm run restore`. Nothing in the file is run: an SQLite file is opened
// read-only with its schema distrusted and only its migrations table read; a pg_dump archive is
// only listed and printed by pg_restore, a plain script only read as text.

export type CheckedBackup = {
  format: BackupFormat;
  /** The migrations it holds, oldest first. */
  migrations: string[];
  /** What could not be checked. */
  note: string | null;
};

export type CheckOptions = {
  /** The running server's kind of database. */
  dialect: 'sqlite' | 'postgres';
  /** The migrations this version knows. */
  known: readonly string[];
  /** The name every refusal starts with (`file: …`). */
  field: string;
  /** Whether pg_restore is on the PATH. */
  pgRestore: boolean;
};

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const PG_CUSTOM_MAGIC = Buffer.from('PGDMP', 'latin1');
const HEAD_BYTES = 4096;

async function headOf(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** What kind of file it is by its first bytes, or undefined for neither. */
export function backupFormatOf(head: Buffer): BackupFormat | undefined {
  if (head.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) return 'sqlite';
  if (head.subarray(0, PG_CUSTOM_MAGIC.length).equals(PG_CUSTOM_MAGIC)) return 'pg-custom';
  const text = head.toString('utf8');
  if (text.startsWith('--') && /^-- PostgreSQL database dump\s*$/m.test(text)) return 'pg-plain';
  return undefined;
}

/**
 * An SQLite file written in WAL mode (a copy of a live database file) names its WAL in its
 * header and opens read-only only beside one; without its WAL the file is whole as of its last
 * checkpoint, so it is marked as a rollback-journal database, as `journal_mode=DELETE` would.
 */
export async function leaveWalMode(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r+');
  try {
    const versions = Buffer.alloc(2);
    await handle.read(versions, 0, 2, 18);
    if (versions[0] === 2 || versions[1] === 2) {
      await handle.write(Buffer.from([1, 1]), 0, 2, 18);
      await handle.sync();
    }
  } finally {
    await handle.close();
  }
}

export async function checkBackupFile(file: string, options: CheckOptions): Promise<CheckedBackup> {
  const { field } = options;
  const head = await headOf(file);
  if (head.length === 0) throw invalidInput(`${field}: is empty`);
  const format = backupFormatOf(head);
  if (format === undefined) throw invalidInput(`${field}: is neither an SQLite database nor a PostgreSQL dump (pg_dump's custom or plain format)`);
  if (format === 'sqlite' && options.dialect !== 'sqlite') throw invalidInput(`${field}: is an SQLite database, but this server runs on PostgreSQL`);
  if (format !== 'sqlite' && options.dialect !== 'postgres') throw invalidInput(`${field}: is a PostgreSQL dump, but this server runs on SQLite`);
  const { migrations, note } = format === 'sqlite' ? sqliteMigrations(file, field) : format === 'pg-custom' ? await archiveMigrations(file, options) : await scriptMigrations(file, field);
  if (migrations.length === 0) throw invalidInput(`${field}: holds no migrations: it is not a Cloud Classroom database`);
  const known = new Set(options.known);
  const unknown = migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw invalidInput(`${field}: holds migrations this version does not know (${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', …' : ''}): it was made by a newer version`);
  }
  return { format, migrations: [...migrations].sort(), note };
}

function sqliteMigrations(file: string, field: string): { migrations: string[]; note: null } {
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw invalidInput(`${field}: SQLite cannot open it (${error instanceof Error ? error.message : String(error)})`);
  }
  try {
    // Views and triggers in a file from elsewhere may call no function with side effects.
    db.pragma('trusted_schema = OFF');
    let problem: string | undefined;
    try {
      const results = db.pragma('quick_check(1)', { simple: false }) as { quick_check: string }[];
      const first = results[0]?.quick_check;
      if (first !== 'ok') problem = first ?? 'no answer';
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    if (problem !== undefined) throw invalidInput(`${field}: is a damaged SQLite database (${problem})`);
    const table = db.prepare("select type from sqlite_master where name = 'kysely_migration'").get() as { type: string } | undefined;
    if (table?.type !== 'table') throw invalidInput(`${field}: is an SQLite database without a migrations table: it is not a Cloud Classroom database`);
    const rows = db.prepare('select name from kysely_migration').all() as { name: unknown }[];
    return { migrations: rows.map((row) => String(row.name)), note: null };
  } finally {
    db.close();
  }
}

async function archiveMigrations(file: string, { field, pgRestore }: CheckOptions): Promise<{ migrations: string[]; note: null }> {
  if (!pgRestore) throw invalidInput(`${field}: a pg_dump archive is checked with pg_restore, which is not installed on this server`);
  let listing: string;
  try {
    listing = (await runTool('pg_restore', ['--list', file])).stdout.toString('utf8');
  } catch (error) {
    if (error instanceof ToolError) throw invalidInput(`${field}: pg_restore cannot read it (${firstLines(error.stderr, 1)})`);
    throw error;
  }
  if (!/ TABLE DATA \S+ kysely_migration /.test(listing)) throw invalidInput(`${field}: is a pg_dump archive without a migrations table: it is not a Cloud Classroom database`);
  // Printed as SQL text to stdout, never sent to a database.
  const { stdout } = await runTool('pg_restore', ['--data-only', '--table=kysely_migration', '--file=-', file]);
  return { migrations: copiedNames(stdout.toString('utf8').split('\n')), note: null };
}

const COPY_LINE = /^COPY (?:"?[\w$]+"?\.)?"?kysely_migration"? \(([^)]*)\) FROM stdin;$/;
const INSERT_LINE = /^INSERT INTO (?:"?[\w$]+"?\.)?"?kysely_migration"?(?: \([^)]*\))? VALUES \('((?:[^']|'')*)'/;

/** The first column (name) of a COPY block of kysely_migration, in pg_dump's text. */
function copiedNames(lines: Iterable<string>): string[] {
  const names: string[] = [];
  let copying = false;
  for (const line of lines) {
    if (!copying) {
      copying = COPY_LINE.test(line);
      continue;
    }
    if (line === '\\.') break;
    names.push(line.split('\t')[0] ?? '');
  }
  return names;
}

async function scriptMigrations(file: string, field: string): Promise<{ migrations: string[]; note: string | null }> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const names: string[] = [];
  let found: 'copy' | 'insert' | undefined;
  let copying = false;
  try {
    for await (const line of lines) {
      if (copying) {
        if (line === '\\.') break;
        names.push(line.split('\t')[0] ?? '');
        continue;
      }
      if (COPY_LINE.test(line)) {
        found = 'copy';
        copying = true;
        continue;
      }
      const insert = INSERT_LINE.exec(line);
      if (insert !== null) {
        found = 'insert';
        names.push((insert[1] ?? '').replace(/''/g, "'"));
      }
    }
  } finally {
    lines.close();
  }
  if (found === undefined) throw invalidInput(`${field}: is a PostgreSQL script without a migrations table: it is not a Cloud Classroom database`);
  return {
    migrations: names,
    note: 'A plain pg_dump script: only its text was read (its header and the migrations table); psql runs it at restore.',
  };
}
