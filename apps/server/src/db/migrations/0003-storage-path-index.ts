import type { Kysely } from 'kysely';

// Every GET /file/… looks its file up by path; stored names are generated and never repeat.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('sys_local_storage_path').on('sys_local_storage').column('path').unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sys_local_storage_path').execute();
}
