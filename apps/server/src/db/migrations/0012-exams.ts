import type { Kysely } from 'kysely';
import { addMenus, createAuditedTable, createTableWithId, crudButtons, flag, grantMenusToRole, notNull, pageMenu, type MenuSpec } from '../migration-helpers.js';
import { COURSE_ROLES } from './0010-courses.js';

// The question bank and exam design (DESIGN §6, §10): questions with their knowledge-point tags
// and images, exams with their paper (JSON: sections of fixed questions and draw rules; the fixed
// questions also as rows, so a question in use cannot be deleted), and the people assigned an
// exam with their personal overrides (department, role and term rules live in
// edu_assignment_rule, whose exam_id the enrolment migration made ready). Plus the exam menus
// (`question:*`, `exam:*`) for the roles that have the course menus.

export const EXAM_MENUS: MenuSpec[] = [
  {
    title: '考试中心',
    titleEn: 'Exams',
    type: 0,
    path: 'exam',
    icon: 'skill',
    // Beside the courses (after them: same sort, later id), before the system menus.
    sort: 0,
    children: [
      pageMenu(['题库管理', 'Question bank'], 'question', 'exam/question/index', 'ExamQuestion', 'edit', 'question:list', {
        children: crudButtons('question', '试题', 'question'),
      }),
      pageMenu(['考试列表', 'Exam list'], 'exam', 'exam/exam/index', 'ExamExam', 'documentation', 'exam:list', {
        sort: 2,
        children: crudButtons('exam', '考试', 'exam'),
      }),
    ],
  },
];

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, EXAM_MENUS, Date.now());
  for (const role of COURSE_ROLES) await grantMenusToRole(db, role, menus.inserted);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createAuditedTable(db, 'edu_question')
    .addColumn('type', 'varchar(8)', notNull)
    /** Sanitised HTML. */
    .addColumn('stem', 'text', notNull)
    /** The stem's plain text, for searching and lists. */
    .addColumn('stem_text', 'text', notNull)
    /** SHA-256 (hex) of the type and the normalised stem text: questions sharing it are duplicates. */
    .addColumn('stem_key', 'varchar(64)', notNull)
    /** JSON: [{ key, text }]. */
    .addColumn('options', 'text', notNull)
    /** JSON: option keys, a list of accepted answers per blank, or the reference answer. */
    .addColumn('answer', 'text', notNull)
    /** JSON BlankRules for blanks, else null. */
    .addColumn('blank_rules', 'text')
    .addColumn('analysis', 'text', notNull)
    .addColumn('difficulty', 'integer', notNull)
    .addColumn('score', 'double precision', notNull)
    .addColumn('policy', 'varchar(24)')
    .execute();
  await db.schema.createIndex('edu_question_stem_key').on('edu_question').column('stem_key').execute();
  await db.schema.createIndex('edu_question_type_difficulty').on('edu_question').columns(['type', 'difficulty']).execute();

  await createTableWithId(db, 'edu_tag').addColumn('name', 'varchar(30)', (col) => col.notNull().unique()).execute();
  await createTableWithId(db, 'edu_question_tag')
    .addColumn('question_id', 'integer', notNull)
    .addColumn('tag_id', 'integer', notNull)
    .execute();
  await db.schema.createIndex('edu_question_tag_pair').on('edu_question_tag').columns(['question_id', 'tag_id']).unique().execute();
  await db.schema.createIndex('edu_question_tag_tag').on('edu_question_tag').column('tag_id').execute();

  // Images put in stems and analyses, stored through the file store.
  await createAuditedTable(db, 'edu_question_image')
    .addColumn('mime', 'varchar(100)', notNull)
    .addColumn('size', 'bigint', notNull)
    .addColumn('file_key', 'varchar(200)', (col) => col.notNull().unique())
    .execute();

  await createAuditedTable(db, 'edu_exam')
    .addColumn('title', 'varchar(100)', notNull)
    .addColumn('course_id', 'integer')
    .addColumn('term_id', 'integer')
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('description', 'text', notNull)
    /** JSON Paper: sections of fixed question ids and draw rules. */
    .addColumn('paper', 'text', notNull)
    .addColumn('total_score', 'double precision', notNull)
    .addColumn('question_count', 'integer', notNull)
    .addColumn('open_at', 'bigint')
    .addColumn('close_at', 'bigint')
    .addColumn('limit_minutes', 'integer')
    .addColumn('attempts', 'integer', notNull)
    .addColumn('counts', 'varchar(8)', notNull)
    .addColumn('pass_score', 'double precision', notNull)
    .addColumn('shuffle_questions', 'integer', flag)
    .addColumn('shuffle_options', 'integer', flag)
    .addColumn('review', 'varchar(16)', notNull)
    .execute();
  await db.schema.createIndex('edu_exam_course').on('edu_exam').column('course_id').execute();

  // The paper's fixed questions, one row each (the JSON keeps their order and sections).
  await createTableWithId(db, 'edu_exam_question')
    .addColumn('exam_id', 'integer', notNull)
    .addColumn('question_id', 'integer', notNull)
    .execute();
  await db.schema.createIndex('edu_exam_question_pair').on('edu_exam_question').columns(['exam_id', 'question_id']).unique().execute();
  await db.schema.createIndex('edu_exam_question_question').on('edu_exam_question').column('question_id').execute();

  await createTableWithId(db, 'edu_exam_assignee')
    .addColumn('exam_id', 'integer', notNull)
    .addColumn('user_id', 'integer', notNull)
    /** 'staff' | 'rule'. */
    .addColumn('source', 'varchar(8)', notNull)
    .addColumn('rule_id', 'integer')
    .addColumn('due_at', 'bigint')
    .addColumn('extra_minutes', 'integer', flag)
    .addColumn('extra_attempts', 'integer', flag)
    /** A personal window replacing the exam's. */
    .addColumn('open_at', 'bigint')
    .addColumn('close_at', 'bigint')
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', notNull)
    .addColumn('update_time', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('edu_exam_assignee_pair').on('edu_exam_assignee').columns(['exam_id', 'user_id']).unique().execute();
  await db.schema.createIndex('edu_exam_assignee_user').on('edu_exam_assignee').column('user_id').execute();
  await db.schema.createIndex('edu_exam_assignee_rule').on('edu_exam_assignee').column('rule_id').execute();
  await db.schema.createIndex('edu_assignment_rule_exam').on('edu_assignment_rule').column('exam_id').execute();

  await referenceData(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('edu_assignment_rule_exam').execute();
  for (const table of ['edu_exam_assignee', 'edu_exam_question', 'edu_exam', 'edu_question_image', 'edu_question_tag', 'edu_tag', 'edu_question']) {
    await db.schema.dropTable(table).execute();
  }
}
