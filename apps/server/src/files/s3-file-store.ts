import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { unreachable } from '../domain-error.js';
import { assertFileKey, isFileKey, type ByteRange, type FileStore, type OpenedFile, type StoredFileInfo } from './file-store.js';
import { describeS3Failure, isS3NotFound, loadS3Sdk, type S3Sdk } from './s3-bucket.js';

/** Files above this go up in parts of this size (S3 takes at most 5 GiB in one PUT, 10,000 parts in all). */
export const S3_PART_BYTES = 64 * 1024 * 1024;

export type S3FileStoreOptions = {
  /** Or a promise for one (`createS3Client`, which loads the SDK): the store is built synchronously, the client arrives a moment later. */
  client: S3Client | Promise<S3Client>;
  bucket: string;
  /** Put before every key (`classroom/`), so the store can share a bucket; '' for none. */
  prefix: string;
  /** Where an upload waits on this machine while it arrives: S3 needs its length before its bytes. */
  spoolDir: string;
  partBytes?: number;
};

/**
 * The bytes of `range` from a GET's answer. A store that sent more than was asked (the whole
 * object, or a wider range, as s3rver does for `bytes=0-0`) says so in its Content-Range; the
 * surplus is cut here, for the length an HTTP answer announced must be the length sent.
 */
export function bodyOf(answer: { Body?: unknown; ContentRange?: string }, range: ByteRange | undefined): Readable {
  const body = answer.Body as Readable;
  if (range === undefined) return body;
  const sent = /^bytes (\d+)-(\d+)\//.exec(answer.ContentRange ?? '');
  const sentStart = sent === null ? 0 : Number(sent[1]);
  const sentEnd = sent === null ? Number.POSITIVE_INFINITY : Number(sent[2]);
  if (sentStart === range.start && sentEnd === range.end) return body;
  let skip = range.start - sentStart;
  let left = range.end - range.start + 1;
  const cut = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (left === 0) return done();
      const part = chunk.subarray(Math.min(skip, chunk.length));
      skip -= chunk.length - part.length;
      const kept = part.subarray(0, left);
      left -= kept.length;
      if (kept.length > 0) this.push(kept);
      if (left === 0) {
        this.push(null);
        body.destroy();
      }
      done();
    },
  });
  body.on('error', (error) => cut.destroy(error));
  return body.pipe(cut);
}

/**
 * Files in an S3-compatible bucket (`STORAGE=s3`), so that several server processes share media,
 * avatars and uploads. An object appears whole or not at all (S3 writes are atomic), and a write
 * is answered only once the bucket has acknowledged it, which S3 does once it is durable.
 */
export class S3FileStore implements FileStore {
  private readonly partBytes: number;

  constructor(private readonly options: S3FileStoreOptions) {
    this.partBytes = options.partBytes ?? S3_PART_BYTES;
  }

  async put(key: string, content: Readable): Promise<{ size: number }> {
    const objectKey = this.objectKey(key);
    const folder = path.join(this.options.spoolDir, ...key.split('/').slice(0, -1));
    await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
    // A crash leaves the spool file behind; `removeUnfinished` sweeps it.
    const spool = path.join(folder, `${crypto.randomBytes(8).toString('hex')}.partial`);
    try {
      await pipeline(content, fs.createWriteStream(spool, { flags: 'wx', mode: 0o600 }));
      const { size } = await fs.promises.stat(spool);
      await this.bucketCall(async () => {
        const { client, sdk } = await this.s3();
        if (size > this.partBytes) await this.putInParts(client, sdk, objectKey, spool, size);
        else await client.send(new sdk.PutObjectCommand({ Bucket: this.options.bucket, Key: objectKey, Body: fs.createReadStream(spool), ContentLength: size }));
      });
      return { size };
    } catch (error) {
      content.destroy();
      throw error;
    } finally {
      await fs.promises.rm(spool, { force: true });
    }
  }

  private async putInParts(client: S3Client, sdk: S3Sdk, objectKey: string, spool: string, size: number): Promise<void> {
    const { bucket } = this.options;
    const { UploadId } = await client.send(new sdk.CreateMultipartUploadCommand({ Bucket: bucket, Key: objectKey }));
    try {
      const parts: { PartNumber: number; ETag: string | undefined }[] = [];
      for (let start = 0; start < size; start += this.partBytes) {
        const end = Math.min(start + this.partBytes, size) - 1;
        const PartNumber = parts.length + 1;
        const answer = await client.send(
          new sdk.UploadPartCommand({ Bucket: bucket, Key: objectKey, UploadId, PartNumber, Body: fs.createReadStream(spool, { start, end }), ContentLength: end - start + 1 }),
        );
        parts.push({ PartNumber, ETag: answer.ETag });
      }
      await client.send(new sdk.CompleteMultipartUploadCommand({ Bucket: bucket, Key: objectKey, UploadId, MultipartUpload: { Parts: parts } }));
    } catch (error) {
      // An upload left open costs storage until the bucket's lifecycle rule clears it.
      await client.send(new sdk.AbortMultipartUploadCommand({ Bucket: bucket, Key: objectKey, UploadId })).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable | undefined> {
    const objectKey = this.objectKey(key);
    const answer = await this.bucketCall(async () => {
      const { client, sdk } = await this.s3();
      return client.send(new sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: objectKey, Range: range === undefined ? undefined : `bytes=${range.start}-${range.end}` }));
    }, true);
    return answer === undefined ? undefined : bodyOf(answer, range);
  }

