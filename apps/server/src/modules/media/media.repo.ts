import type { Page } from '@cloud-classroom/shared/http';
import type { MEDIA_SORT_FIELDS, MediaKind } from '@cloud-classroom/shared/media';
import type { Insertable, Kysely, Selectable } from 'kysely';
import { contains } from '../../db/list-filters.js';
import { paginate, type ListRequest, type Ordering } from '../../db/paginate.js';
import type { Database, MediaTable } from '../../db/schema.js';

export type MediaRow = Selectable<MediaTable>;
type SortField = (typeof MEDIA_SORT_FIELDS)[number];
export type MediaFilter = { q?: string | undefined; kind?: MediaKind | undefined };

/** Newest first unless asked otherwise: the picker shows what was just uploaded on top. */
const ORDERING: Ordering<SortField> = {
  sortable: { id: 'id', name: 'name', size: 'size', createTime: 'create_time' } satisfies Record<SortField, keyof MediaTable>,
  byDefault: [['id', 'desc']],
  tiebreak: [['id', 'asc']],
};

export async function findMediaByIds(db: Kysely<Database>, ids: readonly number[]): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('edu_media').selectAll().where('id', 'in', ids).execute();
}

export async function findMediaPage(db: Kysely<Database>, { q, kind }: MediaFilter, request: ListRequest): Promise<Page<MediaRow>> {
  let query = db.selectFrom('edu_media');
  if (q) query = query.where(contains(['name'], q));
  if (kind) query = query.where('kind', '=', kind);
  return paginate(query, (matching) => matching.selectAll(), ORDERING, request);
}

export async function insertMedia(db: Kysely<Database>, media: Insertable<MediaTable>): Promise<MediaRow> {
  return db.insertInto('edu_media').values(media).returningAll().executeTakeFirstOrThrow();
}

export async function deleteMedia(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('edu_media').where('id', 'in', ids).execute();
}

/** Which of these file keys a media row has. */
export async function findMediaKeysAmong(db: Kysely<Database>, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  return (await db.selectFrom('edu_media').select('file_key').where('file_key', 'in', [...keys]).execute()).map((row) => row.file_key);
}
