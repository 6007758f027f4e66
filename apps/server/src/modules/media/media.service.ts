import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Media, MediaKind } from '@cloud-classroom/shared/media';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { FileStore } from '../../files/file-store.js';
import type { ServiceLog } from '../../service-log.js';
import { findMediaByIds, type MediaRow } from './media.repo.js';
import type { MediaUsage } from './media-usage.js';

export type MediaOptions = {
  db: Kysely<Database>;
  files: FileStore;
  clock: Clock;
  log: ServiceLog;
  /** The courses' side of a file's use; a function, as the courses service is built after this one. */
  usage: () => MediaUsage;
};

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

/** Media: the videos, PDFs and images lessons and course covers use, each stored once. */
export class MediaService {
  constructor(private readonly options: MediaOptions) {}

  async find(id: number): Promise<Media | undefined> {
    return (await this.findMany([id]))[0];
  }

  /** The media of these ids that exist, in no particular order. */
  async findMany(ids: readonly number[]): Promise<Media[]> {
    return (await findMediaByIds(this.options.db, ids)).map(toMedia);
  }
}
