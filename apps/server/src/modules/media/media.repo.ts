import type { Kysely, Selectable } from 'kysely';
import type { Database, MediaTable } from '../../db/schema.js';

export type MediaRow = Selectable<MediaTable>;

export async function findMediaByIds(db: Kysely<Database>, ids: readonly number[]): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('edu_media').selectAll().where('id', 'in', ids).execute();
}
