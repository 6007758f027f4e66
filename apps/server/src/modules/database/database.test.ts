import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import SQLite from 'better-sqlite3';
import { backupSchema, databaseStatusSchema, type Backup } from '@cloud-classroom/shared/database';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettableClock } from '../../clock.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';
import { nextRunAt } from './database.service.js';
import { MIGRATION_NAMES } from '../../db/migrate.js';

/** The migration a backup of a database this version made holds last. */
const NEWEST_MIGRATION = MIGRATION_NAMES.at(-1);

const onPostgres = (process.env.TEST_DATABASE_URL ?? '') !== '';
const hasPgDump = (() => {
  try {
    execFileSync('pg_dump', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
/** Backups of PostgreSQL need pg_dump; without it only the API's refusal can be tested. */
const canBackUp = !onPostgres || hasPgDump;

async function multipart(fileName: string, content: Buffer | string, field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([content]), fileName);
  const encoded = new Response(form);
  return { headers: { 'content-type': encoded.headers.get('content-type') ?? '' }, payload: Buffer.from(await encoded.arrayBuffer()) };
}

async function upload(app: FastifyInstance, token: string | undefined, fileName: string, content: Buffer | string, field = 'file') {
  const { headers, payload } = await multipart(fileName, content, field);
  return app.inject({ method: 'POST', url: '/api/database/upload', headers: { ...headers, ...(token === undefined ? {} : { authorization: token }) }, payload });
}

const backupsFolder = (app: FastifyInstance) => path.join(app.services.config.dataDir, 'backups');
/** Every file in the backups' folder, dot-files (writes in progress) included. */
const folderEntries = (app: FastifyInstance) => (fs.existsSync(backupsFolder(app)) ? fs.readdirSync(backupsFolder(app)).sort() : []);

async function download(app: FastifyInstance, token: string, name: string): Promise<Buffer> {
  const response = await call(app, 'GET', `/api/database/files/${name}`, token);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
  return response.rawPayload;
}

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/** The rows of one table's data in a pg_dump archive, printed by pg_restore (never run). */
function archiveRows(file: string, table: string): string[] {
  const text = execFileSync('pg_restore', ['--data-only', `--table=${table}`, '--file=-', file], { encoding: 'utf8' });
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('COPY '));
  const end = lines.indexOf('\\.', start);
  return start < 0 ? [] : lines.slice(start + 1, end);
}

/** The value column of app_setting rows whose key starts with `prefix`, as the backup holds them. */
function settingKeysIn(file: string, prefix: string): string[] {
  if (onPostgres) return archiveRows(file, 'app_setting').map((line) => line.split('\t')[0] ?? '').filter((key) => key.startsWith(prefix));
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    return (db.prepare('select key from app_setting where key like ?').all(`${prefix}%`) as { key: string }[]).map((row) => row.key);
  } finally {
    db.close();
  }
}

describe('database backups: access', () => {
  itRefusesOutsiders([
    ['GET', '/api/database/status'],
    ['GET', '/api/database'],
    ['POST', '/api/database'],
    ['GET', '/api/database/files/cc-20260101-000000-000-manual.sqlite'],
    ['PUT', '/api/database/schedule', { enabled: true, time: '03:00', keep: 3 }],
    ['DELETE', '/api/database', ['cc-20260101-000000-000-manual.sqlite']],
  ]);

  it('POST /api/database/upload answers 401 without a session and 403 to a learner, keeping nothing', async () => {
    const app = await buildTestApp();
    try {
      expect((await upload(app, undefined, 'x.sqlite', 'anything')).statusCode).toBe(401);
      const learner = await loginAs(app, 'learner1');
      expect((await upload(app, learner, 'x.sqlite', 'anything')).statusCode).toBe(403);
      // The teacher holds course menus, not this one.
      expect((await call(app, 'GET', '/api/database', await loginAs(app, 'teacher'))).statusCode).toBe(403);
      expect(folderEntries(app)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('database backups', () => {
  let app: FastifyInstance;
  let admin: string;
  let made: Backup;
  const clock = new SettableClock(Date.parse('2026-11-26T10:00:00Z'));
  beforeAll(async () => {
    app = await buildTestApp({ timeZone: 'Asia/Shanghai' }, { clock });
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
  });

  const list = async (query = '') => {
    const response = await call(app, 'GET', `/api/database?size=100${query}`, admin);
    expect(response.statusCode, response.body).toBe(200);
    return pageOf(backupSchema).parse(response.json());
  };

  it('answers 400 naming the field for a bad query, name, schedule or upload', async () => {
    const expect400 = async (response: { statusCode: number; json: () => unknown }, message: RegExp) => {
      expect(response.statusCode).toBe(400);
      expect((response.json() as { message: string }).message).toMatch(message);
    };
    await expect400(await call(app, 'GET', '/api/database?kind=weekly', admin), /^kind: /);
    await expect400(await call(app, 'GET', '/api/database?sort=sha256,asc', admin), /^sort: cannot sort by sha256/);
    await expect400(await call(app, 'GET', '/api/database/files/..%2Fcloud-classroom.sqlite', admin), /^name: is not the name of a backup/);
    await expect400(await call(app, 'PUT', '/api/database/schedule', admin, { enabled: true, time: '25:00', keep: 3 }), /^time: expected a time of day/);
    await expect400(await call(app, 'PUT', '/api/database/schedule', admin, { enabled: true, time: '03:00', keep: 0 }), /^keep: must be at least 1/);
    await expect400(await call(app, 'PUT', '/api/database/schedule', admin, { time: '03:00', keep: 3 }), /^enabled: is required/);
    await expect400(await call(app, 'DELETE', '/api/database', admin, []), /name at least one backup/);
    await expect400(await call(app, 'DELETE', '/api/database', admin, ['../cloud-classroom.sqlite']), /^body\.0: is not the name of a backup/);
    await expect400(await upload(app, admin, 'backup.sqlite', 'x', 'other'), /^file: is required/);
  });

  it('says what it backs up with', async () => {
    const response = await call(app, 'GET', '/api/database/status', admin);
    expect(response.statusCode).toBe(200);
    const status = databaseStatusSchema.parse(response.json());
    expect(status).toMatchObject({ dialect: onPostgres ? 'postgres' : 'sqlite', canBackUp, schedule: { enabled: false, time: '03:00', keep: 7 }, nextRun: null, timeZone: 'Asia/Shanghai' });
    if (onPostgres && !hasPgDump) expect(status.problem).toMatch(/pg_dump is not installed/);
  });

  it.skipIf(!(onPostgres && !hasPgDump))('without pg_dump, refuses to back up PostgreSQL with the reason (409)', async () => {
    const response = await call(app, 'POST', '/api/database', admin);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: expect.stringMatching(/pg_dump is not installed/) });
    expect(folderEntries(app)).toEqual([]);
  });

  it.skipIf(!canBackUp)('makes a backup now, listed with its size, SHA-256 and migrations, downloadable as it is listed', async () => {
    const response = await call(app, 'POST', '/api/database', admin);
    expect(response.statusCode, response.body).toBe(201);
    made = backupSchema.parse(response.json());
    expect(made).toMatchObject({ kind: 'manual', format: onPostgres ? 'pg-custom' : 'sqlite', migration: NEWEST_MIGRATION, createBy: 'admin', note: null });
    // Named by the organisation's wall clock (18:00 in Shanghai at 10:00 UTC), as the page shows the time.
    expect(made.name).toMatch(onPostgres ? /^cc-20261126-180000-000-manual\.dump$/ : /^cc-20261126-180000-000-manual\.sqlite$/);
    expect((await list()).content).toEqual([made]);
    const bytes = await download(app, admin, made.name);
    expect(bytes.length).toBe(made.size);
    expect(sha256(bytes)).toBe(made.sha256);
    // What it holds: the seeded people; readable by the server's user alone.
    const file = path.join(backupsFolder(app), made.name);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(backupsFolder(app)).mode & 0o777).toBe(0o700);
    if (onPostgres) expect(archiveRows(file, 'sys_user').some((line) => line.includes('\tadmin\t'))).toBe(true);
    else {
      const db = new SQLite(file, { readonly: true });
      expect(db.prepare("select count(*) as n from sys_user where username = 'admin'").get()).toEqual({ n: 1 });
      db.close();
    }
  });

  it.skipIf(!canBackUp)('makes a consistent backup while writes go on: it holds every row written before it began, and opens', async () => {
    const { db } = app.services.database;
    const write = (key: string) => db.insertInto('app_setting').values({ key, value: 'x', updated_at: 1 }).execute();
    for (let i = 0; i < 50; i += 1) await write(`before.${i}`);
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await write(`during.${written}`);
        written += 1;
      }
    })();
    const response = await call(app, 'POST', '/api/database', admin);
    writing = false;
    await writer;
    expect(response.statusCode, response.body).toBe(201);
    const backup = backupSchema.parse(response.json());
    const file = path.join(backupsFolder(app), backup.name);
    expect(settingKeysIn(file, 'before.')).toHaveLength(50);
    // A snapshot: some prefix of the writes made meanwhile, never a row out of order.
    const during = settingKeysIn(file, 'during.').map((key) => Number(key.slice('during.'.length))).sort((a, b) => a - b);
    expect(during).toEqual(during.map((_, index) => index));
    expect(during.length).toBeLessThanOrEqual(written);
    await call(app, 'DELETE', '/api/database', admin, [backup.name]);
    await sql`delete from app_setting where key like 'before.%' or key like 'during.%'`.execute(db);
  });

  it('refuses a file that is no database, with 400 naming the problem, and keeps nothing', async () => {
    const before = folderEntries(app);
    const response = await upload(app, admin, 'notes.sqlite', 'just some text, not a database\n');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: 'file: is neither an SQLite database nor a PostgreSQL dump (pg_dump’s custom or plain format)'.replace('’', "'") });
    expect((await upload(app, admin, 'empty.sqlite', Buffer.alloc(0))).json()).toMatchObject({ status: 400, message: 'file: is empty' });
    expect(folderEntries(app)).toEqual(before);
  });

  it.skipIf(onPostgres)('SQLite: refuses an SQLite file of another kind, one with a migration this version does not know, or a damaged one, keeping nothing', async () => {
    const before = folderEntries(app);
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-backup-'));
    try {
      const other = path.join(scratch, 'other.sqlite');
      const db = new SQLite(other);
      db.exec('create table notes (text)');
      db.close();
      expect((await upload(app, admin, 'other.sqlite', fs.readFileSync(other))).json()).toMatchObject({ status: 400, message: 'file: is an SQLite database without a migrations table: it is not a Cloud Classroom database' });

      const newer = path.join(scratch, 'newer.sqlite');
      fs.copyFileSync(path.join(backupsFolder(app), made.name), newer);
      const edit = new SQLite(newer);
      edit.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('0999-from-the-future', '2030-01-01T00:00:00.000Z');
      edit.close();
      const refused = await upload(app, admin, 'newer.sqlite', fs.readFileSync(newer));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ message: 'file: holds migrations this version does not know (0999-from-the-future): it was made by a newer version' });

      const damaged = fs.readFileSync(path.join(backupsFolder(app), made.name));
      damaged.fill(0xab, 4096, 8192);
      const broken = await upload(app, admin, 'damaged.sqlite', damaged);
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toMatchObject({ message: expect.stringMatching(/^file: (is a damaged SQLite database|SQLite cannot open it)/) });
      const script = '--\n-- PostgreSQL database dump\n--\n\nCOPY public.kysely_migration (name, "timestamp") FROM stdin;\n0001-app-setting\t2026-01-01\n\\.\n';
      expect((await upload(app, admin, 'dump.sql', script)).json()).toMatchObject({ status: 400, message: 'file: is a PostgreSQL dump, but this server runs on SQLite' });
      expect(folderEntries(app)).toEqual(before);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });

  it.skipIf(!onPostgres)('PostgreSQL: refuses an SQLite file, or a dump holding a migration this version does not know, keeping nothing', async () => {
    const before = folderEntries(app);
    expect((await upload(app, admin, 'x.sqlite', Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(200)]))).json()).toMatchObject({
      status: 400,
      message: 'file: is an SQLite database, but this server runs on PostgreSQL',
    });
    const script = '--\n-- PostgreSQL database dump\n--\n\nCOPY public.kysely_migration (name, "timestamp") FROM stdin;\n0001-app-setting\t2026-01-01\n0999-from-the-future\t2030-01-01\n\\.\n';
    expect((await upload(app, admin, 'dump.sql', script)).json()).toMatchObject({ status: 400, message: 'file: holds migrations this version does not know (0999-from-the-future): it was made by a newer version' });
    const unrelated = '--\n-- PostgreSQL database dump\n--\n\nCREATE TABLE public.notes (text text);\n';
    expect((await upload(app, admin, 'dump.sql', unrelated)).json()).toMatchObject({ status: 400, message: 'file: is a PostgreSQL script without a migrations table: it is not a Cloud Classroom database' });
    if (hasPgDump) {
      const archive = Buffer.concat([Buffer.from('PGDMP', 'latin1'), Buffer.alloc(100, 7)]);
      expect((await upload(app, admin, 'x.dump', archive)).json()).toMatchObject({ status: 400, message: expect.stringMatching(/^file: pg_restore cannot read it/) });
    }
    expect(folderEntries(app)).toEqual(before);
  });

  it.skipIf(!canBackUp)('keeps an uploaded backup that checks out, as uploaded, with the same bytes', async () => {
    const bytes = await download(app, admin, made.name);
    clock.advance(1000);
    const response = await upload(app, admin, 'mine', bytes);
    expect(response.statusCode, response.body).toBe(201);
    const uploaded = backupSchema.parse(response.json());
    expect(uploaded).toMatchObject({ kind: 'uploaded', format: made.format, sha256: made.sha256, size: made.size, migration: NEWEST_MIGRATION, migrations: made.migrations });
    expect((await list('&kind=uploaded')).content.map((backup) => backup.name)).toEqual([uploaded.name]);
    expect((await list('&sort=createTime,asc')).content.map((backup) => backup.name)).toEqual([made.name, uploaded.name]);
    expect((await call(app, 'DELETE', '/api/database', admin, [uploaded.name])).statusCode).toBe(200);
    expect((await list()).content.map((backup) => backup.name)).toEqual([made.name]);
    expect(folderEntries(app)).toEqual([made.name, `${made.name}.json`]);
  });

  it('answers 404 for a backup that does not exist', async () => {
    expect((await call(app, 'GET', '/api/database/files/cc-20200101-000000-000-manual.sqlite', admin)).statusCode).toBe(404);
    expect((await call(app, 'DELETE', '/api/database', admin, ['cc-20200101-000000-000-manual.sqlite'])).statusCode).toBe(404);
  });

  it.skipIf(!canBackUp)('backs up on the schedule, daily at its time in the organisation’s zone, keeping the newest ones', async () => {
    // 03:00 in Shanghai is 19:00 UTC the day before.
    expect((await call(app, 'PUT', '/api/database/schedule', admin, { enabled: true, time: '03:00', keep: 2 })).statusCode).toBe(204);
    const status = databaseStatusSchema.parse((await call(app, 'GET', '/api/database/status', admin)).json());
    expect(status).toMatchObject({ schedule: { enabled: true, time: '03:00', keep: 2 }, nextRun: '2026-11-27 03:00', timeZone: 'Asia/Shanghai' });
    const first = Date.parse('2026-11-26T19:00:00Z');
    expect(nextRunAt('03:00', clock.now(), 'Asia/Shanghai')).toBe(first);
    for (let day = 0; day < 3; day += 1) {
      clock.set(first + day * 86_400_000 + 5000);
      expect(await app.services.jobs.runDue()).toBe(1);
    }
    // A run done twice (a crash after the backup) makes no second one.
    await app.services.backups.scheduledBackup({ at: first + 2 * 86_400_000 });
    // Days went by: the session has ended.
    admin = await loginAs(app, 'admin');
    const scheduled = (await list('&kind=scheduled')).content;
    expect(scheduled.map((backup) => backup.name)).toEqual([
      expect.stringMatching(/^cc-20261129-030005-000-scheduled\./),
      expect.stringMatching(/^cc-20261128-030005-000-scheduled\./),
    ]);
    expect(scheduled.every((backup) => backup.createBy === 'system')).toBe(true);
    // The manual one is not the schedule's to remove.
    expect((await list('&kind=manual')).content.map((backup) => backup.name)).toEqual([made.name]);

    // Moved to 04:30: the run queued for 03:00 does nothing.
    expect((await call(app, 'PUT', '/api/database/schedule', admin, { enabled: true, time: '04:30', keep: 2 })).statusCode).toBe(204);
    clock.set(first + 3 * 86_400_000 + 5000);
    await app.services.backups.scheduledBackup({ at: first + 3 * 86_400_000 });
    admin = await loginAs(app, 'admin');
    expect((await list('&kind=scheduled')).content).toEqual(scheduled);
    // Off: nothing more.
    expect((await call(app, 'PUT', '/api/database/schedule', admin, { enabled: false, time: '04:30', keep: 2 })).statusCode).toBe(204);
    clock.set(first + 4 * 86_400_000);
    // The 04:30 and 03:00 runs queued come due, and find the schedule off.
    expect(await app.services.jobs.runDue()).toBe(2);
    admin = await loginAs(app, 'admin');
    expect((await list('&kind=scheduled')).content).toEqual(scheduled);
  });
});

describe('nextRunAt', () => {
  it.each([
    ['2026-11-26T18:59:59Z', '03:00', 'Asia/Shanghai', '2026-11-26T19:00:00.000Z'],
    ['2026-11-26T19:00:00Z', '03:00', 'Asia/Shanghai', '2026-11-27T19:00:00.000Z'],
    ['2026-03-28T12:00:00Z', '02:30', 'Europe/London', '2026-03-29T02:30:00.000Z'],
    ['2026-06-01T00:00:00Z', '00:00', 'UTC', '2026-06-02T00:00:00.000Z'],
  ])('after %s, %s in %s is %s', (after, time, zone, expected) => {
    expect(new Date(nextRunAt(time, Date.parse(after), zone)).toISOString()).toBe(expected);
  });
});
