import crypto from 'node:crypto';
import path from 'node:path';
import { pipeline, type Readable } from 'node:stream';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { mapPage, type Page } from '@cloud-classroom/shared/http';
import { MEDIA_TYPES, type Media, type MediaKind, type MediaQuery, type MediaType } from '@cloud-classroom/shared/media';
import { checkPermission } from '@cloud-classroom/shared/permission';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { created } from '../../db/audit-columns.js';
import type { Database } from '../../db/schema.js';
import { conflict, forbidden, invalidInput, notFound, tooLarge } from '../../domain-error.js';
import { byteLimit } from '../../files/byte-limit.js';
import type { FileStore } from '../../files/file-store.js';
import type { FileType } from '../../files/file-type.js';
import type { FileOwner } from '../../files/orphan-files.js';
import type { Upload } from '../../files/upload.js';
import type { ServiceLog } from '../../service-log.js';
import type { AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/session.service.js';
import { mp4Duration, pdfPageCount, storedWebmDuration, UnreadableMedia } from './media-facts.js';
import { deleteMedia, findMediaByIds, findMediaKeysAmong, findMediaPage, insertMedia, type MediaRow } from './media.repo.js';
import type { MediaUsage } from './media-usage.js';

export type MediaOptions = {
  db: Kysely<Database>;
  files: FileStore;
  clock: Clock;
  log: ServiceLog;
  /** Asked whether a caller who is no learner of the file holds `course:list`. */
  access: AccessService;
  /** The courses' side of a file's use; a function, as the courses service is built after this one. */
  usage: () => MediaUsage;
};

/** Media files live under `<dataDir>/media/<yyyyMM>/`, named `<32 hex>.<extension>`. */
const MEDIA_FOLDER = 'media';
/** The stored file's extension, by its type. */
const EXTENSIONS: Record<MediaType, string> = { mp4: 'mp4', webm: 'webm', pdf: 'pdf', png: 'png', jpeg: 'jpg', webp: 'webp' };
/** The extensions a file of each type may be named with; a name with another says it is something else. */
const NAMED: Record<MediaType, readonly string[]> = {
  mp4: ['mp4', 'm4v'],
  webm: ['webm'],
  pdf: ['pdf'],
  png: ['png'],
  jpeg: ['jpg', 'jpeg', 'jpe', 'jfif'],
  webp: ['webp'],
};
/** Content types clients send for each type besides MEDIA_TYPES' own. */
const CLAIMED_ALIASES: Record<MediaType, readonly string[]> = {
  mp4: ['video/x-m4v'],
  webm: [],
  pdf: ['application/x-pdf'],
  png: [],
  jpeg: ['image/jpg', 'image/pjpeg'],
  webp: [],
};
/** Content types that claim nothing about the file. */
const UNCLAIMED = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);
/** What messages call a file of each type told from its bytes. */
const DESCRIBED: Record<Exclude<FileType, 'unknown'>, string> = {
  mp4: 'an mp4 video',
  webm: 'a webm video',
  pdf: 'a pdf document',
  png: 'a png image',
  jpeg: 'a jpeg image',
  webp: 'a webp image',
  gif: 'a gif file',
  zip: 'a zip archive (such as a Word, Excel or PowerPoint file)',
  mp3: 'an mp3 file',
};
const ACCEPTED = 'upload MP4 or WebM video, PDF, PNG, JPEG or WebP';
/**
 * pdf-lib reads a PDF whole, in memory, to count its pages: beyond this a PDF is refused while it
 * arrives, whatever MEDIA_MAX_MB allows. Training handouts are far smaller.
 */
export const PDF_MAX_BYTES = 200 * 1024 * 1024;
export const MEDIA_NAME_MAX_LENGTH = 200;

function isMediaType(type: FileType): type is MediaType {
  return Object.hasOwn(MEDIA_TYPES, type);
}

