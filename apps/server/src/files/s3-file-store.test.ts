import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeFileStoreContract, failingAfter, listed, MONTH_KEY } from '../test/file-store-contract.js';
import { startS3TestServer, type S3TestServer } from '../test/s3-test-server.js';
import { createS3Client } from './s3-bucket.js';
import { bodyOf, S3FileStore } from './s3-file-store.js';

let s3: S3TestServer;
let spoolDir: string;
let prefix: string;
let store: S3FileStore;
let stores = 0;

const storeWith = (extra: { partBytes?: number } = {}) => new S3FileStore({ client: s3.client, bucket: s3.bucket, prefix, spoolDir, ...extra });

async function objectKeys(): Promise<string[]> {
  const answer = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (answer.Contents ?? []).map((object) => object.Key ?? '').sort();
}

beforeAll(async () => {
  s3 = await startS3TestServer();
});
afterAll(async () => {
  await s3.close();
});
beforeEach(() => {
  // Each test a store of its own: a fresh prefix in the one bucket, a fresh spool folder.
  stores += 1;
  prefix = `store-${stores}/`;
  spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-spool-'));
  store = storeWith();
  return () => fs.rmSync(spoolDir, { recursive: true, force: true });
});

describeFileStoreContract('S3FileStore', () => store);

describe('S3FileStore on an S3-compatible server', () => {
  it('keeps each file under the prefix, and nothing in the spool folder once the bucket has it', async () => {
    await store.put(MONTH_KEY, Readable.from([Buffer.from('hello')]));
    expect(await objectKeys()).toEqual([`${prefix}${MONTH_KEY}`]);
    expect(fs.readdirSync(spoolDir, { recursive: true }).filter((entry) => String(entry).endsWith('.partial'))).toEqual([]);
    expect((await listed(store, 'files')).map((file) => file.key)).toEqual([MONTH_KEY]);
  });

  it('leaves neither an object nor a spool file when the stream fails', async () => {
    await expect(store.put(MONTH_KEY, failingAfter('half of it'))).rejects.toThrow('cut off');
    expect(await objectKeys()).toEqual([]);
    expect(fs.readdirSync(spoolDir, { recursive: true }).filter((entry) => String(entry).endsWith('.partial'))).toEqual([]);
  });

  it('sends a file larger than a part in parts, and gives back the same bytes, by range across parts too', async () => {
    const parted = storeWith({ partBytes: 5 * 1024 * 1024 });
    const content = crypto.randomBytes(11 * 1024 * 1024 + 123);
    expect(await parted.put(MONTH_KEY, Readable.from([content]))).toEqual({ size: content.length });
    expect((await buffer((await parted.get(MONTH_KEY))!)).equals(content)).toBe(true);
    const start = 5 * 1024 * 1024 - 10;
    expect((await buffer((await parted.get(MONTH_KEY, { start, end: start + 19 }))!)).equals(content.subarray(start, start + 20))).toBe(true);
    expect((await parted.stat(MONTH_KEY))?.size).toBe(content.length);
  });

  it('serves an opened file only as the version it opened: gone or replaced meanwhile, the stream fails', async () => {
    await store.put(MONTH_KEY, Readable.from([Buffer.from('first version')]));
    const replaced = await store.open(MONTH_KEY);
    await store.put(MONTH_KEY, Readable.from([Buffer.from('second version, longer')]));
    await expect(text(replaced!.stream())).rejects.toThrow(/PreconditionFailed|bucket refused/);

    const removed = await store.open(MONTH_KEY);
    await store.delete(MONTH_KEY);
    await expect(text(removed!.stream())).rejects.toThrow(/bucket refused/);
  });

  it('lists only names the store could have chosen, and removes old spool files of interrupted uploads only', async () => {
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `${prefix}files/202401/put by hand.txt`, Body: 'x' }));
    await store.put(MONTH_KEY, Readable.from([Buffer.from('done')]));
    expect((await listed(store, 'files')).map((file) => file.key)).toEqual([MONTH_KEY]);

    const folder = path.join(spoolDir, 'files', '202401');
    fs.mkdirSync(folder, { recursive: true });
    const old = path.join(folder, '0123456789abcdef.partial');
    const young = path.join(folder, 'fedcba9876543210.partial');
    fs.writeFileSync(old, 'killed mid-way');
    fs.writeFileSync(young, 'still arriving');
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(old, hourAgo, hourAgo);
    expect(await store.removeUnfinished('files', Date.now() - 60_000)).toBe(1);
    expect([fs.existsSync(old), fs.existsSync(young)]).toEqual([false, true]);
    expect(await store.removeUnfinished('media', Date.now())).toBe(0);
  });

  it('answers a bucket it cannot reach with a 502 naming the problem, and a missing bucket likewise', async () => {
    const nowhere = new S3FileStore({
      client: createS3Client({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1', bucket: 'b', accessKeyId: 'a', secretAccessKey: 'b', pathStyle: true }),
      bucket: 'b',
      prefix: '',
      spoolDir,
    });
    await expect(nowhere.put(MONTH_KEY, Readable.from([Buffer.from('x')]))).rejects.toMatchObject({ kind: 'unreachable', message: expect.stringMatching(/^the bucket could not be reached: /) });
    nowhere.close();
    const missing = new S3FileStore({ client: s3.client, bucket: 'no-such-bucket', prefix: '', spoolDir });
    await expect(missing.put(MONTH_KEY, Readable.from([Buffer.from('x')]))).rejects.toMatchObject({ kind: 'unreachable', message: expect.stringMatching(/NoSuchBucket/) });
  });
});

describe('bodyOf: a ranged answer cut to the range asked for', () => {
  // The object is 'hello world'; each case is what a store sent for the range asked.
  it.each([
    ['the store sent the range', { start: 6, end: 10 }, 'bytes 6-10/11', 'world', 'world'],
    ['the store ignored the range (no Content-Range)', { start: 6, end: 10 }, undefined, 'hello world', 'world'],
    ['the store sent the whole file for bytes=0-0', { start: 0, end: 0 }, 'bytes 0-10/11', 'hello world', 'h'],
    ['the store sent a wider range', { start: 4, end: 6 }, 'bytes 2-10/11', 'llo world', 'o w'],
  ])('%s', async (_case, range, contentRange, sent, expected) => {
    const body = Readable.from([sent.slice(0, 3), sent.slice(3, 7), sent.slice(7)].filter((part) => part !== '').map((part) => Buffer.from(part)));
    expect(await text(bodyOf({ Body: body, ContentRange: contentRange }, range))).toBe(expected);
  });
});
