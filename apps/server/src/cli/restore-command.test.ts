import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { backupSchema } from '@cloud-classroom/shared/database';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { openDatabase, sqliteFileOf } from '../db/database.js';
import { seedIfEmpty } from '../db/seed/seed.js';
import { call, loginAs, openTestDatabase, testConfig, type TestDatabase } from '../test/test-app.js';
import { RESTORE_USAGE, restoreCommand } from './restore-command.js';
import { MIGRATION_NAMES, migrateToLatest } from '../db/migrate.js';

/** The migration a backup of a database this version made holds last. */
const NEWEST_MIGRATION = MIGRATION_NAMES.at(-1);

const onPostgres = (process.env.TEST_DATABASE_URL ?? '') !== '';

async function run(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await restoreCommand(args, env, { out: (text) => out.push(text), err: (text) => err.push(text) }, () => Date.parse('2026-11-26T12:00:00Z'));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The dictionaries' names in an SQLite database file, read-only. */
function dictNames(file: string): string[] {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select name from sys_dict order by name').all() as { name: string }[]).map((row) => row.name);
  } finally {
    db.close();
  }
}

describe.skipIf(onPostgres)('npm run restore (SQLite)', () => {
  let config: Config;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.dispose();
    database = undefined;
  });

  /** A server on a fresh data folder with one backup made through the API and a dictionary added after it. */
  async function serverWithBackup() {
    config = testConfig();
    database = await openTestDatabase(config);
    const app = await buildApp({ config, database });
    const admin = await loginAs(app, 'admin');
    const made = await call(app, 'POST', '/api/database', admin);
    expect(made.statusCode, made.body).toBe(201);
    const backup = backupSchema.parse(made.json());
    const added = await call(app, 'POST', '/api/dict', admin, { name: 'made_after_the_backup', description: 'x' });
    expect(added.statusCode, added.body).toBe(201);
    return { app, backup, env: { DATA_DIR: config.dataDir, INIT_CWD: config.dataDir } };
  }

  it('answers its usage for anything but one file', async () => {
    expect(await run([], {})).toMatchObject({ code: 2, err: RESTORE_USAGE });
    expect(await run(['a', 'b'], {})).toMatchObject({ code: 2 });
    expect(await run(['--force'], {})).toMatchObject({ code: 2 });
  });

  it('refuses while the server holds the database, changing nothing; once it is stopped, replaces the database and keeps the old one beside it', async () => {
    const { app, backup, env } = await serverWithBackup();
    const live = sqliteFileOf(config.dataDir);
    const refused = await run([backup.name], env);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(`A server holds the database ${live}: stop it first, then run the restore again. Nothing was changed.`);
    expect(dictNames(live)).toContain('made_after_the_backup');
    await app.close();

    const restored = await run([backup.name], env);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    const kept = `${live}.before-restore-${(() => {
      const d = new Date(Date.parse('2026-11-26T12:00:00Z'));
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
    })()}`;
    expect(restored.out).toBe(
      [
        `Restored ${backup.name} (SHA-256 ${backup.sha256}; ${backup.migrations} migrations, the newest ${NEWEST_MIGRATION}) into ${live}.`,
        `The database it replaced is kept as ${kept}.`,
        'Start the server: it applies the migrations the backup lacks.',
      ].join('\n'),
    );
    expect(dictNames(live)).not.toContain('made_after_the_backup');
    expect(dictNames(kept)).toContain('made_after_the_backup');
    expect(fs.statSync(live).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(config.dataDir).filter((name) => name.includes('restoring'))).toEqual([]);

    // A server starts on it, and its people sign in.
    if (database === undefined) throw new Error('no database');
    const reopened = await buildApp({ config, database: await database.openAnother() });
    try {
      await loginAs(reopened, 'admin');
      const dicts = await call(reopened, 'GET', '/api/dict?size=100', await loginAs(reopened, 'admin'));
      expect(JSON.stringify(dicts.json())).not.toContain('made_after_the_backup');
    } finally {
      await reopened.close();
    }
  });

  it('refuses a file that is no database, or holds a migration this version does not know, changing nothing', async () => {
    const { app, backup, env } = await serverWithBackup();
    await app.close();
    const live = sqliteFileOf(config.dataDir);
    const before = fs.readFileSync(live);

    const notes = path.join(config.dataDir, 'notes.txt');
    fs.writeFileSync(notes, 'not a database');
    expect(await run(['notes.txt'], env)).toMatchObject({ code: 1, err: "notes.txt: is neither an SQLite database nor a PostgreSQL dump (pg_dump's custom or plain format)" });

    const newer = path.join(config.dataDir, 'newer.sqlite');
    fs.copyFileSync(path.join(config.dataDir, 'backups', backup.name), newer);
    const edit = new SQLite(newer);
    edit.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('0999-from-the-future', '2030-01-01T00:00:00.000Z');
    edit.close();
    expect(await run([newer], env)).toMatchObject({ code: 1, err: 'newer.sqlite: holds migrations this version does not know (0999-from-the-future): it was made by a newer version' });
    expect(await run(['missing.sqlite'], env)).toMatchObject({ code: 1, err: 'missing.sqlite: no such backup or file' });

    expect(fs.readFileSync(live).equals(before)).toBe(true);
    expect(fs.readdirSync(config.dataDir).filter((name) => name.includes('restor'))).toEqual([]);
  });

  it('takes a copy of a live database file made in WAL mode (its WAL left behind)', async () => {
    const { app, env } = await serverWithBackup();
    await app.close();
    const live = sqliteFileOf(config.dataDir);
    const copy = path.join(config.dataDir, 'copied.sqlite');
    fs.copyFileSync(live, copy);
    expect(fs.readFileSync(copy)[18]).toBe(2);
    const restored = await run(['copied.sqlite'], env);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(dictNames(live)).toContain('made_after_the_backup');
  });
});