  async open(key: string): Promise<OpenedFile | undefined> {
    const objectKey = this.objectKey(key);
    const head = await this.head(objectKey);
    if (head === undefined) return undefined;
    let taken = false;
    return {
      info: head.info,
      stream: (range) => {
        if (taken) throw new Error(`${key}: already streamed or closed`);
        taken = true;
        const out = new PassThrough();
        // If-Match: what is served is the version whose facts were read, or nothing (the stream fails).
        const input = { Bucket: this.options.bucket, Key: objectKey, IfMatch: head.etag, Range: range === undefined ? undefined : `bytes=${range.start}-${range.end}` };
        this.s3()
          .then(({ client, sdk }) => client.send(new sdk.GetObjectCommand(input)))
          .then(
            (answer) => {
              // Not every S3-compatible store honours If-Match: the answer's tag is checked too.
              if (answer.ETag !== head.etag) {
                (answer.Body as Readable).destroy();
                out.destroy(unreachable(`the bucket refused: PreconditionFailed (${key} changed since it was opened)`));
                return;
              }
              pipeline(bodyOf(answer, range), out).catch((error: unknown) => out.destroy(error as Error));
            },
            (error: unknown) => out.destroy(unreachable(describeS3Failure(error))),
          );
        return out;
      },
      close: () => {
        taken = true;
      },
    };
  }

  async stat(key: string): Promise<StoredFileInfo | undefined> {
    return (await this.head(this.objectKey(key)))?.info;
  }

  async delete(key: string): Promise<void> {
    const objectKey = this.objectKey(key);
    await this.bucketCall(async () => {
      const { client, sdk } = await this.s3();
      return client.send(new sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: objectKey }));
    }, true);
  }

  async *list(prefix: string): AsyncIterable<StoredFileInfo> {
    const { prefix: storePrefix } = this.options;
    let token: string | undefined;
    do {
      const input = { Bucket: this.options.bucket, Prefix: `${this.objectKey(prefix)}/`, ContinuationToken: token };
      const answer = await this.bucketCall(async () => {
        const { client, sdk } = await this.s3();
        return client.send(new sdk.ListObjectsV2Command(input));
      });
      for (const object of answer.Contents ?? []) {
        const key = object.Key?.slice(storePrefix.length);
        // Something another tool put there under a name the store would never choose: not ours.
        if (key === undefined || !isFileKey(key)) continue;
        yield { key, size: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0 };
      }
      token = answer.IsTruncated === true ? answer.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  /** Spool files of uploads a crash or a kill interrupted; the bucket itself never holds half an object. */
  async removeUnfinished(prefix: string, before: number): Promise<number> {
    assertFileKey(prefix);
    const folder = path.join(this.options.spoolDir, ...prefix.split('/'));
    const entries = await fs.promises.readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    let removed = 0;
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith('.partial')) continue;
      const file = path.join(entry.parentPath, entry.name);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (stat === undefined || stat.mtimeMs >= before) continue;
      await fs.promises.rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }

  close(): void {
    void Promise.resolve(this.options.client).then((client) => client.destroy());
  }

  /** The client and the SDK's commands, made and loaded on first use. */
  private async s3(): Promise<{ client: S3Client; sdk: S3Sdk }> {
    const [client, sdk] = await Promise.all([this.options.client, loadS3Sdk()]);
    return { client, sdk };
  }

  private async head(objectKey: string): Promise<{ info: StoredFileInfo; etag: string | undefined } | undefined> {
    const answer = await this.bucketCall(async () => {
      const { client, sdk } = await this.s3();
      return client.send(new sdk.HeadObjectCommand({ Bucket: this.options.bucket, Key: objectKey }));
    }, true);
    if (answer === undefined) return undefined;
    const info = { key: objectKey.slice(this.options.prefix.length), size: answer.ContentLength ?? 0, modifiedAt: answer.LastModified?.getTime() ?? 0 };
    return { info, etag: answer.ETag };
  }

  private objectKey(key: string): string {
    assertFileKey(key);
    return `${this.options.prefix}${key}`;
  }

  /** The bucket's answer; a missing object is undefined when `missingIsUndefined`, any other failure a 502 naming it. */
  private async bucketCall<T>(call: () => Promise<T>): Promise<T>;
  private async bucketCall<T>(call: () => Promise<T>, missingIsUndefined: true): Promise<T | undefined>;
  private async bucketCall<T>(call: () => Promise<T>, missingIsUndefined = false): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      if (missingIsUndefined && isS3NotFound(error)) return undefined;
      throw unreachable(describeS3Failure(error));
    }
  }
}
