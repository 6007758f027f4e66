import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { FileStore, StoredFileInfo } from '../files/file-store.js';

export const MONTH_KEY = 'files/202401/0123456789abcdef0123456789abcdef.txt';

/** A stream that gives `good` and then fails, as an upload cut off or refused mid-way does. */
export function failingAfter(good: string): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from(good);
      throw new Error('cut off');
    })(),
  );
}

export async function listed(store: FileStore, prefix: string): Promise<StoredFileInfo[]> {
  const files: StoredFileInfo[] = [];
  for await (const file of store.list(prefix)) files.push(file);
  return files.sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * What every `FileStore` promises (file-store.ts), run against each kind with a fresh, empty
 * store per test; each kind's own test file adds what only it can show (modes, spool files).
 */
export function describeFileStoreContract(kind: string, current: () => FileStore): void {
  describe(`${kind}: the FileStore contract`, () => {
    it('stores a stream, gives it back whole or by byte range, tells its size, and deletes it', async () => {
      const store = current();
      const before = Date.now();
      expect(await store.put(MONTH_KEY, Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toEqual({ size: 11 });
      expect(await text((await store.get(MONTH_KEY))!)).toBe('hello world');
      expect(await text((await store.get(MONTH_KEY, { start: 6, end: 10 }))!)).toBe('world');
      expect(await text((await store.get(MONTH_KEY, { start: 0, end: 0 }))!)).toBe('h');
      const stat = await store.stat(MONTH_KEY);
      expect(stat).toMatchObject({ key: MONTH_KEY, size: 11 });
      // S3 keeps times to the second.
      expect(stat!.modifiedAt).toBeGreaterThanOrEqual(before - 2000);

      await store.delete(MONTH_KEY);
      expect(await store.get(MONTH_KEY)).toBeUndefined();
      expect(await store.stat(MONTH_KEY)).toBeUndefined();
      await store.delete(MONTH_KEY);
    });

    it('opens a file once: its facts, then one stream (whole or a range) or a close', async () => {
      const store = current();
      await store.put(MONTH_KEY, Readable.from([Buffer.from('0123456789')]));
      const opened = await store.open(MONTH_KEY);
      expect(opened?.info).toEqual({ key: MONTH_KEY, size: 10, modifiedAt: (await store.stat(MONTH_KEY))!.modifiedAt });
      expect(await text(opened!.stream({ start: 2, end: 4 }))).toBe('234');
      expect(() => opened!.stream()).toThrow(/already streamed/);
      expect(await store.open('files/202401/ffffffffffffffffffffffffffffffff.txt')).toBeUndefined();
      expect(await store.open('files/202401')).toBeUndefined();

      const closed = await store.open(MONTH_KEY);
      closed!.close();
      expect(() => closed!.stream()).toThrow(/already streamed or closed/);
      expect(await text((await store.open(MONTH_KEY))!.stream())).toBe('0123456789');
    });

    it('leaves nothing under the key when the stream fails', async () => {
      const store = current();
      await expect(store.put(MONTH_KEY, failingAfter('half of it'))).rejects.toThrow('cut off');
      expect(await store.stat(MONTH_KEY)).toBeUndefined();
      expect(await listed(store, 'files')).toEqual([]);
    });

    it('replaces a file whole: a failed replacement keeps the old one', async () => {
      const store = current();
      await store.put(MONTH_KEY, Readable.from([Buffer.from('first')]));
      await expect(store.put(MONTH_KEY, failingAfter('second, cut'))).rejects.toThrow('cut off');
      expect(await text((await store.get(MONTH_KEY))!)).toBe('first');
      await store.put(MONTH_KEY, Readable.from([Buffer.from('third')]));
      expect(await text((await store.get(MONTH_KEY))!)).toBe('third');
      expect((await listed(store, 'files')).map((file) => file.key)).toEqual([MONTH_KEY]);
    });

    it.each(['../outside.txt', 'files/../../outside.txt', '/etc/passwd', 'files//x', '.hidden', 'files/.x.partial', 'a\\b', '', 'files/a b'])(
      'refuses the key %j before touching anything',
      async (key) => {
        const store = current();
        await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(/not a file store key/);
        await expect(store.get(key)).rejects.toThrow(/not a file store key/);
        await expect(store.delete(key)).rejects.toThrow(/not a file store key/);
        expect(await listed(store, 'files')).toEqual([]);
      },
    );

    it('lists the stored files of one folder only', async () => {
      const store = current();
      const other = 'avatar/fedcba9876543210fedcba9876543210.png';
      await store.put(MONTH_KEY, Readable.from([Buffer.from('done')]));
      await store.put(other, Readable.from([Buffer.from('png')]));
      expect(await listed(store, 'files')).toEqual([{ key: MONTH_KEY, size: 4, modifiedAt: expect.any(Number) }]);
      expect((await listed(store, 'avatar')).map((file) => file.key)).toEqual([other]);
      expect(await listed(store, 'media')).toEqual([]);
      // A folder whose name begins another's is not that folder.
      expect(await listed(store, 'file')).toEqual([]);
    });
  });
}
