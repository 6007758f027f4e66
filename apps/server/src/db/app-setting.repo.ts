import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Reads a setting, creating it first if missing. Several processes starting at once on one
 * PostgreSQL database all end up with the value the first one wrote.
 */
export async function getOrCreateSetting(db: Kysely<Database>, key: string, create: () => string): Promise<string> {
  await db
    .insertInto('app_setting')
    .values({ key, value: create(), updated_at: Date.now() })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('app_setting').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
