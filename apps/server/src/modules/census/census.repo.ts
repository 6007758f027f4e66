import { ENROLLED_STATUSES } from '@cloud-classroom/shared/applicants';
import type { CensusSortField } from '@cloud-classroom/shared/census';
import { MAX_PAGE_SIZE, type Page } from '@cloud-classroom/shared/http';
import { sql, type Kysely } from 'kysely';
import { contains } from '../../db/list-filters.js';
import { ReusableQuery } from '../../db/reusable-query.js';
import { paginate, type ListRequest, type Ordering } from '../../db/paginate.js';
import type { Database } from '../../db/schema.js';

// ---- Keeping the summary ------------------------------------------------------------------------

/** Statements name at most this many people at once (SQLite's bound parameters, PostgreSQL's plans). */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) out.push(items.slice(start, start + CHUNK));
  return out;
}

/**
 * The census rows of these people in this course, counted again from the enrolments and the
 * lesson progress: a row while any of their enrolments in the course's terms holds a place,
 * with the furthest status, the first enrolment's creation, the first completion and the
 * required lessons completed. `where` absent: every course; `userIds` absent: everyone in the course.
 */
function recountStatement(db: Kysely<Database>, now: number, where: { courseId: number; userIds?: readonly number[] } | undefined) {
  const statusRank = sql`max(case when a.status = 'completed' then 2 when a.status = 'in_progress' then 1 else 0 end)`;
  let source = db
    .selectFrom('edu_applicant as a')
    .innerJoin('edu_term as t', 't.id', 'a.term_id')
    .select((eb) => [
      'a.user_id',
      't.course_id',
      sql<string>`case when ${statusRank} = 2 then 'completed' when ${statusRank} = 1 then 'in_progress' else 'approved' end`.as('status'),
      eb.fn.min('a.create_time').as('enrolled_at'),
      sql<number | null>`min(case when a.status = 'completed' then a.completed_at end)`.as('completed_at'),
      sql<number>`(select count(*) from edu_lesson_progress p inner join edu_lesson l on l.id = p.lesson_id
        where p.user_id = a.user_id and p.course_id = t.course_id and l.required = 1 and p.completed_at is not null)`.as('completed_lessons'),
      sql<number>`cast(${now} as bigint)`.as('updated_at'),
    ])
    .where('a.status', 'in', ENROLLED_STATUSES)
    .groupBy(['a.user_id', 't.course_id']);
  if (where !== undefined) source = source.where('t.course_id', '=', where.courseId);
  if (where?.userIds !== undefined) source = source.where('a.user_id', 'in', where.userIds);
  return db
    .insertInto('edu_census_course')
    .columns(['user_id', 'course_id', 'status', 'enrolled_at', 'completed_at', 'completed_lessons', 'updated_at'])
    .expression(source);
}

/** Counts again the census rows of these people in these courses (inside the caller's transaction). */
export async function recountCourses(db: Kysely<Database>, pairs: readonly { userId: number; courseId: number }[], now: number): Promise<void> {
  const byCourse = new Map<number, Set<number>>();
  for (const { userId, courseId } of pairs) {
    const people = byCourse.get(courseId) ?? new Set<number>();
    people.add(userId);
    byCourse.set(courseId, people);
  }
  for (const [courseId, people] of byCourse) {
    for (const userIds of chunks([...people].sort((a, b) => a - b))) {
      await db.deleteFrom('edu_census_course').where('course_id', '=', courseId).where('user_id', 'in', userIds).execute();
      await recountStatement(db, now, { courseId, userIds }).execute();
    }
  }
}

/** Counts the census rows of everyone in these courses again (an outline change: a lesson made optional, deleted). */
export async function recountWholeCourses(db: Kysely<Database>, courseIds: readonly number[], now: number): Promise<void> {
  for (const courseId of courseIds) {
    await db.deleteFrom('edu_census_course').where('course_id', '=', courseId).execute();
    await recountStatement(db, now, { courseId }).execute();
  }
}

/** Counts every census row again (the demo seed, whose enrolments and progress are inserted directly). */
export async function recountAllCourses(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('edu_census_course').execute();
  await recountStatement(db, now, undefined).execute();
}

/** The course of each of these terms. */
export async function findCoursesOfTerms(db: Kysely<Database>, termIds: readonly number[]): Promise<Map<number, number>> {
  if (termIds.length === 0) return new Map();
  const rows = await db.selectFrom('edu_term').select(['id', 'course_id']).where('id', 'in', termIds).execute();
  return new Map(rows.map((row) => [row.id, row.course_id]));
}

