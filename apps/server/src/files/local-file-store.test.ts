import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFileStore } from './local-file-store.js';

const MONTH_KEY = 'files/202401/0123456789abcdef0123456789abcdef.txt';

/** A stream that gives `good` and then fails, as an upload cut off or refused mid-way does. */
function failingAfter(good: string): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from(good);
      throw new Error('cut off');
    })(),
  );
}

/** Every file under the root, hidden ones included, relative and `/`-separated. */
function everything(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(root, entry)).isFile())
    .map((entry) => entry.split(path.sep).join('/'))
    .sort();
}

describe('LocalFileStore', () => {
  let root: string;
  let store: LocalFileStore;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-store-'));
    store = new LocalFileStore(root);
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('stores a stream, gives it back whole or by byte range, tells its size, and deletes it', async () => {
    const before = Date.now();
    expect(await store.put(MONTH_KEY, Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toEqual({ size: 11 });
    expect(await text((await store.get(MONTH_KEY))!)).toBe('hello world');
    expect(await text((await store.get(MONTH_KEY, { start: 6, end: 10 }))!)).toBe('world');
    expect(await text((await store.get(MONTH_KEY, { start: 0, end: 0 }))!)).toBe('h');
    const stat = await store.stat(MONTH_KEY);
    expect(stat).toMatchObject({ key: MONTH_KEY, size: 11 });
    expect(stat!.modifiedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(everything(root)).toEqual([MONTH_KEY]);

    await store.delete(MONTH_KEY);
    expect(await store.get(MONTH_KEY)).toBeUndefined();
    expect(await store.stat(MONTH_KEY)).toBeUndefined();
    await store.delete(MONTH_KEY);
  });

  it('opens a file once: its facts from the open file, then one stream (whole or a range) or a close', async () => {
    await store.put(MONTH_KEY, Readable.from([Buffer.from('0123456789')]));
    const opened = await store.open(MONTH_KEY);
    expect(opened?.info).toEqual({ key: MONTH_KEY, size: 10, modifiedAt: fs.statSync(path.join(root, MONTH_KEY)).mtimeMs });
    // Removed after opening: what was opened is still what is served.
    await store.delete(MONTH_KEY);
    expect(await text(opened!.stream({ start: 2, end: 4 }))).toBe('234');
    expect(() => opened!.stream()).toThrow(/already streamed/);
    expect(await store.open(MONTH_KEY)).toBeUndefined();
    expect(await store.open('files/202401')).toBeUndefined();

    await store.put(MONTH_KEY, Readable.from([Buffer.from('again')]));
    const closed = await store.open(MONTH_KEY);
    closed!.close();
    expect(() => closed!.stream()).toThrow(/already streamed or closed/);
    expect(await text((await store.open(MONTH_KEY))!.stream())).toBe('again');
  });

  it('keeps files readable by the server only: folders 0700, files 0600', async () => {
    if (process.platform === 'win32') return;
    await store.put(MONTH_KEY, Readable.from([Buffer.from('secret')]));
    expect(fs.statSync(path.join(root, MONTH_KEY)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(root, 'files', '202401')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(root, 'files')).mode & 0o777).toBe(0o700);
  });

  it('leaves nothing under the key, nor any partial file, when the stream fails', async () => {
    await expect(store.put(MONTH_KEY, failingAfter('half of it'))).rejects.toThrow('cut off');
    expect(await store.stat(MONTH_KEY)).toBeUndefined();
    expect(everything(root)).toEqual([]);
  });

  it('replaces a file whole: a failed replacement keeps the old one', async () => {
    await store.put(MONTH_KEY, Readable.from([Buffer.from('first')]));
    await expect(store.put(MONTH_KEY, failingAfter('second, cut'))).rejects.toThrow('cut off');
    expect(await text((await store.get(MONTH_KEY))!)).toBe('first');
    await store.put(MONTH_KEY, Readable.from([Buffer.from('third')]));
    expect(await text((await store.get(MONTH_KEY))!)).toBe('third');
    expect(everything(root)).toEqual([MONTH_KEY]);
  });

  it.each(['../outside.txt', 'files/../../outside.txt', '/etc/passwd', 'files//x', '.hidden', 'files/.x.partial', 'a\\b', '', 'files/a b'])(
    'refuses the key %j before touching anything',
    async (key) => {
      await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(/not a file store key/);
      await expect(store.get(key)).rejects.toThrow(/not a file store key/);
      await expect(store.delete(key)).rejects.toThrow(/not a file store key/);
      expect(everything(root)).toEqual([]);
      expect(fs.existsSync(path.join(root, '..', 'outside.txt'))).toBe(false);
    },
  );

  it('lists the stored files of a folder, not unfinished writes, and removes old unfinished writes only', async () => {
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

    const listed = [];
    for await (const file of store.list('files')) listed.push(file);
    expect(listed).toEqual([{ key: MONTH_KEY, size: 4, modifiedAt: expect.any(Number) }]);

    expect(await store.removeUnfinished('files', Date.now() - 60_000)).toBe(1);
    expect(fs.existsSync(oldPartial)).toBe(false);
    expect(fs.existsSync(youngPartial)).toBe(true);
    expect(everything(root)).toContain(MONTH_KEY);
    expect(everything(root)).toContain(other);

    const none = [];
    for await (const file of store.list('media')) none.push(file);
    expect(none).toEqual([]);
  });
});