/** The name people gave the file: its last path segment, without control characters, at most 200 characters. */
function displayName(fileName: string, type: MediaType): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const name = (fileName.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (name === '' ? `${MEDIA_TYPES[type].kind}.${EXTENSIONS[type]}` : name).slice(0, MEDIA_NAME_MAX_LENGTH);
}

/** Refuses an upload whose name or content type says it is something other than what its bytes are. */
function checkClaims({ field, fileName, mimeType }: Upload, type: MediaType): void {
  const name = fileName.split(/[\\/]/).pop() ?? '';
  const extension = path.extname(name).slice(1).toLowerCase();
  if (extension !== '' && !NAMED[type].includes(extension)) {
    throw invalidInput(`${field}: the name says .${extension} but the content is ${DESCRIBED[type]}`);
  }
  const claimed = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!UNCLAIMED.has(claimed) && claimed !== MEDIA_TYPES[type].mime && !CLAIMED_ALIASES[type].includes(claimed)) {
    throw invalidInput(`${field}: the content type says ${claimed} but the content is ${DESCRIBED[type]}`);
  }
}

export function toMedia(row: MediaRow): Media {
  return {
    id: row.id,
    name: row.name,
    mime: row.mime,
    // Written only by this service, from MEDIA_TYPES.
    kind: row.kind as MediaKind,
    size: row.size,
    ...(row.duration_seconds === null ? {} : { durationSeconds: row.duration_seconds }),
    ...(row.pages === null ? {} : { pages: row.pages }),
    createBy: row.create_by,
    createTime: formatDateTime(row.create_time),
  };
}

/** A media file as the service keeps it, whoever hands it over (an upload, the demo data). */
export type MediaContent = { type: MediaType; name: string; content: Readable; by: string; now: number };

type Facts = { durationSeconds: number | null; pages: number | null };

async function readFacts(files: FileStore, key: string, type: MediaType, size: number): Promise<Facts> {
  switch (type) {
    case 'mp4':
      return { durationSeconds: await mp4Duration(files, key, size), pages: null };
    case 'webm':
      return { durationSeconds: await storedWebmDuration(files, key, size), pages: null };
    case 'pdf':
      return { durationSeconds: null, pages: await pdfPageCount(files, key, size) };
    default:
      return { durationSeconds: null, pages: null };
  }
}

/**
 * Stores a media file under a generated key, reads its facts back from the store (a video's
 * duration, a PDF's pages) and only then records it, so no row ever lacks its file or its facts.
 * Whatever fails, the stored file is removed. UnreadableMedia when the facts cannot be read.
 */
export async function storeMedia(db: Kysely<Database>, files: FileStore, { type, name, content, by, now }: MediaContent): Promise<Media> {
  const key = [MEDIA_FOLDER, formatDateTime(now, '{y}{m}'), `${crypto.randomBytes(16).toString('hex')}.${EXTENSIONS[type]}`].join('/');
  const { size } = await files.put(key, content);
  try {
    const facts = await readFacts(files, key, type, size);
    const { mime, kind } = MEDIA_TYPES[type];
    const row = await insertMedia(db, {
      name,
      mime,
      kind,
      size,
      file_key: key,
      duration_seconds: facts.durationSeconds,
      pages: facts.pages,
      ...created(by, now),
    });
    return toMedia(row);
  } catch (error) {
    await files.delete(key);
    throw error;
  }
}

/** A media file ready to be streamed. */
export type MediaToServe = { key: string; mime: string };

/** Media: the videos, PDFs and images lessons and course covers use, each stored once. */
export class MediaService {
  private readonly db: Kysely<Database>;

  constructor(private readonly options: MediaOptions) {
    this.db = options.db;
  }

  async find(id: number): Promise<Media | undefined> {
    return (await this.findMany([id]))[0];
  }

  /** The media of these ids that exist, in no particular order. */
  async findMany(ids: readonly number[]): Promise<Media[]> {
    return (await findMediaByIds(this.db, ids)).map(toMedia);
  }

