import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { mapPage, type Page } from '@cloud-classroom/shared/http';
import {
  formatFileSize,
  STORABLE_FILE_TYPES,
  STORAGE_NAME_MAX_LENGTH,
  type FileCategory,
  type LocalStorage,
  type LocalStorageQuery,
  type LocalStorageRename,
  type StorableExtension,
} from '@cloud-classroom/shared/storage';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { invalidInput, notFound } from '../../domain-error.js';
import { ContentCheck } from './file-content.js';
import {
  deleteStoredFiles,
  findStoredFileByPath,
  findStoredFiles,
  findStoredFilesByIds,
  insertStoredFile,
  renameStoredFile,
  type StoredFile,
} from './storage.repo.js';
import { created } from '../../db/audit-columns.js';

/** Stored files live under `<dataDir>/files/<yyyyMM>/`, named `<32 hex>.<extension>`. */
const FILES_FOLDER = 'files';
const MONTH = /^\d{6}$/;
const STORED_NAME = /^[a-f0-9]{32}\.[a-z0-9]+$/;

export type Upload = {
  /** The name the client sent; only its last path segment and extension are used. */
  fileName: string;
  content: Readable;
};

export type UploadRules = {
  extensions: readonly StorableExtension[];
  maxBytes: number;
};

/** A stored file ready to be streamed. */
export type FileToServe = {
  /** Relative to `root`. */
  path: string;
  root: string;
  mime: string;
  /** The name to offer, for documents; images and media are shown as they are. */
  downloadName: string | undefined;
};

function isStorable(extension: string): extension is StorableExtension {
  return Object.hasOwn(STORABLE_FILE_TYPES, extension);
}

const baseName = (fileName: string) => fileName.split(/[\\/]/).pop() ?? '';

function toLocalStorage(row: StoredFile): LocalStorage {
  const [, month = ''] = row.path.split('/');
  return {
    id: row.id,
    realName: row.real_name,
    name: row.name,
    suffix: row.suffix,
    // Written only by store(), from STORABLE_FILE_TYPES.
    type: row.type as FileCategory,
    size: formatFileSize(row.size),
    bytes: row.size,
    url: `/file/${month}/${row.real_name}`,
    createBy: row.create_by,
    updateBy: row.update_by,
    createTime: formatDateTime(row.create_time),
    updateTime: formatDateTime(row.update_time),
  };
}

/** Local storage: uploaded files on the server's disk, with a row each in sys_local_storage. */
export class StorageService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dataDir: string,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {}

  async page({ page, size, sort, blurry, createTime }: LocalStorageQuery): Promise<Page<LocalStorage>> {
    return mapPage(await findStoredFiles(this.db, { blurry, createTime }, { page, size, sort }), toLocalStorage);
  }

  async export({ sort, blurry, createTime }: LocalStorageQuery): Promise<LocalStorage[]> {
    return (await findStoredFiles(this.db, { blurry, createTime }, { sort })).content.map(toLocalStorage);
  }

  /**
   * Writes the upload under a generated name, checking its content on the way, then records it.
   * Whatever fails, no file is left behind.
   */
  async store(upload: Upload, rules: UploadRules, by: string, displayName?: string): Promise<LocalStorage> {
    const originalName = baseName(upload.fileName);
    const extension = path.extname(originalName).slice(1).toLowerCase();
    if (!isStorable(extension) || !rules.extensions.includes(extension)) {
      upload.content.destroy();
      throw invalidInput(`file: only ${rules.extensions.join(', ')} files are accepted`);
    }
    const now = this.clock.now();
    const relativePath = [FILES_FOLDER, formatDateTime(now, '{y}{m}'), `${crypto.randomBytes(16).toString('hex')}.${extension}`].join('/');
    const absolutePath = path.join(this.dataDir, relativePath);
    const check = new ContentCheck(extension, rules.maxBytes);
    try {
      await fs.promises.mkdir(path.dirname(absolutePath), { recursive: true, mode: 0o700 });
      // flush: the row that follows must never point at a file a crash could still lose.
      await pipeline(upload.content, check, fs.createWriteStream(absolutePath, { flags: 'wx', flush: true, mode: 0o600 }));
      const row = await insertStoredFile(this.db, {
        real_name: path.basename(relativePath),
        name: displayName || originalName.slice(0, STORAGE_NAME_MAX_LENGTH),
        suffix: extension,
        path: relativePath,
        type: STORABLE_FILE_TYPES[extension].category,
        size: check.size,
        ...created(by, now),
      });
      return toLocalStorage(row);
    } catch (error) {
      upload.content.destroy();
      await fs.promises.rm(absolutePath, { force: true });
      throw error;
    }
  }

  async rename({ id, name }: LocalStorageRename, by: string): Promise<void> {
    if (!(await renameStoredFile(this.db, id, name, { by, time: this.clock.now() }))) {
      throw notFound(`id: no stored file ${id}`);
    }
  }

  /** Removes the rows first: a file whose row is gone can no longer be served, whatever happens to the file. */
  async delete(ids: readonly number[]): Promise<void> {
    const rows = await this.db.transaction().execute(async (trx) => {
      const found = await findStoredFilesByIds(trx, ids);
      const missing = ids.filter((id) => !found.some((row) => row.id === id));
      if (missing.length > 0) throw notFound(`id: no stored file ${missing.join(', ')}`);
      await deleteStoredFiles(trx, ids);
      return found;
    });
    const removals = await Promise.allSettled(rows.map((row) => fs.promises.rm(path.join(this.dataDir, row.path), { force: true })));
    for (const removal of removals) {
      if (removal.status === 'rejected') this.log.warn({ err: removal.reason }, 'could not remove a deleted stored file');
    }
  }

  /** The stored file at `/file/<month>/<name>`, if the name is one we generate and the file is still recorded and on disk. */
  async fileAt(month: string, name: string): Promise<FileToServe | undefined> {
    if (!MONTH.test(month) || !STORED_NAME.test(name)) return undefined;
    const row = await findStoredFileByPath(this.db, [FILES_FOLDER, month, name].join('/'));
    if (row === undefined || !isStorable(row.suffix)) return undefined;
    const stat = await fs.promises.stat(path.join(this.dataDir, row.path)).catch(() => undefined);
    if (!stat?.isFile()) return undefined;
    const { mime, category } = STORABLE_FILE_TYPES[row.suffix];
    const extension = `.${row.suffix}`;
    return {
      path: row.path,
      root: this.dataDir,
      mime,
      downloadName: category === '文档' ? (row.name.toLowerCase().endsWith(extension) ? row.name : `${row.name}${extension}`) : undefined,
    };
  }
}
