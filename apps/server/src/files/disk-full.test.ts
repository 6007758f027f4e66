import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { backupSchema } from '@cloud-classroom/shared/database';
import { localStorageSchema } from '@cloud-classroom/shared/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { SettableClock } from '../clock.js';
import { DISK_FULL } from '../disk-full.js';
import { call, loginAs, openTestDatabase, testConfig } from '../test/test-app.js';

/**
 * Issue 31's full disk under DATA_DIR, on a real file system that runs out of room: a small
 * tmpfs mounted as the app's data folder (the SQLite database lives there too; PostgreSQL's does
 * not). Whatever hit the full disk answers 507 in words and leaves nothing half-written.
 */

const onPostgres = (process.env.TEST_DATABASE_URL ?? '') !== '';
const TMPFS_MB = 8;
const FILLER = /^filler-\d+$/;

function mount(dir: string, megabytes: number): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    // Still held open (the database, a stream): detached now, freed once the last holder lets go.
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  }
}

const isMounted = (dir: string) => fs.readFileSync('/proc/self/mounts', 'utf8').split('\n').some((line) => line.split(' ')[1] === dir);

/** Why this machine cannot mount a tmpfs (not Linux, not root), or undefined when it can. */
function mountRefusal(): string | undefined {
  if (process.platform !== 'linux') return 'mounting a tmpfs needs Linux';
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-mount-probe-'));
  try {
    mount(probe, 1);
    unmount(probe);
    return undefined;
  } catch (error) {
    const said = String((error as { stderr?: unknown }).stderr ?? error).trim().split('\n')[0];
    return `cannot mount a tmpfs here (${said || 'refused'})`;
  } finally {
    fs.rmdirSync(probe);
  }
}

const refusal = mountRefusal();

let fillers = 0;

