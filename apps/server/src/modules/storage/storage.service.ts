import crypto from 'node:crypto';
import path from 'node:path';
import { pipeline, type Readable } from 'node:stream';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { mapPage, type Page } from '@cloud-classroom/shared/http';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import {
  STORABLE_FILE_TYPES,
  STORAGE_NAME_MAX_LENGTH,
  type FileCategory,
  type LocalStorage,
  type LocalStorageQuery,
  type LocalStorageRename,
  type StorableExtension,
} from '@cloud-classroom/shared/storage';
import type { ServiceLog } from '../../service-log.js';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { invalidInput, notFound, tooLarge } from '../../domain-error.js';
import { byteLimit } from '../../files/byte-limit.js';
import type { FileStore } from '../../files/file-store.js';
import { textOnly, type FileType } from '../../files/file-type.js';
import type { FileOwner } from '../../files/orphan-files.js';
import type { Upload } from '../../files/upload.js';
import {
  deleteStoredFiles,
  findStoredFileByPath,
  findStoredFiles,
  findStoredFilesByIds,
  findStoredPathsAmong,
  insertStoredFile,
  renameStoredFile,
  sumStoredBytesBy,
  type StoredFile,
} from './storage.repo.js';
import { created } from '../../db/audit-columns.js';

/** Stored files live under `<dataDir>/files/<yyyyMM>/`, named `<32 hex>.<extension>`. */
const FILES_FOLDER = 'files';
const MONTH = /^\d{6}$/;
const STORED_NAME = /^[a-f0-9]{32}\.[a-z0-9]+$/;

/** How a content must begin for each extension (`detectFileType`); 'text' means UTF-8 without NUL bytes. */
const EXPECTED_CONTENT: Record<StorableExtension, FileType | 'text'> = {
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  gif: 'gif',
  webp: 'webp',
  pdf: 'pdf',
  // docx, xlsx and pptx are zip archives; their extension says which.
  docx: 'zip',
  xlsx: 'zip',
  pptx: 'zip',
  txt: 'text',
  csv: 'text',
  md: 'text',
  mp3: 'mp3',
  mp4: 'mp4',
};

/** A stored file ready to be streamed. */
export type FileToServe = {
  key: string;
  mime: string;
  /** The name to offer, for documents; images and media are shown as they are. */
  downloadName: string | undefined;
};

export type StorageOptions = {
  db: Kysely<Database>;
  files: FileStore;
  /** The most one user's uploads may take together. */
  quotaBytes: number;
  log: ServiceLog;
  clock: Clock;
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
  private readonly db: Kysely<Database>;

  constructor(private readonly options: StorageOptions) {
    this.db = options.db;
  }

  async page({ page, size, sort, blurry, createTime }: LocalStorageQuery): Promise<Page<LocalStorage>> {
    return mapPage(await findStoredFiles(this.db, { blurry, createTime }, { page, size, sort }), toLocalStorage);
  }

  async export({ sort, blurry, createTime }: LocalStorageQuery): Promise<LocalStorage[]> {
    return (await findStoredFiles(this.db, { blurry, createTime }, { sort })).content.map(toLocalStorage);
  }

  /**
   * Stores the upload under a generated name, checking on the way that it is what its extension
   * says and within the uploader's quota, then records it. Whatever fails, no file is left behind.
   */
  async store(upload: Upload, extensions: readonly StorableExtension[], by: string, displayName?: string): Promise<LocalStorage> {
    const { field } = upload;
    const originalName = baseName(upload.fileName);
    const extension = path.extname(originalName).slice(1).toLowerCase();
    if (!isStorable(extension) || !extensions.includes(extension)) {
      throw invalidInput(`${field}: only ${extensions.join(', ')} files are accepted`);
    }
    if (upload.empty) throw invalidInput(`${field}: is empty`);
    const expected = EXPECTED_CONTENT[extension];
    const mismatch = () => invalidInput(`${field}: the content is not a .${extension} file`);
    if (expected !== 'text' && upload.type !== expected) throw mismatch();
    const { quotaBytes } = this.options;
    const used = await sumStoredBytesBy(this.db, by);
    const overQuota = () =>
      tooLarge(`${field}: would go over the upload quota of ${formatFileSize(quotaBytes)} per user (${formatFileSize(used)} used)`);
    if (used >= quotaBytes) throw overQuota();

    const now = this.options.clock.now();
    const key = [FILES_FOLDER, formatDateTime(now, '{y}{m}'), `${crypto.randomBytes(16).toString('hex')}.${extension}`].join('/');
    const checks = [...(expected === 'text' ? [textOnly(mismatch)] : []), byteLimit(quotaBytes - used, overQuota)];
    // The checks fail the stream as soon as they know, so a refused upload is not written out in full.
    const content: Readable = checks.reduce<Readable>((source, check) => pipeline(source, check, () => undefined), upload.content);
    const { size } = await this.options.files.put(key, content);
    try {
      const row = await insertStoredFile(this.db, {
        real_name: path.basename(key),
        name: displayName || originalName.slice(0, STORAGE_NAME_MAX_LENGTH),
        suffix: extension,
        path: key,
        type: STORABLE_FILE_TYPES[extension].category,
        size,
        ...created(by, now),
      });
      return toLocalStorage(row);
    } catch (error) {
      await this.options.files.delete(key);
      throw error;
    }
  }

  async rename({ id, name }: LocalStorageRename, by: string): Promise<void> {
    if (!(await renameStoredFile(this.db, id, name, { by, time: this.options.clock.now() }))) {
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
    const removals = await Promise.allSettled(rows.map((row) => this.options.files.delete(row.path)));
    for (const removal of removals) {
      if (removal.status === 'rejected') this.options.log.warn({ err: removal.reason }, 'could not remove a deleted stored file');
    }
  }

  /** The stored file at `/file/<month>/<name>`, if the name is one we generate and the file is still recorded and on disk. */
  async fileAt(month: string, name: string): Promise<FileToServe | undefined> {
    if (!MONTH.test(month) || !STORED_NAME.test(name)) return undefined;
    const row = await findStoredFileByPath(this.db, [FILES_FOLDER, month, name].join('/'));
    if (row === undefined || !isStorable(row.suffix)) return undefined;
    const { mime, category } = STORABLE_FILE_TYPES[row.suffix];
    const extension = `.${row.suffix}`;
    return {
      key: row.path,
      mime,
      downloadName: category === '文档' ? (row.name.toLowerCase().endsWith(extension) ? row.name : `${row.name}${extension}`) : undefined,
    };
  }

  /** Local storage's files in the file store, for the sweep of files no row refers to. */
  readonly storedFiles: FileOwner = {
    folder: FILES_FOLDER,
    referenced: async (keys) => new Set(await findStoredPathsAmong(this.db, keys)),
  };
}
