import type { Kysely } from 'kysely';
import { createTableWithId, flag, notNull } from '../migration-helpers.js';

// In-app notifications (issue 15, part 4). A notification keeps its kind and the values its text
// is filled with (JSON), not the text: the web writes it from the shared catalogue in the reader's
// language of the moment. Its dedupe key (the event that made it: `due_soon:applicant:7:<due>`)
// is unique, so an event told twice, by a job run again or two processes at once, makes one row.
export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'sys_notification')
    .addColumn('user_id', 'integer', notNull)
    .addColumn('kind', 'varchar(32)', notNull)
    .addColumn('params', 'text', notNull)
    .addColumn('link', 'varchar(255)')
    .addColumn('dedupe_key', 'varchar(200)', notNull)
    .addColumn('create_time', 'bigint', notNull)
    .addColumn('read_time', 'bigint')
    .execute();
  await db.schema.createIndex('sys_notification_dedupe').on('sys_notification').column('dedupe_key').unique().execute();
  // The bell's list (unread first, newest first) and its count read by person.
  await db.schema.createIndex('sys_notification_user').on('sys_notification').columns(['user_id', 'read_time', 'id']).execute();

  // Only the kinds a person changed; a kind without a row is on.
  await db.schema
    .createTable('sys_notification_pref')
    .addColumn('user_id', 'integer', notNull)
    .addColumn('kind', 'varchar(32)', notNull)
    .addColumn('enabled', 'integer', flag)
    .addPrimaryKeyConstraint('sys_notification_pref_pk', ['user_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_notification_pref').execute();
  await db.schema.dropTable('sys_notification').execute();
}
