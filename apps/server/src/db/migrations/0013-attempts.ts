import type { Kysely } from 'kysely';
import { addMenus, createTableWithId, flag, grantMenusToRole, notNull, type MenuSpec } from '../migration-helpers.js';
import { COURSE_ROLES } from './0010-courses.js';

// Taking exams (DESIGN §6, §10): attempts with their frozen paper and server-fixed deadline, one
// answer row per question of the paper (made at start, so a save is one conditional update and
// the marking queue is a read), the integrity timeline, and the audit of every score change
// (marks, overrides, regrades). Plus the marking buttons (`mark:list`, `mark:edit`) under the exam
// list, for the roles that have the course menus.

/** The marking permissions: buttons of the exam list page. */
export const MARKING_BUTTONS: MenuSpec[] = [
  { title: '阅卷查看', titleEn: 'View marking', type: 2, permission: 'mark:list' },
  { title: '阅卷评分', titleEn: 'Mark answers', type: 2, permission: 'mark:edit' },
];

/** The buttons under the exam list page, which addMenus finds by its component (and its directory by path). */
export const MARKING_MENUS: MenuSpec[] = [
  {
    title: '考试中心',
    titleEn: 'Exams',
    type: 0,
    path: 'exam',
    children: [
      {
        title: '考试列表',
        titleEn: 'Exam list',
        type: 1,
        path: 'exam',
        component: 'exam/exam/index',
        children: MARKING_BUTTONS,
      },
    ],
  },
];

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, MARKING_MENUS, Date.now());
  for (const role of COURSE_ROLES) await grantMenusToRole(db, role, menus.inserted);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'edu_attempt')
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
    /** JSON: the questions in this attempt's order, their sections, points and option order. */
    .addColumn('paper', 'text', notNull)
    .addColumn('ip', 'varchar(64)', notNull)
    .addColumn('agent', 'varchar(255)', notNull)
    .addColumn('update_time', 'bigint', notNull)
    .execute();
  // One attempt number per person and exam: two starts racing make one attempt, not two.
  await db.schema.createIndex('edu_attempt_person').on('edu_attempt').columns(['exam_id', 'user_id', 'number']).unique().execute();
  await db.schema.createIndex('edu_attempt_user').on('edu_attempt').column('user_id').execute();
  await db.schema.createIndex('edu_attempt_state').on('edu_attempt').columns(['exam_id', 'state']).execute();

  await createTableWithId(db, 'edu_attempt_answer')
    .addColumn('attempt_id', 'integer', notNull)
    .addColumn('question_id', 'integer', notNull)
    .addColumn('position', 'integer', notNull)
    .addColumn('max_score', 'double precision', notNull)
    .addColumn('response', 'text')
    .addColumn('revision', 'integer', flag)
    .addColumn('saved_at', 'bigint')
    .addColumn('seconds', 'integer', flag)
    .addColumn('auto_score', 'double precision')
    .addColumn('manual_score', 'double precision')
    .addColumn('score', 'double precision')
    .addColumn('correct', 'integer')
    .addColumn('comment', 'text')
    .addColumn('marked_by', 'varchar(64)')
    .addColumn('marked_at', 'bigint')
    .execute();
  await db.schema.createIndex('edu_attempt_answer_pair').on('edu_attempt_answer').columns(['attempt_id', 'question_id']).unique().execute();
  // Marking by question and regrading a question read every answer to it.
  await db.schema.createIndex('edu_attempt_answer_question').on('edu_attempt_answer').column('question_id').execute();

  await createTableWithId(db, 'edu_attempt_event')
    .addColumn('attempt_id', 'integer', notNull)
    .addColumn('type', 'varchar(24)', notNull)
    .addColumn('at', 'bigint', notNull)
    .addColumn('question_id', 'integer')
    .addColumn('detail', 'varchar(200)', notNull)
    .execute();
  await db.schema.createIndex('edu_attempt_event_attempt').on('edu_attempt_event').columns(['attempt_id', 'at']).execute();

  await createTableWithId(db, 'edu_score_change')
    .addColumn('attempt_id', 'integer', notNull)
    .addColumn('answer_id', 'integer', notNull)
    .addColumn('question_id', 'integer', notNull)
    .addColumn('kind', 'varchar(8)', notNull)
    .addColumn('old_score', 'double precision')
    .addColumn('new_score', 'double precision')
    .addColumn('reason', 'varchar(500)', notNull)
    .addColumn('create_by', 'varchar(64)', notNull)
    .addColumn('create_time', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('edu_score_change_attempt').on('edu_score_change').column('attempt_id').execute();

  await referenceData(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['edu_score_change', 'edu_attempt_event', 'edu_attempt_answer', 'edu_attempt']) {
    await db.schema.dropTable(table).execute();
  }
}
