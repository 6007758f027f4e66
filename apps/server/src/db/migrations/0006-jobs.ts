import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from '../dialect.js';

const notNull = (col: ColumnDefinitionBuilder) => col.notNull();

// Background jobs (jobs/job-runner.ts): a row per job, claimed by one runner at a time.
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('sys_job')
    .addColumn('id', pg ? 'bigserial' : 'integer', (col) => (pg ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('name', 'varchar(100)', notNull)
    .addColumn('payload', 'text', notNull)
    // queued → running → done, or back to queued for a retry, or failed after the last attempt.
    .addColumn('state', 'varchar(16)', notNull)
    .addColumn('run_at', 'bigint', notNull)
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', notNull)
    .addColumn('last_error', 'text')
    .addColumn('dedupe_key', 'varchar(200)')
    .addColumn('locked_by', 'varchar(64)')
    .addColumn('locked_until', 'bigint')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addColumn('finished_at', 'bigint')
    .execute();
  // What a runner polls for: due queued jobs, and running ones whose lease ran out.
  await db.schema.createIndex('sys_job_due').on('sys_job').columns(['state', 'run_at']).execute();
  // One unfinished job per dedupe key; a finished one does not stop the key being used again.
  await db.schema
    .createIndex('sys_job_dedupe')
    .on('sys_job')
    .column('dedupe_key')
    .unique()
    .where(sql.ref('state'), 'in', ['queued', 'running'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_job').execute();
}
