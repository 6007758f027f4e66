import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  CLOUD_FILE_MAX_MB,
  CLOUD_LINK_SECONDS,
  type CloudConfig,
  type CloudConfigUpdate,
  type CloudFile,
  type CloudFileQuery,
  type CloudLink,
  type CloudSync,
} from '@cloud-classroom/shared/cloud-storage';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { mapPage, type Page } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { contentDisposition } from '../../http/content-disposition.js';
import { created } from '../../db/audit-columns.js';
import type { Database } from '../../db/schema.js';
import { conflict, invalidInput, notFound, unreachable } from '../../domain-error.js';
import { createS3Client, describeS3Failure, loadS3Sdk, type S3Sdk } from '../../files/s3-bucket.js';
import type { Upload } from '../../files/upload.js';
import type { ServiceLog } from '../../service-log.js';
import {
  deleteCloudFiles,
  findBucketFiles,
  findCloudFile,
  findCloudFilePage,
  findCloudFilesByIds,
  insertCloudFile,
  readCloudSettings,
  updateCloudFileSize,
  writeCloudSettings,
  type CloudFileRow,
} from './cloud-storage.repo.js';
import { open, seal } from './secret-box.js';

export const CLOUD_FILE_MAX_BYTES = CLOUD_FILE_MAX_MB * 1024 * 1024;

/** The settings as saved: the secret key sealed (`secret-box.ts`). */
type SavedSettings = Omit<CloudConfigUpdate, 'secretKey'> & { sealedSecret: string | null };

export type CloudStorageOptions = {
  db: Kysely<Database>;
  clock: Clock;
  log: ServiceLog;
  /** STORAGE_SECRET_KEY: without it no secret key is saved, and so no bucket is reached. */
  secretKey: string | undefined;
  /** Where an upload waits while it is sent on (its size must be known first). */
  spoolDir: string;
};

/** The last path segment of an uploaded file's name, without control characters, at most 200 characters. */
function cleanName(fileName: string): string {
  const last = fileName.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean.slice(-200);
}

const suffixOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase().slice(0, 32) : '';
};

/** A key's file name: its last segment without the `<16 hex>-` an upload puts before it. */
const nameOfKey = (key: string) => (key.split('/').pop() ?? key).replace(/^[0-9a-f]{16}-/, '').slice(-255) || key.slice(-255);

/** A 502 naming what the bucket said. */
const bucketFailure = (error: unknown): Error => unreachable(describeS3Failure(error));

/** 云存储: one S3-compatible bucket, its settings, and the rows that list what is in it. */
export class CloudStorageService {
  constructor(private readonly options: CloudStorageOptions) {}

  private async saved(): Promise<SavedSettings | undefined> {
    const value = await readCloudSettings(this.options.db);
    return value === undefined ? undefined : (JSON.parse(value) as SavedSettings);
  }

  async config(): Promise<CloudConfig> {
    const saved = await this.saved();
    const secretsEnabled = this.options.secretKey !== undefined;
    if (saved === undefined) {
      return { endpoint: '', region: 'us-east-1', bucket: '', accessKey: '', pathStyle: true, publicDomain: null, secretKeySet: false, secretsEnabled, configured: false };
    }
    const { sealedSecret, ...shown } = saved;
    return { ...shown, secretKeySet: sealedSecret !== null, secretsEnabled, configured: true };
  }

  async saveConfig(update: CloudConfigUpdate): Promise<CloudConfig> {
    const { secretKey, ...settings } = update;
    const saved = await this.saved();
    let sealedSecret = saved?.sealedSecret ?? null;
    if (secretKey !== undefined && secretKey !== '') {
      if (this.options.secretKey === undefined) {
        throw invalidInput('secretKey: cannot be saved: the server has no STORAGE_SECRET_KEY to encrypt it with (set it and restart)');
      }
      sealedSecret = seal(this.options.secretKey, secretKey);
    } else if (sealedSecret === null) {
      throw invalidInput('secretKey: is required');
    }
    await writeCloudSettings(this.options.db, JSON.stringify({ ...settings, sealedSecret } satisfies SavedSettings), this.options.clock.now());
    return this.config();
  }

