import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, sqliteFileOf, type AppDatabase } from './database.js';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

// The SQLite file holds password hashes and the token signing secret.
describe.skipIf(process.platform === 'win32')('the embedded database on disk', () => {
  let parent: string;
  let database: AppDatabase | undefined;
  afterEach(async () => {
    await database?.db.destroy();
    database = undefined;
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('is created readable by the server alone: folder 0700, file, WAL and shared memory 0600', async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-perm-'));
    const dataDir = path.join(parent, 'data');
    database = await openDatabase({ dataDir });
    await database.db.selectFrom('sqlite_master' as never).selectAll().execute();
    expect(modeOf(dataDir)).toBe(0o700);
    const file = sqliteFileOf(dataDir);
    for (const name of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(name), name).toBe(0o600);
  });

  it('tightens a folder and file an older version left open to everyone', async () => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-perm-'));
    const dataDir = path.join(parent, 'data');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.writeFileSync(sqliteFileOf(dataDir), '', { mode: 0o644 });
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(sqliteFileOf(dataDir), 0o644);
    database = await openDatabase({ dataDir });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(sqliteFileOf(dataDir))).toBe(0o600);
  });
});