  async page({ page, size, sort, q, kind }: MediaQuery): Promise<Page<Media>> {
    return mapPage(await findMediaPage(this.db, { q, kind }, { page, size, sort }), toMedia);
  }

  /** The whole filtered library, for its download. */
  async exportRows({ sort, q, kind }: MediaQuery): Promise<Media[]> {
    return (await findMediaPage(this.db, { q, kind }, { sort })).content.map(toMedia);
  }

  /**
   * Takes an uploaded video, PDF or picture: its type from its bytes, which its name and content
   * type must agree with; a video's duration and a PDF's pages read from the file itself.
   */
  async upload(upload: Upload, by: string): Promise<Media> {
    const { field, type } = upload;
    if (upload.empty) throw invalidInput(`${field}: is empty`);
    if (!isMediaType(type)) {
      const found = type === 'unknown' ? 'this kind of file' : DESCRIBED[type];
      throw invalidInput(`${field}: ${found} is not accepted; ${ACCEPTED}`);
    }
    checkClaims(upload, type);
    const content =
      type === 'pdf'
        ? pipeline(upload.content, byteLimit(PDF_MAX_BYTES, () => tooLarge(`${field}: is larger than ${formatFileSize(PDF_MAX_BYTES)}, the most a PDF may be`)), () => undefined)
        : upload.content;
    try {
      return await storeMedia(this.db, this.options.files, { type, name: displayName(upload.fileName, type), content, by, now: this.options.clock.now() });
    } catch (error) {
      if (!(error instanceof UnreadableMedia)) throw error;
      const what = type === 'pdf' ? 'the PDF cannot be read' : `the ${type} video's container cannot be read`;
      throw invalidInput(`${field}: ${what}`);
    }
  }

  /**
   * Removes the rows first, in one transaction, then the files: a file whose row is gone is never
   * served again, whatever happens to the file. Refused while a lesson or a cover uses any of them.
   */
  async delete(ids: readonly number[]): Promise<void> {
    const used = await this.options.usage().usedAmong(ids);
    if (used.length > 0) {
      const names = (await findMediaByIds(this.db, used)).map((row) => row.name);
      throw conflict(`ids: still used by a lesson or a course cover: ${names.join(', ')}`);
    }
    const rows = await this.db.transaction().execute(async (trx) => {
      const found = await findMediaByIds(trx, ids);
      const missing = ids.filter((id) => !found.some((row) => row.id === id));
      if (missing.length > 0) throw notFound(`ids: no media file ${missing.join(', ')}`);
      await deleteMedia(trx, ids);
      return found;
    });
    const removals = await Promise.allSettled(rows.map((row) => this.options.files.delete(row.file_key)));
    for (const removal of removals) {
      if (removal.status === 'rejected') this.options.log.warn({ err: removal.reason }, 'could not remove a deleted media file');
    }
  }

  /**
   * The file to stream to this caller: staff who hold `course:list` (administrators too) see any;
   * anyone else only what the courses let them study (`MediaUsage.readableBy`).
   */
  async contentFor(caller: Principal, id: number): Promise<MediaToServe> {
    const [row] = await findMediaByIds(this.db, [id]);
    if (row === undefined) throw notFound(`id: no media file ${id}`);
    const staff = caller.isAdmin || checkPermission(await this.options.access.menuPermissionsOf(caller.userId), ['course:list']);
    if (!staff && !(await this.options.usage().readableBy(caller.userId, id))) {
      throw forbidden('id: this media file belongs to a course you do not study');
    }
    return { key: row.file_key, mime: row.mime };
  }

  /** The media library's files in the file store, for the sweep of files no row refers to. */
  readonly mediaFiles: FileOwner = {
    folder: MEDIA_FOLDER,
    referenced: async (keys) => new Set(await findMediaKeysAmong(this.db, keys)),
  };
}
