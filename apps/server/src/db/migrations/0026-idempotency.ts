import type { Kysely } from 'kysely';
import { notNull } from '../migration-helpers.js';

// Once-only writes (DESIGN §11, issue 30): the first answer to each person's Idempotency-Key,
// kept 24 hours, so a double click or a retry of the same action gets that answer again instead
// of doing the work twice. In the database, so every process sees the key another one claimed.
// `status` is null while the first request still runs.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sys_idempotency')
    .addColumn('user_id', 'integer', notNull)
    .addColumn('idem_key', 'varchar(64)', notNull)
    .addColumn('request_hash', 'varchar(64)', notNull)
    .addColumn('status', 'integer')
    .addColumn('content_type', 'varchar(255)')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('body', 'text')
    .addPrimaryKeyConstraint('sys_idempotency_pk', ['user_id', 'idem_key'])
    .execute();
  // The purge of keys past their 24 hours.
  await db.schema.createIndex('sys_idempotency_created').on('sys_idempotency').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_idempotency').execute();
}