  /** The client for the saved bucket; refuses (409) when none is configured or its secret cannot be read. */
  private async bucket(): Promise<{ client: S3Client; sdk: S3Sdk; settings: SavedSettings }> {
    const settings = await this.saved();
    if (settings === undefined || settings.sealedSecret === null) throw conflict('cloud storage is not configured yet');
    if (this.options.secretKey === undefined) throw conflict('cloud storage needs STORAGE_SECRET_KEY on the server to read its secret key');
    const secretAccessKey = open(this.options.secretKey, settings.sealedSecret);
    if (secretAccessKey === undefined) throw conflict('secretKey: the saved secret key cannot be read with this STORAGE_SECRET_KEY; enter it again');
    const client = await createS3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      bucket: settings.bucket,
      pathStyle: settings.pathStyle,
      accessKeyId: settings.accessKey,
      secretAccessKey,
    });
    return { client, sdk: await loadS3Sdk(), settings };
  }

  private async using<T>(work: (bucket: { client: S3Client; sdk: S3Sdk; settings: SavedSettings }) => Promise<T>): Promise<T> {
    const bucket = await this.bucket();
    try {
      return await work(bucket);
    } finally {
      bucket.client.destroy();
    }
  }

  private toFile(row: CloudFileRow, publicDomain: string | null): CloudFile {
    const url = publicDomain === null ? null : `${publicDomain}/${row.object_key.split('/').map(encodeURIComponent).join('/')}`;
    return {
      id: row.id,
      key: row.object_key,
      name: row.name,
      bucket: row.bucket,
      suffix: row.suffix,
      size: Number(row.size),
      url,
      createBy: row.create_by,
      createTime: formatDateTime(row.create_time),
      updateTime: formatDateTime(row.update_time),
    };
  }

  /** The configured bucket's files; an empty page before one is configured. */
  async page(query: CloudFileQuery): Promise<Page<CloudFile>> {
    const settings = await this.saved();
    if (settings === undefined) return { content: [], totalElements: 0 };
    const page = await findCloudFilePage(this.options.db, settings.bucket, query, query);
    return mapPage(page, (row) => this.toFile(row, settings.publicDomain));
  }

  /** Checks the settings reach the bucket (HeadBucket). */
  async check(): Promise<void> {
    await this.using(async ({ client, sdk, settings }) => {
      try {
        await client.send(new sdk.HeadBucketCommand({ Bucket: settings.bucket }));
      } catch (error) {
        throw bucketFailure(error);
      }
    });
  }

  /** Sends the upload to the bucket under `<yyyyMM>/<16 hex>-<name>` and lists it. */
  async upload(upload: Upload, by: string): Promise<CloudFile> {
    const name = cleanName(upload.fileName);
    if (name === '' || upload.empty) {
      upload.content.resume();
      throw invalidInput(`${upload.field}: ${name === '' ? 'has no file name' : 'is empty'}`);
    }
    return this.using(async ({ client, sdk, settings }) => {
      const now = this.options.clock.now();
      const key = `${formatDateTime(now, '{y}{m}')}/${crypto.randomBytes(8).toString('hex')}-${name}`;
      // S3 needs the length before the body: the upload waits in a file of its own while it arrives.
      fs.mkdirSync(this.options.spoolDir, { recursive: true });
      const spool = path.join(this.options.spoolDir, `${crypto.randomBytes(16).toString('hex')}.part`);
      try {
        await pipeline(upload.content, fs.createWriteStream(spool, { mode: 0o600 }));
        const size = fs.statSync(spool).size;
        try {
          await client.send(
            new sdk.PutObjectCommand({
              Bucket: settings.bucket,
              Key: key,
              Body: fs.createReadStream(spool),
              ContentLength: size,
              ContentType: upload.mimeType || 'application/octet-stream',
            }),
          );
        } catch (error) {
          throw bucketFailure(error);
        }
        const row = await insertCloudFile(this.options.db, { bucket: settings.bucket, object_key: key, name, suffix: suffixOf(name), size, ...created(by, now) });
        return this.toFile(row, settings.publicDomain);
      } finally {
        fs.rmSync(spool, { force: true });
      }
    });
  }

  /** A link that downloads the file for `CLOUD_LINK_SECONDS`, signed with the bucket's keys. */
  async link(id: number): Promise<CloudLink> {
    const row = await findCloudFile(this.options.db, id);
    if (row === undefined) throw notFound('id: no such file');
    return this.using(async ({ client, sdk }) => {
      const command = new sdk.GetObjectCommand({ Bucket: row.bucket, Key: row.object_key, ResponseContentDisposition: contentDisposition('attachment', row.name) });
      const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
      const url = await getSignedUrl(client, command, { expiresIn: CLOUD_LINK_SECONDS });
      return { url, expiresAt: formatDateTime(this.options.clock.now() + CLOUD_LINK_SECONDS * 1000) };
    });
  }

  /** Makes the list match the bucket: objects not listed are added, gone ones removed, sizes updated. */
  async synchronize(by: string): Promise<CloudSync> {
    return this.using(async ({ client, sdk, settings }) => {
      const inBucket = new Map<string, number>();
      try {
        let token: string | undefined;
        do {
          const answer = await client.send(new sdk.ListObjectsV2Command({ Bucket: settings.bucket, ContinuationToken: token }));
          for (const object of answer.Contents ?? []) if (object.Key !== undefined && !object.Key.endsWith('/')) inBucket.set(object.Key, object.Size ?? 0);
          token = answer.IsTruncated === true ? answer.NextContinuationToken : undefined;
        } while (token !== undefined);
      } catch (error) {
        throw bucketFailure(error);
      }
      const now = this.options.clock.now();
      const known = await findBucketFiles(this.options.db, settings.bucket);
      const result: CloudSync = { added: 0, updated: 0, removed: 0 };
      const gone: number[] = [];
      for (const row of known) {
        const size = inBucket.get(row.object_key);
        if (size === undefined) gone.push(row.id);
        else if (size !== Number(row.size)) {
          await updateCloudFileSize(this.options.db, row.id, size, by, now);
          result.updated += 1;
        }
        inBucket.delete(row.object_key);
      }
      await deleteCloudFiles(this.options.db, gone);
      result.removed = gone.length;
      for (const [key, size] of inBucket) {
        const name = nameOfKey(key);
        await insertCloudFile(this.options.db, { bucket: settings.bucket, object_key: key, name, suffix: suffixOf(name), size, ...created(by, now) });
        result.added += 1;
      }
      return result;
    });
  }

  /** Deletes the files from the bucket, then their rows. */
  async delete(ids: readonly number[]): Promise<void> {
    const rows = await findCloudFilesByIds(this.options.db, ids);
    if (rows.length === 0) return;
    await this.using(async ({ client, sdk }) => {
      const byBucket = new Map<string, CloudFileRow[]>();
      for (const row of rows) byBucket.set(row.bucket, [...(byBucket.get(row.bucket) ?? []), row]);
      for (const [bucket, files] of byBucket) {
        try {
          const answer = await client.send(new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: files.map((row) => ({ Key: row.object_key })), Quiet: true } }));
          const failed = (answer.Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
          if (failed.length > 0) throw unreachable(`the bucket refused to delete ${failed.map((error) => `${error.Key}: ${error.Code}`).join(', ')}`);
        } catch (error) {
          if (error instanceof Error && error.name === 'DomainError') throw error;
          throw bucketFailure(error);
        }
      }
    });
    await deleteCloudFiles(this.options.db, rows.map((row) => row.id));
  }
}
