import { sql, type Kysely } from 'kysely';
import { addMenus, createTableWithId, grantMenusToRole, notNull, pageMenu, type MenuSpec } from '../migration-helpers.js';
import { COURSE_MENUS, COURSE_ROLES } from './0010-courses.js';

// People statistics (issue 15). The census list shows, for thousands of people at once, figures
// that the raw rows give only by reading many of them: a course's completion is a count over the
// person's lesson progress against the course's required lessons, across every term they hold a
// place in. `edu_census_course` keeps that per person and course, recounted by the census module
// inside the transaction of every write that can change it (an enrolment written, a lesson
// completed), so a view reads one row per course. Study time per day is `edu_study_day` (0011),
// already a summary kept by the progress reports. Logins get a row each (`edu_census_login`): the
// sessions that record them are deleted at logout and expiry, and the audit log has no index by
// person. Plus the `census:list` page in the course directory, where a training manager looks.

export const CENSUS_MENUS: MenuSpec[] = COURSE_MENUS.map((directory) => ({
  ...directory,
  children: [pageMenu(['学员统计', 'Learner statistics'], 'census', 'census/user/index', 'CensusUser', 'chart', 'census:list', { sort: 7 })],
}));

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, CENSUS_MENUS, Date.now());
  for (const role of COURSE_ROLES) await grantMenusToRole(db, role, menus.inserted);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'edu_census_course')
    .addColumn('user_id', 'integer', notNull)
    .addColumn('course_id', 'integer', notNull)
    /** The furthest status of the person's enrolments in the course's terms: approved, in_progress, completed. */
    .addColumn('status', 'varchar(16)', notNull)
    /** The first of those enrolments' creation. */
    .addColumn('enrolled_at', 'bigint', notNull)
    /** The first completion among them. */
    .addColumn('completed_at', 'bigint')
    /** Required lessons of the course the person completed. */
    .addColumn('completed_lessons', 'integer', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('edu_census_course_user').on('edu_census_course').columns(['user_id', 'course_id']).unique().execute();
  await db.schema.createIndex('edu_census_course_course').on('edu_census_course').columns(['course_id', 'user_id']).execute();

  await createTableWithId(db, 'edu_census_login')
    .addColumn('user_id', 'integer', notNull)
    .addColumn('at', 'bigint', notNull)
    .addColumn('ip', 'varchar(64)', notNull)
    .addColumn('browser', 'varchar(128)', notNull)
    .execute();
  await db.schema.createIndex('edu_census_login_user').on('edu_census_login').columns(['user_id', 'at']).execute();

  // An upgraded install counts what it has (the census repo's recount, over everyone).
  const now = Date.now();
  await sql`
    insert into edu_census_course (user_id, course_id, status, enrolled_at, completed_at, completed_lessons, updated_at)
    select a.user_id, t.course_id,
      case when max(case when a.status = 'completed' then 2 when a.status = 'in_progress' then 1 else 0 end) = 2 then 'completed'
           when max(case when a.status = 'completed' then 2 when a.status = 'in_progress' then 1 else 0 end) = 1 then 'in_progress'
           else 'approved' end,
      min(a.create_time),
      min(case when a.status = 'completed' then a.completed_at end),
      (select count(*) from edu_lesson_progress p inner join edu_lesson l on l.id = p.lesson_id
        where p.user_id = a.user_id and p.course_id = t.course_id and l.required = 1 and p.completed_at is not null),
      cast(${now} as bigint)
    from edu_applicant a inner join edu_term t on t.id = a.term_id
    where a.status in ('approved', 'in_progress', 'completed')
    group by a.user_id, t.course_id`.execute(db);
  // The successful logins the audit log kept (every login is audited).
  await sql`
    insert into edu_census_login (user_id, at, ip, browser)
    select u.id, l.create_time, coalesce(l.request_ip, ''), coalesce(l.browser, '')
    from sys_log l inner join sys_user u on u.username = l.username
    where l.description = '用户登录' and l.status = 200`.execute(db);

  await referenceData(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('edu_census_login').execute();
  await db.schema.dropTable('edu_census_course').execute();
}