/** Fills the disk under `dir` until only `room` bytes are left (none: until a write is refused). */
function fillLeaving(dir: string, room: number): string {
  const { bavail, bsize } = fs.statfsSync(dir);
  let left = bavail * bsize - room;
  fillers += 1;
  const file = path.join(dir, `filler-${fillers}`);
  const chunk = Buffer.alloc(1024 * 1024, 0x5a);
  const fd = fs.openSync(file, 'wx');
  try {
    while (left > 0) left -= fs.writeSync(fd, chunk, 0, Math.min(chunk.length, left));
    // None to be left: written on until the disk refuses, whatever statfs rounded.
    while (room === 0) fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

function removeFillers(dir: string): void {
  for (const entry of fs.readdirSync(dir)) if (FILLER.test(entry)) fs.rmSync(path.join(dir, entry));
}

/** Every file under the data folder but the fillers, by its path there. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((entry) => !FILLER.test(entry) && fs.statSync(path.join(dir, entry)).isFile())
    .sort();
}

async function multipart(fileName: string, content: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([content]), fileName);
  const encoded = new Response(form);
  return { headers: { 'content-type': encoded.headers.get('content-type') ?? '' }, payload: Buffer.from(await encoded.arrayBuffer()) };
}

async function upload(app: FastifyInstance, token: string, url: string, fileName: string, content: Buffer) {
  const { headers, payload } = await multipart(fileName, content);
  return app.inject({ method: 'POST', url, headers: { ...headers, authorization: token }, payload });
}

describe.skipIf(refusal !== undefined)(`a full disk under DATA_DIR${refusal === undefined ? '' : ` (skipped: ${refusal})`}`, () => {
  let app: FastifyInstance;
  let dataDir: string;
  let admin: string;
  // A megabyte of text, more than the room left.
  const notes = Buffer.from('a line of notes that will not fit\n'.repeat(32 * 1024));

  beforeAll(async () => {
    // The clock stands still: no session is touched (a write) between the requests.
    const config = testConfig();
    dataDir = config.dataDir;
    mount(dataDir, TMPFS_MB);
    const database = await openTestDatabase(config);
    app = await buildApp({ config, database, clock: new SettableClock() });
    app.addHook('onClose', async () => {
      unmount(dataDir);
      await database.dispose();
    });
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app?.close();
    if (dataDir !== undefined && isMounted(dataDir)) unmount(dataDir);
  });

  const storedCount = async () => (await call(app, 'GET', '/api/localStorage', admin)).json().totalElements as number;
  const backupCount = async () => (await call(app, 'GET', '/api/database', admin)).json().totalElements as number;

  it('refuses an upload that does not fit with a 507 in words, leaving no partial file and no row', async () => {
    const before = { files: filesUnder(dataDir), stored: await storedCount() };
    fillLeaving(dataDir, 64 * 1024);
    try {
      const response = await upload(app, admin, '/api/localStorage', 'notes.txt', notes);
      expect(response.statusCode, response.body).toBe(507);
      expect(response.json()).toMatchObject({ status: 507, message: DISK_FULL });
      await app.auditLogSettled();
      expect(filesUnder(dataDir)).toEqual(before.files);
      expect(await storedCount()).toBe(before.stored);
    } finally {
      removeFillers(dataDir);
    }
  });

  it('refuses a backup with a 507 in words, leaving no partial backup', async () => {
    const before = { files: filesUnder(dataDir), backups: await backupCount() };
    fillLeaving(dataDir, 0);
    try {
      const response = await call(app, 'POST', '/api/database', admin);
      expect(response.statusCode, response.body).toBe(507);
      expect(response.json()).toMatchObject({ status: 507, message: DISK_FULL });
      await app.auditLogSettled();
      expect(filesUnder(dataDir)).toEqual(before.files);
      expect(await backupCount()).toBe(before.backups);
    } finally {
      removeFillers(dataDir);
    }
  });

  it.skipIf(onPostgres)('refuses a write to the SQLite database in DATA_DIR with a 507, saving nothing of it (SQLITE_FULL)', async () => {
    await app.auditLogSettled();
    // The write-ahead log emptied, so the next commit needs room the disk no longer has.
    const file = app.services.database.location;
    const other = new SQLite(file, { fileMustExist: true });
    try {
      expect(other.pragma('wal_checkpoint(TRUNCATE)')).toMatchObject([{ busy: 0 }]);
    } finally {
      other.close();
    }
    fillLeaving(dataDir, 0);
    try {
      const response = await call(app, 'POST', '/api/dict', admin, { name: 'disk_full_probe', description: 'never saved' });
      expect(response.statusCode, response.body).toBe(507);
      expect(response.json()).toMatchObject({ status: 507, message: DISK_FULL });
      await app.auditLogSettled();
    } finally {
      removeFillers(dataDir);
    }
    const found = (await call(app, 'GET', '/api/dict?blurry=disk_full_probe', admin)).json();
    expect(found.totalElements).toBe(0);
  });

  let backupFile: Buffer;

  it('takes the same upload, and a backup, once there is room again', async () => {
    const response = await upload(app, admin, '/api/localStorage', 'notes.txt', notes);
    expect(response.statusCode, response.body).toBe(201);
    const stored = localStorageSchema.parse(response.json());
    const served = await call(app, 'GET', stored.url, admin);
    expect(served.rawPayload.equals(notes)).toBe(true);
    const made = await call(app, 'POST', '/api/database', admin);
    expect(made.statusCode, made.body).toBe(201);
    expect(await backupCount()).toBe(1);
    backupFile = (await call(app, 'GET', `/api/database/files/${backupSchema.parse(made.json()).name}`, admin)).rawPayload;
  });

  it('keeps no uploaded backup whose facts no longer fit beside it: neither the file nor its facts', async () => {
    await app.auditLogSettled();
    const before = { files: filesUnder(dataDir), backups: await backupCount() };
    // Room for the file's pages and not one more, which its facts would need.
    fillLeaving(dataDir, Math.ceil(backupFile.length / 4096) * 4096);
    try {
      const response = await upload(app, admin, '/api/database/upload', 'copy.backup', backupFile);
      expect(response.statusCode, response.body).toBe(507);
      expect(response.json()).toMatchObject({ status: 507, message: DISK_FULL });
      await app.auditLogSettled();
      expect(filesUnder(dataDir)).toEqual(before.files);
    } finally {
      removeFillers(dataDir);
    }
    expect(await backupCount()).toBe(before.backups);
    const again = await upload(app, admin, '/api/database/upload', 'copy.backup', backupFile);
    expect(again.statusCode, again.body).toBe(201);
  });
});
