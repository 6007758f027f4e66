import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';
import { createTableWithId, notNull } from '../migration-helpers.js';

// SQLite stores a row's values in column order, the first few hundred bytes on the table's page
// and the rest on overflow pages. An attempt's frozen paper (some 4 KB for 50 questions) came
// before `ip`, `agent` and `update_time`, so every change of an attempt's result (a submission,
// a mark, a regrade of thousands of attempts) also rewrote the paper's overflow page, for the
// new update_time: more than half the pages a large regrade wrote and checkpointed. With the
// paper last, a change of the small columns writes the row's own page only. PostgreSQL keeps a
// large value out of the row (TOAST) wherever it stands: nothing to do there.

/** Every column but the paper, in their order (the paper follows them). */
const COLUMNS = ['id', 'exam_id', 'user_id', 'number', 'state', 'started_at', 'deadline', 'submitted_at', 'submitted_by', 'score', 'passed', 'ip', 'agent', 'update_time'];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  // Kysely runs SQLite migrations outside a transaction: one here, so a crash leaves the old table.
  await db.transaction().execute(async (trx) => {
    await createTableWithId(trx, 'edu_attempt_paper_last')
      .addColumn('exam_id', 'integer', notNull)
      .addColumn('user_id', 'integer', notNull)
      .addColumn('number', 'integer', notNull)
      .addColumn('state', 'varchar(16)', notNull)
      .addColumn('started_at', 'bigint', notNull)
      .addColumn('deadline', 'bigint')
      .addColumn('submitted_at', 'bigint')
      .addColumn('submitted_by', 'varchar(8)')
      .addColumn('score', 'double precision')
      .addColumn('passed', 'integer')
      .addColumn('ip', 'varchar(64)', notNull)
      .addColumn('agent', 'varchar(255)', notNull)
      .addColumn('update_time', 'bigint', notNull)
      /** JSON: the questions in this attempt's order, their sections, points and option order. */
      .addColumn('paper', 'text', notNull)
      .execute();
    const columns = sql.join([...COLUMNS, 'paper'].map((column) => sql.ref(column)));
    await sql`insert into edu_attempt_paper_last (${columns}) select ${columns} from edu_attempt`.execute(trx);
    // Ids are never reused (AUTOINCREMENT), also those of attempts deleted since: the counter goes along.
    await sql`delete from sqlite_sequence where name = 'edu_attempt_paper_last'`.execute(trx);
    await sql`insert into sqlite_sequence (name, seq) select 'edu_attempt_paper_last', seq from sqlite_sequence where name = 'edu_attempt'`.execute(trx);
    await trx.schema.dropTable('edu_attempt').execute();
    await trx.schema.alterTable('edu_attempt_paper_last').renameTo('edu_attempt').execute();
    await trx.schema.createIndex('edu_attempt_person').on('edu_attempt').columns(['exam_id', 'user_id', 'number']).unique().execute();
    await trx.schema.createIndex('edu_attempt_user').on('edu_attempt').column('user_id').execute();
    await trx.schema.createIndex('edu_attempt_state').on('edu_attempt').columns(['exam_id', 'state']).execute();
  });
}

/** Nothing to undo: the columns are the same in either order. */
export async function down(): Promise<void> {}
