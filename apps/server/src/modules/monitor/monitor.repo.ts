import { sql, type Kysely } from 'kysely';
import type { DatabaseDialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/** The database engine's version and how much space the data takes, in bytes. */
export async function databaseFigures(db: Kysely<Database>, dialect: DatabaseDialect): Promise<{ version: string; size: number }> {
  const query =
    dialect === 'postgres'
      ? sql<{ version: string; size: number | string }>`select current_setting('server_version') as version, pg_database_size(current_database()) as size`
      : sql<{ version: string; size: number | string }>`select sqlite_version() as version, (select page_count from pragma_page_count()) * (select page_size from pragma_page_size()) as size`;
  const { rows } = await query.execute(db);
  const row = rows[0];
  return { version: row?.version ?? '', size: Number(row?.size ?? 0) };
}
