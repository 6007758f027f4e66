import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The smallest round trip the database answers. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
