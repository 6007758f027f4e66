import crypto from 'node:crypto';
import path from 'node:path';
import { pipeline, type Readable } from 'node:stream';
import {
  DEPLOY_EXTENSIONS,
  deployUploadFieldsSchema,
  type DeployExtension,
  type DeployPackage,
  type DeployPlatform,
  type DeployQuery,
  type DeployUpdate,
  type DeployUploadFields,
  type PublicPackage,
  type PublicPackageVersion,
} from '@cloud-classroom/shared/deploy';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { mapPage, type Page } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { changed, created } from '../../db/audit-columns.js';
import { isUniqueViolation } from '../../db/constraint-violation.js';
import type { Database } from '../../db/schema.js';
import { conflict, invalidInput, notFound } from '../../domain-error.js';
import type { FileStore } from '../../files/file-store.js';
import type { FileType } from '../../files/file-type.js';
import type { FileOwner } from '../../files/orphan-files.js';
import { sha256Digest } from '../../files/sha256-digest.js';
import type { Upload } from '../../files/upload.js';
import type { ServiceLog } from '../../service-log.js';
import {
  countDownload,
  deletePackages,
  findAllPackages,
  findPackageKeysAmong,
  findPackagePage,
  findPackagesByIds,
  insertPackage,
  updatePackage,
  versionTaken,
  type DeployPackageRow,
} from './deploy.repo.js';

export type DeployOptions = { db: Kysely<Database>; files: FileStore; clock: Clock; log: ServiceLog };

/**
 * Packages live under `<dataDir>/deploy/<yyyyMM>/<32 hex>`: a name the server chose, with no
 * extension, as nothing on the server ever opens or runs them; the download offers the name they
 * were uploaded with.
 */
const DEPLOY_FOLDER = 'deploy';
const FILE_NAME_MAX_LENGTH = 255;

/** What the first bytes must be for the extensions that say (the others are installers of many formats). */
const EXPECTED_CONTENT: Partial<Record<DeployExtension, FileType>> = {
  pdf: 'pdf',
  zip: 'zip',
  // Android, iOS and MSIX packages are zip archives.
  apk: 'zip',
  aab: 'zip',
  ipa: 'zip',
  msix: 'zip',
};

const publicFileUrl = (id: number) => `api/public/downloads/${id}/file`;

function isDeployExtension(extension: string): extension is DeployExtension {
  return (DEPLOY_EXTENSIONS as readonly string[]).includes(extension);
}

/** The name as people gave it: its last path segment, without control characters. */
function cleanFileName(fileName: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  return (fileName.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(-FILE_NAME_MAX_LENGTH);
}

function toPackage(row: DeployPackageRow): DeployPackage {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    // Written only by this service, from DEPLOY_PLATFORMS.
    platform: row.platform as DeployPlatform,
    releaseNotes: row.release_notes,
    fileName: row.file_name,
    size: row.size,
    sha256: row.sha256,
    downloads: row.downloads,
    createBy: row.create_by,
    createTime: formatDateTime(row.create_time),
    updateTime: formatDateTime(row.update_time),
  };
}

function toPublicVersion(row: DeployPackageRow): PublicPackageVersion {
  return {
    id: row.id,
    version: row.version,
    releaseNotes: row.release_notes,
    fileName: row.file_name,
    size: row.size,
    sha256: row.sha256,
    createTime: formatDateTime(row.create_time),
    url: publicFileUrl(row.id),
  };
}

const versionConflict = ({ name, platform, version }: DeployUploadFields) => conflict(`version: ${name} ${version} for ${platform} is published already`);

/** A package's version as the service stores it, whoever hands it over (an upload, the demo data). */
export type PackageContent = { fields: DeployUploadFields; fileName: string; content: Readable; by: string; now: number };

/**
 * Stores the file under a generated key, hashing it on the way, and only then records it, so no
 * row lacks its file or its checksum; whatever fails (the size limit, a version published
 * meanwhile), the stored file is removed and no row is left.
 */
export async function storePackage(db: Kysely<Database>, files: FileStore, { fields, fileName, content, by, now }: PackageContent): Promise<DeployPackage> {
  const key = [DEPLOY_FOLDER, formatDateTime(now, '{y}{m}'), crypto.randomBytes(16).toString('hex')].join('/');
  const digest = sha256Digest();
  const { size } = await files.put(key, pipeline(content, digest.stream, () => undefined));
  try {
    const row = await insertPackage(db, {
      name: fields.name,
      version: fields.version,
      platform: fields.platform,
      release_notes: fields.releaseNotes,
      file_name: fileName,
      file_key: key,
      size,
      sha256: digest.hex(),
      ...created(by, now),
    });
    return toPackage(row);
  } catch (error) {
    await files.delete(key);
    if (isUniqueViolation(error)) throw versionConflict(fields);
    throw error;
  }
}

