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

/** SQLite's journal, page and cache settings, read through its table-valued pragmas. */
export async function sqliteSettings(db: Kysely<Database>): Promise<{ journalMode: string; pageSize: number; cacheSize: number; autoCheckpoint: number }> {
  const { rows } = await sql<{ journal_mode: string; page_size: number; cache_size: number }>`select
      (select journal_mode from pragma_journal_mode()) as journal_mode,
      (select page_size from pragma_page_size()) as page_size,
      (select cache_size from pragma_cache_size()) as cache_size`.execute(db);
  // Not a table-valued pragma: asked as itself (it reads, with no argument).
  const checkpoint = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
  const row = rows[0];
  return {
    journalMode: row?.journal_mode ?? '',
    pageSize: Number(row?.page_size ?? 0),
    cacheSize: Number(row?.cache_size ?? 0),
    autoCheckpoint: Number(checkpoint.rows[0]?.wal_autocheckpoint ?? 0),
  };
}