export async function insertLogin(db: Kysely<Database>, login: { userId: number; at: number; ip: string; browser: string }): Promise<void> {
  await db.insertInto('edu_census_login').values({ user_id: login.userId, at: login.at, ip: login.ip.slice(0, 64), browser: login.browser.slice(0, 128) }).execute();
}

export async function deleteCensusOfPeople(db: Kysely<Database>, userIds: readonly number[]): Promise<void> {
  for (const slice of chunks(userIds)) {
    await db.deleteFrom('edu_census_course').where('user_id', 'in', slice).execute();
    await db.deleteFrom('edu_census_login').where('user_id', 'in', slice).execute();
  }
}

// ---- The list -----------------------------------------------------------------------------------

export type CensusFilter = {
  /** The caller's data scope: department ids, [] meaning everyone. */
  scope: readonly number[];
  /** A department subtree asked for. */
  deptIds?: readonly number[] | undefined;
  courseId?: number | undefined;
  blurry?: string | undefined;
  ids?: readonly number[] | undefined;
  /** Days (yyyy-MM-dd) for study time, and the same days as instants for attempts: [from, to). */
  days: { from?: string | undefined; to?: string | undefined };
  instants: { from?: number | undefined; to?: number | undefined };
};

export type CensusRowData = {
  id: number;
  username: string;
  nick_name: string;
  dept_id: number | null;
  dept_name: string | null;
  study_seconds: number | string | null;
  courses_enrolled: number | string;
  courses_completed: number | string;
  exams_attempted: number | string;
  exams_passed: number | string;
  certificates: number | string;
  last_login_at: number | string | null;
};

const ORDERING: Ordering<CensusSortField> = {
  sortable: {
    id: 'u.id',
    username: 'u.username',
    nickName: 'u.nick_name',
    studySeconds: 'study_seconds',
    coursesEnrolled: 'courses_enrolled',
    coursesCompleted: 'courses_completed',
    examsAttempted: 'exams_attempted',
    examsPassed: 'exams_passed',
    certificates: 'certificates',
    lastLoginAt: 'last_login_at',
  },
  nullable: ['lastLoginAt'],
  byDefault: [['u.id', 'asc']],
  tiebreak: [['u.id', 'asc']],
};

/** Bounds that hold every day and instant, so the figures have one shape with or without a range. */
const FIRST_DAY = '0000-01-01';
const LAST_DAY = '9999-12-31';
const LAST_INSTANT = Number.MAX_SAFE_INTEGER;

/**
 * The person's figures, as subqueries on tables indexed by the person (study days, census rows,
 * attempts, certificates, logins): a page in the default order reads the page's people alone,
 * an order by a figure computes it once per person in the filter. Days [dayFrom, dayTo] and
 * instants [from, to), or all time without a range; `courseId` narrows the course, exam and
 * certificate figures to a course.
 */
function figureColumns(range: { dayFrom: unknown; dayTo: unknown; from: unknown; to: unknown } | undefined, courseId?: number) {
  const ofCourse = courseId === undefined ? sql`` : sql` and c.course_id = ${courseId}`;
  const examOfCourse = courseId === undefined ? sql`` : sql` and a.exam_id in (select e.id from edu_exam e where e.course_id = ${courseId})`;
  const attemptWhere = range === undefined ? sql`a.user_id = u.id${examOfCourse}` : sql`a.user_id = u.id and a.started_at >= ${range.from} and a.started_at < ${range.to}${examOfCourse}`;
  const dayWhere = range === undefined ? sql`s.user_id = u.id` : sql`s.user_id = u.id and s.day >= ${range.dayFrom} and s.day <= ${range.dayTo}`;
  const certificateOfCourse =
    courseId === undefined
      ? sql``
      : sql` and (k.exam_id in (select e.id from edu_exam e where e.course_id = ${courseId}) or k.term_id in (select t.id from edu_term t where t.course_id = ${courseId}))`;
  return [
    sql<number>`coalesce((select sum(s.seconds) from edu_study_day s where ${dayWhere}), 0)`.as('study_seconds'),
    sql<number>`(select count(*) from edu_census_course c where c.user_id = u.id${ofCourse})`.as('courses_enrolled'),
    sql<number>`(select count(*) from edu_census_course c where c.user_id = u.id and c.completed_at is not null${ofCourse})`.as('courses_completed'),
    sql<number>`(select count(distinct a.exam_id) from edu_attempt a where ${attemptWhere})`.as('exams_attempted'),
    sql<number>`(select count(distinct a.exam_id) from edu_attempt a where ${attemptWhere} and a.state = 'graded' and a.passed = 1)`.as('exams_passed'),
    sql<number>`(select count(*) from edu_certificate k where k.user_id = u.id and k.revoked_at is null and k.superseded_by is null${certificateOfCourse})`.as('certificates'),
    sql<number | null>`(select max(l.at) from edu_census_login l where l.user_id = u.id)`.as('last_login_at'),
  ];
}