/** A version's file ready to be sent. */
export type PackageToServe = { key: string; fileName: string };

/** Installation media: versions of packages staff publish and anyone may download from `/download`. */
export class DeployService {
  private readonly db: Kysely<Database>;

  constructor(private readonly options: DeployOptions) {
    this.db = options.db;
  }

  async page({ page, size, sort, blurry, platform, createTime }: DeployQuery): Promise<Page<DeployPackage>> {
    return mapPage(await findPackagePage(this.db, { blurry, platform, createTime }, { page, size, sort }), toPackage);
  }

  async exportRows({ sort, blurry, platform, createTime }: DeployQuery): Promise<DeployPackage[]> {
    return (await findPackagePage(this.db, { blurry, platform, createTime }, { sort })).content.map(toPackage);
  }

  /**
   * Takes an uploaded version: the text fields (sent before the file) are checked first, and a
   * version already published is refused, before a byte is stored; then the file's name must
   * be of an accepted kind and its first bytes must agree with what the name says.
   */
  async upload(upload: Upload, by: string): Promise<DeployPackage> {
    const parsed = deployUploadFieldsSchema.safeParse(upload.fields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalidInput(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'is not valid'}`);
    }
    const fields = parsed.data;
    const { field } = upload;
    const fileName = cleanFileName(upload.fileName);
    const extension = path.extname(fileName).slice(1).toLowerCase();
    if (!isDeployExtension(extension)) throw invalidInput(`${field}: only ${DEPLOY_EXTENSIONS.map((one) => `.${one}`).join(', ')} files are accepted`);
    if (upload.empty) throw invalidInput(`${field}: is empty`);
    const expected = EXPECTED_CONTENT[extension];
    if (expected !== undefined && upload.type !== expected) throw invalidInput(`${field}: the content is not a .${extension} file`);
    if (await versionTaken(this.db, fields.name, fields.platform, fields.version)) throw versionConflict(fields);
    return storePackage(this.db, this.options.files, { fields, fileName, content: upload.content, by, now: this.options.clock.now() });
  }

  async update({ id, ...fields }: DeployUpdate, by: string): Promise<void> {
    if (await versionTaken(this.db, fields.name, fields.platform, fields.version, id)) throw versionConflict(fields);
    try {
      const found = await updatePackage(this.db, id, {
        name: fields.name,
        version: fields.version,
        platform: fields.platform,
        release_notes: fields.releaseNotes,
        ...changed(by, this.options.clock.now()),
      });
      if (!found) throw notFound(`id: no package ${id}`);
    } catch (error) {
      if (isUniqueViolation(error)) throw versionConflict(fields);
      throw error;
    }
  }

  /** Removes the rows first, in one transaction, then the files: a file whose row is gone is never served again. */
  async delete(ids: readonly number[]): Promise<void> {
    const rows = await this.db.transaction().execute(async (trx) => {
      const found = await findPackagesByIds(trx, ids);
      const missing = ids.filter((id) => !found.some((row) => row.id === id));
      if (missing.length > 0) throw notFound(`ids: no package ${missing.join(', ')}`);
      await deletePackages(trx, ids);
      return found;
    });
    const removals = await Promise.allSettled(rows.map((row) => this.options.files.delete(row.file_key)));
    for (const removal of removals) {
      if (removal.status === 'rejected') this.options.log.warn({ err: removal.reason }, 'could not remove a deleted package file');
    }
  }

  /** The public page's list: each package (a name on a platform) with its latest version and the older ones. */
  async published(): Promise<PublicPackage[]> {
    const packages: PublicPackage[] = [];
    for (const row of await findAllPackages(this.db)) {
      const last = packages.at(-1);
      if (last !== undefined && last.name === row.name && last.platform === row.platform) last.older.push(toPublicVersion(row));
      else packages.push({ name: row.name, platform: row.platform as DeployPlatform, latest: toPublicVersion(row), older: [] });
    }
    return packages;
  }

  /** The file of a published version, for anyone. */
  async fileFor(id: number): Promise<PackageToServe> {
    const [row] = await findPackagesByIds(this.db, [id]);
    if (row === undefined) throw notFound(`id: no package ${id}`);
    return { key: row.file_key, fileName: row.file_name };
  }

  /** One more download of the version (a request from its first byte). */
  async countDownload(id: number): Promise<void> {
    await countDownload(this.db, id);
  }

  /** The packages' files in the file store, for the sweep of files no row refers to. */
  readonly packageFiles: FileOwner = {
    folder: DEPLOY_FOLDER,
    referenced: async (keys) => new Set(await findPackageKeysAmong(this.db, keys)),
  };
}
