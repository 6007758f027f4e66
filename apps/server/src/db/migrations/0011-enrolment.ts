import type { Kysely } from 'kysely';
import { addMenus, createAuditedTable, createTableWithId, crudButtons, flag, grantMenusToRole, notNull, pageMenu, type MenuSpec } from '../migration-helpers.js';
import { COURSE_MENUS, COURSE_ROLES } from './0010-courses.js';

// Enrolment and progress (DESIGN §6, §10): assignment rules, the applicant's link to the rule
// that made it and its completion, which lessons a course requires, the learner's progress per
// lesson (merged watched intervals, pages read), the playbacks that report it (one counts study
// time at a time) and study time per day. Plus the applicants' menus (`applicant:*`) under the
// course menu, for the roles that have the course menus.

// The course directory again (found by its path, so not added twice), with the new pages in it.
export const ENROLMENT_MENUS: MenuSpec[] = COURSE_MENUS.map((directory) => ({
  ...directory,
  children: [
    // Under /term/: they work on the course chosen in the course list (SPEC §4).
    pageMenu(['报名管理', 'Applicants'], 'term/applicant', 'course/applicant/index', 'CourseApplicant', 'peoples', 'applicant:list', {
      sort: 5,
      children: crudButtons('applicant', '学员', 'applicant'),
    }),
    pageMenu(['分配规则', 'Assignment rules'], 'term/rule', 'course/rule/index', 'CourseAssignmentRule', 'tree', 'applicant:list', { sort: 6 }),
  ],
}));

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, ENROLMENT_MENUS, Date.now());
  for (const role of COURSE_ROLES) await grantMenusToRole(db, role, menus.inserted);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // Whole department subtrees, roles or named people, assigned to a term (or, later, an exam).
  await createAuditedTable(db, 'edu_assignment_rule')
    .addColumn('target', 'varchar(8)', notNull)
    /** A JSON array of department, role or user ids. */
    .addColumn('target_ids', 'text', notNull)
    .addColumn('term_id', 'integer')
    .addColumn('exam_id', 'integer')
    .addColumn('due_at', 'bigint')
    .execute();
  await db.schema.createIndex('edu_assignment_rule_term').on('edu_assignment_rule').column('term_id').execute();

  await db.schema.alterTable('edu_applicant').addColumn('rule_id', 'integer').execute();
  await db.schema.alterTable('edu_applicant').addColumn('completed_at', 'bigint').execute();
  await db.schema.createIndex('edu_applicant_rule').on('edu_applicant').column('rule_id').execute();
  // A course completes when its required lessons do; every existing lesson is required.
  await db.schema.alterTable('edu_lesson').addColumn('required', 'integer', (col) => col.notNull().defaultTo(1)).execute();

  await createTableWithId(db, 'edu_lesson_progress')
    .addColumn('user_id', 'integer', notNull)
    .addColumn('lesson_id', 'integer', notNull)
    .addColumn('course_id', 'integer', notNull)
    /** Merged watched intervals, a JSON array of [from, to] seconds. */
    .addColumn('intervals', 'text', notNull)
    .addColumn('covered_seconds', 'double precision', notNull)
    /** A JSON array of the page numbers counted as read. */
    .addColumn('pages_read', 'text', notNull)
    .addColumn('percent', 'integer', notNull)
    .addColumn('position', 'double precision', notNull)
    .addColumn('completed_at', 'bigint')
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('edu_lesson_progress_user_lesson').on('edu_lesson_progress').columns(['user_id', 'lesson_id']).unique().execute();
  await db.schema.createIndex('edu_lesson_progress_user_course').on('edu_lesson_progress').columns(['user_id', 'course_id']).execute();

  // One page load of the player. A learner's newest playback supersedes the others.
  await createTableWithId(db, 'edu_playback')
    .addColumn('session_key', 'varchar(64)', notNull)
    .addColumn('user_id', 'integer', notNull)
    .addColumn('lesson_id', 'integer', notNull)
    .addColumn('started_at', 'bigint', notNull)
    .addColumn('last_report_at', 'bigint', notNull)
    /** A document's page on screen, and since when. */
    .addColumn('page', 'integer')
    .addColumn('page_since', 'bigint')
    .addColumn('superseded', 'integer', flag)
    .execute();
  await db.schema.createIndex('edu_playback_user_key').on('edu_playback').columns(['user_id', 'session_key']).unique().execute();
  await db.schema.createIndex('edu_playback_started').on('edu_playback').column('started_at').execute();

  await createTableWithId(db, 'edu_study_day')
    .addColumn('user_id', 'integer', notNull)
    /** yyyy-MM-dd in the server's zone. */
    .addColumn('day', 'varchar(10)', notNull)
    .addColumn('seconds', 'integer', notNull)
    .execute();
  await db.schema.createIndex('edu_study_day_user_day').on('edu_study_day').columns(['user_id', 'day']).unique().execute();

  await referenceData(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['edu_study_day', 'edu_playback', 'edu_lesson_progress', 'edu_assignment_rule']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex('edu_applicant_rule').execute();
  await db.schema.alterTable('edu_applicant').dropColumn('rule_id').execute();
  await db.schema.alterTable('edu_applicant').dropColumn('completed_at').execute();
  await db.schema.alterTable('edu_lesson').dropColumn('required').execute();
}
