import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

// The programs and the thread backups are made with. Nothing here reads what a file holds as
// SQL to run: pg_restore is only asked to list an archive or print one table's data.

/** A program that ran and failed: its exit and the first lines it wrote to stderr. */
export class ToolError extends Error {
  override name = 'ToolError';
  constructor(
    readonly command: string,
    readonly stderr: string,
  ) {
    super(`${command} failed: ${firstLines(stderr)}`);
  }
}

export const firstLines = (text: string, count = 2): string =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .slice(0, count)
    .join(' ') || '(no message)';

/** The version line of a program on the PATH (`pg_dump --version`), undefined when there is none. */
export async function toolVersion(command: string): Promise<string | undefined> {
  try {
    const { stdout } = await runTool(command, ['--version']);
    return stdout.toString('utf8').trim();
  } catch {
    return undefined;
  }
}

export type RunOptions = { env?: NodeJS.ProcessEnv; signal?: AbortSignal; stdoutLimit?: number };

/**
 * Runs a program without a shell (arguments are never parsed by one), answering what it wrote
 * once it exits 0; else a ToolError. stdout is kept up to `stdoutLimit` bytes (the rest is dropped).
 */
export function runTool(command: string, args: readonly string[], options: RunOptions = {}): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], ...(options.signal === undefined ? {} : { signal: options.signal }) });
    const out: Buffer[] = [];
    let outBytes = 0;
    const limit = options.stdoutLimit ?? 16 * 1024 * 1024;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (outBytes >= limit) return;
      out.push(chunk);
      outBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr });
      else reject(new ToolError(command, stderr));
    });
  });
}

/**
 * libpq's environment for a postgres:// URL, so that no password shows in a process list (as
 * it would in a `--dbname=URL` argument).
 */
export function pgEnvOf(databaseUrl: string): NodeJS.ProcessEnv {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['PGHOST', 'PGPORT', 'PGUSER', 'PGPASSWORD', 'PGDATABASE', 'PGSSLMODE', 'PGOPTIONS']) delete env[key];
  if (url.hostname !== '') env.PGHOST = decodeURIComponent(url.hostname.replace(/^\[|\]$/g, ''));
  if (url.port !== '') env.PGPORT = url.port;
  if (url.username !== '') env.PGUSER = decodeURIComponent(url.username);
  if (url.password !== '') env.PGPASSWORD = decodeURIComponent(url.password);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database !== '') env.PGDATABASE = database;
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode !== null) env.PGSSLMODE = sslmode;
  // `?options=-c search_path=…` (a schema of its own) reaches the tools as libpq's PGOPTIONS.
  const options = url.searchParams.get('options');
  if (options !== null) env.PGOPTIONS = options;
  return env;
}

// Run in a thread of its own: VACUUM INTO reads the whole database, which would stop the
// event loop for as long (better-sqlite3 is synchronous). Its own read-only connection reads one
// snapshot (WAL: the server's writers go on meanwhile), so the copy is consistent.
const SNAPSHOT_WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.source, { readonly: true, fileMustExist: true });
try {
  db.pragma('busy_timeout = 5000');
  db.prepare('VACUUM INTO ?').run(workerData.target);
} finally {
  db.close();
}
parentPort.postMessage('done');
`;

let driverPath: string | undefined;

/**
 * A consistent copy of the SQLite database `source` at `target` (which must not exist), made
 * by SQLite's VACUUM INTO on a read-only connection in a worker thread, then synced to disk.
 */
export async function snapshotSqlite(source: string, target: string): Promise<void> {
  driverPath ??= createRequire(import.meta.url).resolve('better-sqlite3');
  await new Promise<void>((resolve, reject) => {
    const worker = new Worker(SNAPSHOT_WORKER, { eval: true, workerData: { driver: driverPath, source, target } });
    let done = false;
    worker.once('message', () => (done = true));
    worker.once('error', reject);
    worker.once('exit', (code) => (done ? resolve() : reject(new Error(`the backup thread stopped (exit ${code})`))));
  });
  await syncFile(target);
}

/** Flushes a file's bytes to the disk. */
export async function syncFile(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a folder's entries (a rename into it) to the disk; not possible on Windows. */
export async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.promises.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Renames `from` to `to` and makes the rename durable. */
export async function durableRename(from: string, to: string): Promise<void> {
  await fs.promises.rename(from, to);
  await syncFolder(path.dirname(to));
}
