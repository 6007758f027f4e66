import type { Kysely } from 'kysely';
import { addMenus, createAuditedTable, crudButtons, flag, grantMenusToRole, notNull, pageMenu, type MenuSpec } from '../migration-helpers.js';
import { ADMIN_ROLE } from './0009-system-data.js';

// The course catalogue (DESIGN §6, §10): categories, courses, terms, chapters, lessons, the
// media they use, and the people enrolled in a term (applicants; the enrolment issue gives them
// their routes, this one needs them to keep a course with enrolments from being deleted and to
// decide who may stream a lesson's media). Plus the course menus, for the administrators' role
// and the teachers' (`teacher`, the demo role), so that a teacher has a back office.

export const COURSE_MENUS: MenuSpec[] = [
  {
    title: '课程中心',
    titleEn: 'Courses',
    type: 0,
    path: 'course',
    icon: 'education',
    // Before the system menus: it is what staff come for.
    sort: 0,
    children: [
      pageMenu(['课程列表', 'Course list'], 'course', 'course/course/index', 'Course', 'list', 'course:list', { children: crudButtons('course', '课程', 'course') }),
      pageMenu(['课程分类', 'Categories'], 'category', 'course/category/index', 'CourseCategory', 'tree', 'course:list'),
      // Under /term/: these work on the course chosen in the course list (SPEC §4).
      pageMenu(['课程大纲', 'Outline'], 'term/outline', 'course/outline/index', 'CourseOutline', 'nested', 'course:list'),
      pageMenu(['开课计划', 'Terms'], 'term/index', 'course/term/index', 'CourseTerm', 'date', 'course:list'),
    ],
  },
];

/** The roles that get the course menus: the administrators, and the teachers where that demo role exists. */
export const COURSE_ROLES = [ADMIN_ROLE.name, 'teacher'] as const;

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, COURSE_MENUS, Date.now());
  for (const role of COURSE_ROLES) await grantMenusToRole(db, role, menus.inserted);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createAuditedTable(db, 'edu_category')
    .addColumn('pid', 'integer')
    .addColumn('name', 'varchar(50)', notNull)
    .addColumn('sort', 'integer', notNull)
    .addColumn('sub_count', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('edu_category_pid').on('edu_category').column('pid').execute();

  // Files stored once and used by lessons and covers; the facts are read from the bytes.
  await createAuditedTable(db, 'edu_media')
    .addColumn('name', 'varchar(200)', notNull)
    .addColumn('mime', 'varchar(100)', notNull)
    .addColumn('kind', 'varchar(16)', notNull)
    .addColumn('size', 'bigint', notNull)
    .addColumn('file_key', 'varchar(200)', (col) => col.notNull().unique())
    .addColumn('duration_seconds', 'double precision')
    .addColumn('pages', 'integer')
    .execute();

  await createAuditedTable(db, 'edu_course')
    .addColumn('title', 'varchar(100)', notNull)
    .addColumn('category_id', 'integer')
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('required', 'integer', flag)
    .addColumn('cover_media_id', 'integer')
    .addColumn('summary', 'varchar(500)', notNull)
    .addColumn('description', 'text', notNull)
    .addColumn('owner_id', 'integer')
    .addColumn('max_playback_rate', 'double precision', notNull)
    .addColumn('allow_skip', 'integer', flag)
    .execute();
  await db.schema.createIndex('edu_course_category').on('edu_course').column('category_id').execute();
  await db.schema.createIndex('edu_course_status').on('edu_course').columns(['status', 'id']).execute();
  await db.schema.createIndex('edu_course_cover').on('edu_course').column('cover_media_id').execute();

  await createAuditedTable(db, 'edu_term')
    .addColumn('course_id', 'integer', notNull)
    .addColumn('name', 'varchar(100)', notNull)
    .addColumn('start_at', 'bigint', notNull)
    .addColumn('end_at', 'bigint', notNull)
    .addColumn('capacity', 'integer')
    .addColumn('enrol_mode', 'varchar(16)', notNull)
    .execute();
  await db.schema.createIndex('edu_term_course').on('edu_term').column('course_id').execute();

  await createAuditedTable(db, 'edu_chapter')
    .addColumn('course_id', 'integer', notNull)
    .addColumn('title', 'varchar(100)', notNull)
    .addColumn('sort', 'integer', notNull)
    .execute();
  await db.schema.createIndex('edu_chapter_course').on('edu_chapter').columns(['course_id', 'sort']).execute();

  await createAuditedTable(db, 'edu_lesson')
    .addColumn('course_id', 'integer', notNull)
    .addColumn('chapter_id', 'integer', notNull)
    .addColumn('title', 'varchar(100)', notNull)
    .addColumn('type', 'varchar(16)', notNull)
    .addColumn('media_id', 'integer')
    .addColumn('content', 'text', notNull)
    .addColumn('completion_percent', 'integer', notNull)
    .addColumn('preview', 'integer', flag)
    .addColumn('sort', 'integer', notNull)
    .execute();
  await db.schema.createIndex('edu_lesson_chapter').on('edu_lesson').columns(['chapter_id', 'sort']).execute();
  await db.schema.createIndex('edu_lesson_course').on('edu_lesson').column('course_id').execute();
  await db.schema.createIndex('edu_lesson_media').on('edu_lesson').column('media_id').execute();

  // applied → approved / rejected → in_progress → completed (DESIGN §10).
  await createAuditedTable(db, 'edu_applicant')
    .addColumn('term_id', 'integer', notNull)
    .addColumn('user_id', 'integer', notNull)
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('source', 'varchar(16)', notNull)
    .addColumn('due_at', 'bigint')
    .addColumn('reason', 'varchar(500)')
    .execute();
  await db.schema.createIndex('edu_applicant_term_user').on('edu_applicant').columns(['term_id', 'user_id']).unique().execute();
  await db.schema.createIndex('edu_applicant_user').on('edu_applicant').columns(['user_id', 'status']).execute();

  await referenceData(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['edu_applicant', 'edu_lesson', 'edu_chapter', 'edu_term', 'edu_course', 'edu_media', 'edu_category']) {
    await db.schema.dropTable(table).execute();
  }
}
