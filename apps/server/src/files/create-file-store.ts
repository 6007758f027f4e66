import path from 'node:path';
import type { Config } from '../config.js';
import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-file-store.js';
import { createS3Client } from './s3-bucket.js';
import { S3FileStore } from './s3-file-store.js';

/** Where `STORAGE=s3` spools an upload while it arrives, under DATA_DIR. */
export const S3_SPOOL_FOLDER = 'upload-spool';

/** The store the configuration names (`STORAGE`): folders under DATA_DIR, or the `S3_*` bucket. */
export function createFileStore(config: Pick<Config, 'dataDir' | 'storage'>): FileStore {
  const { storage } = config;
  if (storage.kind === 'local') return new LocalFileStore(config.dataDir);
  // The client arrives as a promise (`createS3Client` loads the SDK first): only STORAGE=s3 loads it at start.
  return new S3FileStore({ client: createS3Client(storage.bucket), bucket: storage.bucket.bucket, prefix: storage.prefix, spoolDir: path.join(config.dataDir, S3_SPOOL_FOLDER) });
}
