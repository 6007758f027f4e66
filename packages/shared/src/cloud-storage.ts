import { z } from 'zod';
import { createTimeRangeSchema, idSchema, pageQuerySchema, REQUIRED, sortableBy } from './http.js';

// Cloud object storage (SPEC §7 `/api/qiNiuContent`): one S3-compatible bucket (MinIO, AWS S3,
// Aliyun OSS, Tencent COS, Qiniu's S3 API) that staff upload files to, list, sync from the bucket,
// download through short-lived signed links, and delete. The secret key is write-only: the server
// keeps it encrypted with `STORAGE_SECRET_KEY` and never sends it back.

/** The largest file `POST api/qiNiuContent` takes. */
export const CLOUD_FILE_MAX_MB = 512;
/** How long a download link from `GET api/qiNiuContent/download/{id}` works. */
export const CLOUD_LINK_SECONDS = 300;

const httpUrl = z
  .string(REQUIRED)
  .trim()
  .min(1, 'is required')
  .max(255)
  .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an http:// or https:// address without a query')
  .transform((url) => url.replace(/\/+$/, ''));

/** `PUT api/qiNiuContent/config`. A blank or absent `secretKey` keeps the one saved. */
export const cloudConfigUpdateSchema = z.object({
  endpoint: httpUrl,
  region: z.string(REQUIRED).trim().min(1, 'is required').max(64).regex(/^[A-Za-z0-9-]+$/, 'letters, digits and - only, such as us-east-1'),
  bucket: z
    .string(REQUIRED)
    .trim()
    .min(3, 'must be 3 to 63 characters')
    .max(63, 'must be 3 to 63 characters')
    .regex(/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/, 'lower-case letters, digits, . and - only'),
  accessKey: z.string(REQUIRED).trim().min(1, 'is required').max(128),
  secretKey: z.string().trim().max(256).optional(),
  /** Path-style addresses (`endpoint/bucket/key`), as MinIO needs; off: `bucket.endpoint/key`. */
  pathStyle: z.boolean().default(true),
  /** Where the bucket's files are public (a CDN or the bucket's own site), for links; blank: none. */
  publicDomain: z
    .string()
    .trim()
    .max(255)
    .regex(/^(https?:\/\/[^\s/?#]+(\/[^\s?#]*)?)?$/, 'must be an http:// or https:// address without a query, or blank')
    .optional()
    .transform((domain) => (domain === '' || domain === undefined ? null : domain.replace(/\/+$/, ''))),
});
export type CloudConfigUpdate = z.output<typeof cloudConfigUpdateSchema>;
export type CloudConfigInput = z.input<typeof cloudConfigUpdateSchema>;

/** `GET api/qiNiuContent/config`: the settings without the secret key. */
export const cloudConfigSchema = z.object({
  endpoint: z.string(),
  region: z.string(),
  bucket: z.string(),
  accessKey: z.string(),
  pathStyle: z.boolean(),
  publicDomain: z.string().nullable(),
  /** Whether a secret key is saved (it is never shown). */
  secretKeySet: z.boolean(),
  /** Whether the server can keep a secret key at all (`STORAGE_SECRET_KEY` is set). */
  secretsEnabled: z.boolean(),
  /** Whether anything is configured yet. */
  configured: z.boolean(),
});
export type CloudConfig = z.infer<typeof cloudConfigSchema>;

/** A file in the bucket as the list shows it. */
export const cloudFileSchema = z.object({
  id: z.number().int(),
  /** The object's key in the bucket. */
  key: z.string(),
  /** The file's name (the key's last segment without the upload's random prefix). */
  name: z.string(),
  bucket: z.string(),
  suffix: z.string(),
  size: z.number().int(),
  /** Its public address when a public domain is set, else null (download through a signed link). */
  url: z.string().nullable(),
  createBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type CloudFile = z.infer<typeof cloudFileSchema>;

export const CLOUD_FILE_SORT_FIELDS = ['id', 'name', 'suffix', 'size', 'createTime', 'updateTime'] as const;

/** `GET api/qiNiuContent`. */
export const cloudFileQuerySchema = pageQuerySchema.extend({
  blurry: z.string().trim().max(100).optional(),
  createTime: createTimeRangeSchema.optional(),
  sort: sortableBy(CLOUD_FILE_SORT_FIELDS),
});
export type CloudFileQuery = z.output<typeof cloudFileQuerySchema>;

export const cloudFileIdsSchema = z.array(idSchema).min(1, 'is required').max(1000);

/** `GET api/qiNiuContent/download/{id}`: a signed link that works for `CLOUD_LINK_SECONDS`. */
export const cloudLinkSchema = z.object({ url: z.string(), expiresAt: z.string() });
export type CloudLink = z.infer<typeof cloudLinkSchema>;

/** `POST api/qiNiuContent/synchronize`: how the list changed to match the bucket. */
export const cloudSyncSchema = z.object({ added: z.number().int(), updated: z.number().int(), removed: z.number().int() });
export type CloudSync = z.infer<typeof cloudSyncSchema>;