describe.runIf(onPostgres)('npm run restore (PostgreSQL)', () => {
  // A database of its own: the restore refuses while any server session is connected to its
  // database, and the other test files' servers are connected to the suite's.
  const suiteUrl = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://localhost/unused');
  const name = `restore_${crypto.randomBytes(5).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(suiteUrl), { pathname: `/${name}` }).toString();
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: suiteUrl.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
  });
  // Dropping a database makes PostgreSQL checkpoint, writing out every dirty buffer of the whole
  // server: with the rest of the suite writing beside it, that has taken more than the default 30 s.
  afterAll(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }, 180_000);

  const dictsIn = async (schema: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query<{ name: string }>(`select name from ${schema}.sys_dict`)).rows.map((row) => row.name);
    } finally {
      await client.end();
    }
  };

  it('refuses while a server is connected; once it is stopped, restores the pg_dump backup and keeps the schema it replaced', async () => {
    const config = testConfig({ databaseUrl });
    const database = await openDatabase(config);
    await migrateToLatest(database);
    await seedIfEmpty(database.db, config.adminPassword);
    const app = await buildApp({ config, database });
    const token = await loginAs(app, 'admin');
    const made = await call(app, 'POST', '/api/database', token);
    expect(made.statusCode, made.body).toBe(201);
    const backup = backupSchema.parse(made.json());
    expect(backup.name).toMatch(/\.dump$/);
    expect((await call(app, 'POST', '/api/dict', token, { name: 'made_after_the_backup', description: 'x' })).statusCode).toBe(201);
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: config.dataDir, INIT_CWD: config.dataDir };

    const refused = await run([backup.name], env);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^A server is connected to the database \(\d+ sessions named cloud-classroom in pg_stat_activity\): stop it first/);
    expect(await dictsIn('public')).toContain('made_after_the_backup');
    await app.close();

    const restored = await run([backup.name], env);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.out).toContain(`into the schema public.`);
    const kept = /kept as (public_before_restore_\w+)/.exec(restored.out)?.[1];
    expect(kept).toBeDefined();
    expect(await dictsIn('public')).not.toContain('made_after_the_backup');
    expect(await dictsIn(kept!)).toContain('made_after_the_backup');

    // A server starts on it, and its people sign in.
    const reopened = await buildApp({ config, database: await openDatabase(config) });
    try {
      const dicts = await call(reopened, 'GET', '/api/dict?size=100', await loginAs(reopened, 'admin'));
      expect(dicts.statusCode).toBe(200);
      expect(JSON.stringify(dicts.json())).not.toContain('made_after_the_backup');
    } finally {
      await reopened.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});