const PERSON_COLUMNS = ['u.id', 'u.username', 'u.nick_name', 'u.dept_id', 'd.name as dept_name'] as const;

// The list as it opens for someone who sees everyone (no filter but the days, the default order):
// built and compiled once, as building and compiling this query through Kysely cost more than
// running it. Any other shape goes through paginate.
const openingPage = new ReusableQuery(2, (db, [limit, offset]) =>
  db.selectFrom('sys_user as u').leftJoin('sys_dept as d', 'd.id', 'u.dept_id').select([...PERSON_COLUMNS, ...figureColumns(undefined)]).orderBy('u.id').limit(limit).offset(offset),
);
const openingPageInRange = new ReusableQuery(6, (db, [dayFrom, dayTo, from, to, limit, offset]) =>
  db
    .selectFrom('sys_user as u')
    .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
    .select([...PERSON_COLUMNS, ...figureColumns({ dayFrom, dayTo, from, to })])
    .orderBy('u.id')
    .limit(limit)
    .offset(offset),
);
const everyoneCount = new ReusableQuery(0, (db) => db.selectFrom('sys_user').select((eb) => eb.fn.countAll<number | string>().as('count')));

/** One page of people with their figures (see figureColumns), and how many people the filter holds. */
export async function findCensusPage(db: Kysely<Database>, filter: CensusFilter, request: ListRequest): Promise<Page<CensusRowData>> {
  const { days, instants, courseId } = filter;
  const ranged = days.from !== undefined || days.to !== undefined || instants.from !== undefined || instants.to !== undefined;
  const range = ranged ? { dayFrom: days.from ?? FIRST_DAY, dayTo: days.to ?? LAST_DAY, from: instants.from ?? 0, to: instants.to ?? LAST_INSTANT } : undefined;
  const opening =
    filter.scope.length === 0 &&
    filter.deptIds === undefined &&
    filter.ids === undefined &&
    (filter.blurry === undefined || filter.blurry === '') &&
    courseId === undefined &&
    (request.sort ?? []).length === 0 &&
    request.page !== undefined &&
    request.size !== undefined &&
    Number.isSafeInteger(request.page) &&
    request.page >= 0 &&
    Number.isSafeInteger(request.size) &&
    request.size >= 1 &&
    request.size <= MAX_PAGE_SIZE;
  if (opening) {
    const size = request.size as number;
    const offset = (request.page as number) * size;
    const [content, [count]] = await Promise.all([
      range === undefined ? openingPage.run(db, [size, offset]) : openingPageInRange.run(db, [range.dayFrom, range.dayTo, range.from, range.to, size, offset]),
      everyoneCount.run(db, []),
    ]);
    return { content: content as CensusRowData[], totalElements: Number(count?.count ?? 0) };
  }

  // The department is joined for its name alone, after the count: counting through the join read every person's department (20 times the plain count).
  let filtered = db.selectFrom('sys_user as u');
  if (filter.scope.length > 0) filtered = filtered.where('u.dept_id', 'in', filter.scope);
  if (filter.deptIds !== undefined) filtered = filtered.where('u.dept_id', 'in', filter.deptIds.length > 0 ? filter.deptIds : [-1]);
  if (filter.ids !== undefined) filtered = filtered.where('u.id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  if (filter.blurry !== undefined && filter.blurry !== '') filtered = filtered.where(contains(['u.username', 'u.nick_name'], filter.blurry));
  if (courseId !== undefined) {
    filtered = filtered.where((eb) =>
      eb.exists(eb.selectFrom('edu_census_course as cc').select('cc.id').whereRef('cc.user_id', '=', 'u.id').where('cc.course_id', '=', courseId)),
    );
  }
  return paginate(filtered, (query) => query.leftJoin('sys_dept as d', 'd.id', 'u.dept_id').select([...PERSON_COLUMNS, ...figureColumns(range, courseId)]), ORDERING, request);
}

// ---- One person's record ------------------------------------------------------------------------

/** The person's study seconds per day from `from` to `to` (days with none are absent). */
export async function findStudyDays(db: Kysely<Database>, userId: number, from: string, to: string): Promise<Map<string, number>> {
  const rows = await db.selectFrom('edu_study_day').select(['day', 'seconds']).where('user_id', '=', userId).where('day', '>=', from).where('day', '<=', to).execute();
  return new Map(rows.map((row) => [row.day, Number(row.seconds)]));
}

export type CensusCourseRow = {
  course_id: number;
  title: string;
  status: string;
  enrolled_at: number;
  completed_at: number | null;
  completed_lessons: number;
  required_lessons: number;
};

/** The courses the person holds a place in, the latest enrolment first, each with its required lessons. */
export async function findPersonCourses(db: Kysely<Database>, userId: number): Promise<CensusCourseRow[]> {
  const rows = await db
    .selectFrom('edu_census_course as c')
    .innerJoin('edu_course as co', 'co.id', 'c.course_id')
    .select([
      'c.course_id',
      'co.title',
      'c.status',
      'c.enrolled_at',
      'c.completed_at',
      'c.completed_lessons',
      sql<number>`(select count(*) from edu_lesson l where l.course_id = c.course_id and l.required = 1)`.as('required_lessons'),
    ])
    .where('c.user_id', '=', userId)
    .orderBy('c.enrolled_at', 'desc')
    .orderBy('c.course_id', 'desc')
    .execute();
  return rows.map((row) => ({
    ...row,
    enrolled_at: Number(row.enrolled_at),
    completed_at: row.completed_at === null ? null : Number(row.completed_at),
    completed_lessons: Number(row.completed_lessons),
    required_lessons: Number(row.required_lessons),
  }));
}

export type CensusAttemptRow = {
  id: number;
  exam_id: number;
  exam_title: string;
  number: number;
  state: string;
  started_at: number;
  submitted_at: number | null;
  score: number | null;
  total_score: number;
  passed: boolean | null;
};

/** The person's attempts started in [from, to), the latest first. */
export async function findPersonAttempts(db: Kysely<Database>, userId: number, from: number, to: number): Promise<CensusAttemptRow[]> {
  const rows = await db
    .selectFrom('edu_attempt as a')
    .innerJoin('edu_exam as e', 'e.id', 'a.exam_id')
    .select(['a.id', 'a.exam_id', 'e.title as exam_title', 'a.number', 'a.state', 'a.started_at', 'a.submitted_at', 'a.score', 'e.total_score', 'a.passed'])
    .where('a.user_id', '=', userId)
    .where('a.started_at', '>=', from)
    .where('a.started_at', '<', to)
    .orderBy('a.started_at', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
  return rows.map((row) => ({
    ...row,
    started_at: Number(row.started_at),
    submitted_at: row.submitted_at === null ? null : Number(row.submitted_at),
    score: row.score === null ? null : Number(row.score),
    total_score: Number(row.total_score),
    passed: row.passed === null ? null : row.passed === 1,
  }));
}

export type CensusCertificateRow = {
  id: number;
  number: string;
  title: string;
  issued_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  superseded_at: number | null;
};

/** Every certificate of the person, the latest first. */
export async function findPersonCertificates(db: Kysely<Database>, userId: number): Promise<CensusCertificateRow[]> {
  const rows = await db
    .selectFrom('edu_certificate')
    .select(['id', 'number', 'title', 'issued_at', 'expires_at', 'revoked_at', 'superseded_at'])
    .where('user_id', '=', userId)
    .orderBy('issued_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const at = (value: number | null) => (value === null ? null : Number(value));
  return rows.map((row) => ({ ...row, issued_at: Number(row.issued_at), expires_at: at(row.expires_at), revoked_at: at(row.revoked_at), superseded_at: at(row.superseded_at) }));
}

/** The person's newest logins. */
export async function findPersonLogins(db: Kysely<Database>, userId: number, limit: number): Promise<{ at: number; ip: string; browser: string }[]> {
  const rows = await db.selectFrom('edu_census_login').select(['at', 'ip', 'browser']).where('user_id', '=', userId).orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((row) => ({ ...row, at: Number(row.at) }));
}
