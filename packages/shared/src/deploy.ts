import { z } from 'zod';
import { createTimeRangeSchema, idSchema, pageQuerySchema, REQUIRED, sortableBy } from './http.js';

// Installation media (SPEC §2 `/download`, §7 `api/deploy/upload`): packages staff publish for
// people to download — a desktop or mobile client, an offline course pack, a user guide. Each
// upload is one version of a package (a name on a platform); older versions are kept.

/** `any`: a package for every platform (a course pack, a PDF guide). */
export const DEPLOY_PLATFORMS = ['windows', 'macos', 'linux', 'android', 'ios', 'any'] as const;
export type DeployPlatform = (typeof DEPLOY_PLATFORMS)[number];

/**
 * The file names a package may have, by their last extension: installers, archives and documents.
 * Nothing a browser would open in place as a page or script (the file is offered as a download anyway).
 */
export const DEPLOY_EXTENSIONS = ['exe', 'msi', 'msix', 'dmg', 'pkg', 'apk', 'aab', 'ipa', 'deb', 'rpm', 'appimage', 'zip', '7z', 'gz', 'tgz', 'pdf'] as const;
export type DeployExtension = (typeof DEPLOY_EXTENSIONS)[number];

/** The default of `DEPLOY_MAX_MB`, the largest package `POST api/deploy/upload` takes. */
export const DEPLOY_MAX_MB_DEFAULT = 2048;

export const DEPLOY_NAME_MAX_LENGTH = 100;
export const DEPLOY_VERSION_MAX_LENGTH = 50;
export const DEPLOY_NOTES_MAX_LENGTH = 4000;

/** What a version may be made of, as the server says it (the web shows its own words for it). */
export const DEPLOY_VERSION_MESSAGE = 'letters, digits and . + _ - only, such as 2.1.0 or 2024.1-beta';

const name = z.string(REQUIRED).trim().min(1, 'is required').max(DEPLOY_NAME_MAX_LENGTH);
const version = z
  .string(REQUIRED)
  .trim()
  .min(1, 'is required')
  .max(DEPLOY_VERSION_MAX_LENGTH)
  .regex(/^[0-9A-Za-z][0-9A-Za-z.+_-]*$/, DEPLOY_VERSION_MESSAGE);
const platform = z.enum(DEPLOY_PLATFORMS, { error: `must be one of ${DEPLOY_PLATFORMS.join(', ')}` });
const releaseNotes = z.string().trim().max(DEPLOY_NOTES_MAX_LENGTH).default('');

/**
 * The text fields of `POST api/deploy/upload` (multipart/form-data, each field before the file
 * part `file`): the server reads them first and refuses bad ones before a byte of the file is stored.
 */
export const deployUploadFieldsSchema = z.object({ name, version, platform, releaseNotes });
export type DeployUploadFields = z.output<typeof deployUploadFieldsSchema>;

/** `PUT api/deploy`: what describes a version; its file and checksum never change. */
export const deployUpdateSchema = z.object({ id: idSchema, name, version, platform, releaseNotes });
export type DeployUpdate = z.output<typeof deployUpdateSchema>;

/** A published version as staff see it. */
export const deployPackageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  version: z.string(),
  platform: z.enum(DEPLOY_PLATFORMS),
  releaseNotes: z.string(),
  /** The name it was uploaded with, which the download offers. */
  fileName: z.string(),
  size: z.number().int(),
  /** SHA-256 of the bytes, lower-case hex, computed by the server as they arrived. */
  sha256: z.string(),
  /** Downloads started (requests from the first byte). */
  downloads: z.number().int(),
  createBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type DeployPackage = z.infer<typeof deployPackageSchema>;

export const DEPLOY_SORT_FIELDS = ['id', 'name', 'version', 'platform', 'size', 'downloads', 'createTime'] as const;

/** `GET api/deploy` (and its `/download` workbook). */
export const deployQuerySchema = pageQuerySchema.extend({
  blurry: z.string().trim().max(100).optional(),
  platform: z.enum(DEPLOY_PLATFORMS).optional(),
  createTime: createTimeRangeSchema.optional(),
  sort: sortableBy(DEPLOY_SORT_FIELDS),
});
export type DeployQuery = z.output<typeof deployQuerySchema>;

export const deployIdsSchema = z.array(idSchema).min(1, 'is required').max(1000);

/** One version on the public page. */
export const publicPackageVersionSchema = z.object({
  id: z.number().int(),
  version: z.string(),
  releaseNotes: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  createTime: z.string(),
  /** Where it downloads from (`api/public/downloads/{id}/file`). */
  url: z.string(),
});
export type PublicPackageVersion = z.infer<typeof publicPackageVersionSchema>;

/**
 * `GET api/public/downloads` (no login): each package (a name on a platform) with its latest
 * version — the one published last — and the older ones, newest first.
 */
export const publicPackageSchema = z.object({
  name: z.string(),
  platform: z.enum(DEPLOY_PLATFORMS),
  latest: publicPackageVersionSchema,
  older: z.array(publicPackageVersionSchema),
});
export type PublicPackage = z.infer<typeof publicPackageSchema>;
export const publicPackagesSchema = z.array(publicPackageSchema);
