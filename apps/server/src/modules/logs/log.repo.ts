import type { Insertable, Kysely } from 'kysely';
import type { Database, LogTable } from '../../db/schema.js';

export async function insertLog(db: Kysely<Database>, entry: Insertable<LogTable>): Promise<void> {
  await db.insertInto('sys_log').values(entry).execute();
}
