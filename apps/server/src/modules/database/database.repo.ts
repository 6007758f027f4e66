import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

const SCHEDULE_KEY = 'database.backup_schedule';

/** The backup schedule as saved (JSON), or undefined before anyone saved one. */
export async function readScheduleSetting(db: Kysely<Database>): Promise<string | undefined> {
  const row = await db.selectFrom('app_setting').select('value').where('key', '=', SCHEDULE_KEY).executeTakeFirst();
  return row?.value;
}

export async function writeScheduleSetting(db: Kysely<Database>, value: string, now: number): Promise<void> {
  await db
    .insertInto('app_setting')
    .values({ key: SCHEDULE_KEY, value, updated_at: now })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();
}

/** The migrations the live database holds (Kysely's bookkeeping table, in the search path's schema). */
export async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((row) => row.name);
}
