import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeFileStoreContract, failingAfter, listed, MONTH_KEY } from '../test/file-store-contract.js';
import { LocalFileStore } from './local-file-store.js';

/** Every file under the root, hidden ones included, relative and `/`-separated. */
function everything(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(root, entry)).isFile())
    .map((entry) => entry.split(path.sep).join('/'))
    .sort();
}

let root: string;
let store: LocalFileStore;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-store-'));
  store = new LocalFileStore(root);
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describeFileStoreContract('LocalFileStore', () => store);

describe('LocalFileStore on this machine’s disk', () => {
  it('serves what was opened even when the file is removed meanwhile, its facts those of the open file', async () => {
    await store.put(MONTH_KEY, Readable.from([Buffer.from('0123456789')]));
    const opened = await store.open(MONTH_KEY);
    expect(opened?.info).toEqual({ key: MONTH_KEY, size: 10, modifiedAt: fs.statSync(path.join(root, MONTH_KEY)).mtimeMs });
    await store.delete(MONTH_KEY);
    expect(await text(opened!.stream({ start: 2, end: 4 }))).toBe('234');
    expect(await store.open(MONTH_KEY)).toBeUndefined();
  });

  it('keeps files readable by the server only: folders 0700, files 0600', async () => {
    if (process.platform === 'win32') return;
    await store.put(MONTH_KEY, Readable.from([Buffer.from('secret')]));
    expect(fs.statSync(path.join(root, MONTH_KEY)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(root, 'files', '202401')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(root, 'files')).mode & 0o777).toBe(0o700);
  });

  it('leaves no partial file behind when the stream fails, and keeps keys inside its folder', async () => {
    await expect(store.put(MONTH_KEY, failingAfter('half of it'))).rejects.toThrow('cut off');
    await expect(store.put('../outside.txt', Readable.from([Buffer.from('x')]))).rejects.toThrow(/not a file store key/);
    expect(everything(root)).toEqual([]);
    expect(fs.existsSync(path.join(root, '..', 'outside.txt'))).toBe(false);
  });

  it('does not list unfinished writes, and removes old unfinished writes only', async () => {
    const other = 'avatar/fedcba9876543210fedcba9876543210.png';
    await store.put(MONTH_KEY, Readable.from([Buffer.from('done')]));
    await store.put(other, Readable.from([Buffer.from('png')]));
    const folder = path.join(root, 'files', '202401');
    const oldPartial = path.join(folder, '.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.pdf.0123456789abcdef.partial');
    const youngPartial = path.join(folder, '.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.pdf.fedcba9876543210.partial');
    fs.writeFileSync(oldPartial, 'killed mid-way');
    fs.writeFileSync(youngPartial, 'still arriving');
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(oldPartial, hourAgo, hourAgo);

    expect((await listed(store, 'files')).map((file) => file.key)).toEqual([MONTH_KEY]);
    expect(await store.removeUnfinished('files', Date.now() - 60_000)).toBe(1);
    expect(fs.existsSync(oldPartial)).toBe(false);
    expect(fs.existsSync(youngPartial)).toBe(true);
    expect(everything(root)).toContain(MONTH_KEY);
    expect(everything(root)).toContain(other);
  });
});
