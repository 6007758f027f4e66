import {
  ENROLLED_STATUSES,
  type Applicant,
  type APPLICANT_SORT_FIELDS,
  type ApplicantSource,
  type ApplicantStatus,
} from '@cloud-classroom/shared/applicants';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Page, SortOrder } from '@cloud-classroom/shared/http';
import { percentOf } from '@cloud-classroom/shared/progress-rules';
import type { Kysely } from 'kysely';
import { changed, created } from '../../db/audit-columns.js';
import { isPostgres } from '../../db/dialect.js';
import { contains } from '../../db/list-filters.js';
import { paginate, type Ordering } from '../../db/paginate.js';
import { ReusableQuery } from '../../db/reusable-query.js';
import type { Database } from '../../db/schema.js';

export type ApplicantFilter = {
  termId?: number | undefined;
  courseId?: number | undefined;
  status?: ApplicantStatus | undefined;
  source?: ApplicantSource | undefined;
  /** Part of the username or nick name. */
  q?: string | undefined;
  /** Only those past their due date and neither completed nor rejected, as of `now`. */
  overdue?: boolean | undefined;
  ids?: readonly number[] | undefined;
  /** Only the people of these departments (a data scope); all when absent. */
  deptIds?: readonly number[] | undefined;
};

/** The statuses a due date no longer applies to. */
const SETTLED_STATUSES = ['completed', 'rejected'] as const;

type ApplicantSortField = (typeof APPLICANT_SORT_FIELDS)[number];

/** Newest first unless asked otherwise. */
const ORDERING: Ordering<ApplicantSortField> = {
  sortable: { id: 'a.id', status: 'a.status', dueAt: 'a.due_at', createTime: 'a.create_time', updateTime: 'a.update_time' },
  nullable: ['dueAt'],
  tiebreak: [['a.id', 'desc']],
};

function filtered(db: Kysely<Database>, filter: ApplicantFilter, now: number) {
  let query = db
    .selectFrom('edu_applicant as a')
    .innerJoin('edu_term as t', 't.id', 'a.term_id')
    .innerJoin('sys_user as u', 'u.id', 'a.user_id');
  if (filter.termId !== undefined) query = query.where('a.term_id', '=', filter.termId);
  if (filter.courseId !== undefined) query = query.where('t.course_id', '=', filter.courseId);
  if (filter.status !== undefined) query = query.where('a.status', '=', filter.status);
  if (filter.source !== undefined) query = query.where('a.source', '=', filter.source);
  if (filter.q) query = query.where(contains(['u.username', 'u.nick_name'], filter.q));
  if (filter.overdue === true) {
    query = query.where('a.due_at', 'is not', null).where('a.due_at', '<', now).where('a.status', 'not in', SETTLED_STATUSES);
  }
  if (filter.ids) query = query.where('a.id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  if (filter.deptIds) query = query.where('u.dept_id', 'in', filter.deptIds.length > 0 ? filter.deptIds : [-1]);
  return query;
}

/** Past its due date and not done with: what the overdue filter selects, for one row. */
export function isOverdue(row: { due_at: number | null; status: string }, now: number): boolean {
  return row.due_at !== null && row.due_at < now && !(SETTLED_STATUSES as readonly string[]).includes(row.status);
}

/**
 * The matching applicants with their term, course, person and department, and their progress in
 * the course (completed required lessons over the course's required lessons), all counted in the
 * one statement that reads the page.
 */
export async function findApplicants(
  db: Kysely<Database>,
  filter: ApplicantFilter,
  now: number,
  page: { page?: number; size?: number; sort?: readonly SortOrder[] } = {},
): Promise<Page<Applicant>> {
  const { content, totalElements } = await paginate(
    filtered(db, filter, now),
    (query) =>
      query
        .innerJoin('edu_course as c', 'c.id', 't.course_id')
        .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
        .selectAll('a')
        .select(['t.name as term_name', 't.course_id', 'c.title as course_title', 'u.username', 'u.nick_name', 'd.name as dept_name'])
        .select((eb) => [
          eb
            .selectFrom('edu_lesson as l')
            .select((count) => count.fn.countAll().as('n'))
            .whereRef('l.course_id', '=', 't.course_id')
            .where('l.required', '=', 1)
            .as('required_lessons'),
          eb
            .selectFrom('edu_lesson_progress as p')
            .innerJoin('edu_lesson as l', 'l.id', 'p.lesson_id')
            .select((count) => count.fn.countAll().as('n'))
            .whereRef('p.user_id', '=', 'a.user_id')
            .whereRef('l.course_id', '=', 't.course_id')
            .where('l.required', '=', 1)
            .where('p.completed_at', 'is not', null)
            .as('completed_lessons'),
        ]),
    ORDERING,
    page,
  );
  return {
    totalElements,
    content: content.map((row) => ({
      id: row.id,
      termId: row.term_id,
      termName: row.term_name,
      courseId: row.course_id,
      courseTitle: row.course_title,
      userId: row.user_id,
      username: row.username,
      nickName: row.nick_name,
      deptName: row.dept_name,
      // Written only from APPLICANT_STATUSES and APPLICANT_SOURCES.
      status: row.status as ApplicantStatus,
      source: row.source as ApplicantSource,
      ruleId: row.rule_id,
      dueAt: row.due_at === null ? null : formatDateTime(row.due_at),
      overdue: isOverdue(row, now),
      reason: row.reason,
      percent: percentOf(Number(row.completed_lessons), Number(row.required_lessons)),
      completedAt: row.completed_at === null ? null : formatDateTime(row.completed_at),
      createBy: row.create_by,
      updateBy: row.update_by,
      createTime: formatDateTime(row.create_time),
      updateTime: formatDateTime(row.update_time),
    })),
  };
}

export type EnrolmentTerm = { id: number; courseId: number; name: string; capacity: number | null; enrolMode: string; endAt: number };

/**
 * The term, locked against other enrolments until the transaction ends: on PostgreSQL its row is
 * locked (`for update`), so two transactions counting its seats take turns; SQLite runs one
 * transaction at a time on its one connection, which serialises them already.
 */
export async function lockTerm(db: Kysely<Database>, id: number): Promise<EnrolmentTerm | undefined> {
  const row = await db
    .selectFrom('edu_term')
    .select(['id', 'course_id', 'name', 'capacity', 'enrol_mode', 'end_at'])
    .where('id', '=', id)
    .$if(isPostgres(db), (query) => query.forUpdate())
    .executeTakeFirst();
  return row && { id: row.id, courseId: row.course_id, name: row.name, capacity: row.capacity, enrolMode: row.enrol_mode, endAt: row.end_at };
}

/** How many people hold a seat in the term (ENROLLED_STATUSES). */
export async function countSeatsTaken(db: Kysely<Database>, termId: number): Promise<number> {
  const { n } = await db
    .selectFrom('edu_applicant')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('term_id', '=', termId)
    .where('status', 'in', ENROLLED_STATUSES)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export type ApplicantHead = { id: number; termId: number; userId: number; status: string };

/** An enrolment with its person's name and department, for the data scope. */
export type ApplicantWithPerson = ApplicantHead & { username: string; deptId: number | null };

export async function findApplicantHeads(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, ApplicantWithPerson>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('edu_applicant as a')
    .innerJoin('sys_user as u', 'u.id', 'a.user_id')
    .select(['a.id', 'a.term_id', 'a.user_id', 'a.status', 'u.username', 'u.dept_id'])
    .where('a.id', 'in', ids)
    .execute();
  return new Map(
    rows.map((row) => [row.id, { id: row.id, termId: row.term_id, userId: row.user_id, status: row.status, username: row.username, deptId: row.dept_id }]),
  );
}

/** The term's applicants among these people, by user id. */
export async function findApplicantsInTerm(db: Kysely<Database>, termId: number, userIds: readonly number[]): Promise<Map<number, ApplicantHead>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('edu_applicant')
    .select(['id', 'term_id', 'user_id', 'status'])
    .where('term_id', '=', termId)
    .where('user_id', 'in', userIds)
    .execute();
  return new Map(rows.map((row) => [row.user_id, { id: row.id, termId: row.term_id, userId: row.user_id, status: row.status }]));
}

export type NewApplicant = {
  termId: number;
  userId: number;
  status: ApplicantStatus;
  source: ApplicantSource;
  dueAt: number | null;
  ruleId?: number | null;
};

export async function insertApplicants(db: Kysely<Database>, applicants: readonly NewApplicant[], by: string, now: number): Promise<number[]> {
  const ids: number[] = [];
  // In slices: one statement's parameters are limited (SQLite's to 32766).
  for (let start = 0; start < applicants.length; start += INSERT_SLICE) {
    ids.push(...(await insertSlice(db, applicants.slice(start, start + INSERT_SLICE), by, now)));
  }
  return ids;
}

const INSERT_SLICE = 500;

async function insertSlice(db: Kysely<Database>, applicants: readonly NewApplicant[], by: string, now: number): Promise<number[]> {
  const rows = await db
    .insertInto('edu_applicant')
    .values(
      applicants.map((applicant) => ({
        term_id: applicant.termId,
        user_id: applicant.userId,
        status: applicant.status,
        source: applicant.source,
        due_at: applicant.dueAt,
        reason: null,
        rule_id: applicant.ruleId ?? null,
        completed_at: applicant.status === 'completed' ? now : null,
        ...created(by, now),
      })),
    )
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export type ApplicantChanges = {
  status?: ApplicantStatus;
  source?: ApplicantSource;
  dueAt?: number | null;
  reason?: string | null;
  ruleId?: number | null;
  completedAt?: number | null;
};

export async function updateApplicants(db: Kysely<Database>, ids: readonly number[], changes: ApplicantChanges, by: string, now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('edu_applicant')
    .set({
      ...(changes.status === undefined ? {} : { status: changes.status }),
      ...(changes.source === undefined ? {} : { source: changes.source }),
      ...(changes.dueAt === undefined ? {} : { due_at: changes.dueAt }),
      ...(changes.reason === undefined ? {} : { reason: changes.reason }),
      ...(changes.ruleId === undefined ? {} : { rule_id: changes.ruleId }),
      ...(changes.completedAt === undefined ? {} : { completed_at: changes.completedAt }),
      ...changed(by, now),
    })
    .where('id', 'in', ids)
    .execute();
}

export async function deleteApplicants(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('edu_applicant').where('id', 'in', ids).execute();
}

/** Every enrolment and application of these people (they are being deleted). */
export async function deleteApplicantsOfPeople(db: Kysely<Database>, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.deleteFrom('edu_applicant').where('user_id', 'in', userIds).execute();
}

const enrolmentsInCourse = new ReusableQuery(2, (db, [userId, courseId]) =>
  db
    .selectFrom('edu_applicant as a')
    .innerJoin('edu_term as t', 't.id', 'a.term_id')
    .select(['a.id', 'a.status', 'a.term_id as termId'])
    .where('a.user_id', '=', userId)
    .where('t.course_id', '=', courseId)
    .where('a.status', 'in', ENROLLED_STATUSES),
);

/** The user's enrolments (ENROLLED_STATUSES) in the course's terms; read by every progress report of an enrolled learner. */
export async function findEnrolmentsInCourse(db: Kysely<Database>, userId: number, courseId: number): Promise<{ id: number; status: string; termId: number }[]> {
  return enrolmentsInCourse.run(db, [userId, courseId]);
}

/** Whether the course exists and is published. */
export async function isPublishedCourse(db: Kysely<Database>, id: number): Promise<boolean> {
  const row = await db.selectFrom('edu_course').select('id').where('id', '=', id).where('status', '=', 'published').executeTakeFirst();
  return row !== undefined;
}

// ---- People -------------------------------------------------------------------------------------

/** Those of the ids that name a user; only users of `deptIds` when given (a data scope). */
export async function findExistingUserIds(db: Kysely<Database>, ids: readonly number[], deptIds?: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('sys_user')
    .select('id')
    .where('id', 'in', ids)
    .$if(deptIds !== undefined, (query) => query.where('dept_id', 'in', deptIds !== undefined && deptIds.length > 0 ? deptIds : [-1]))
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Users with their department by username (compared exactly, as logins are). */
export async function findUsersByName(db: Kysely<Database>, usernames: readonly string[]): Promise<Map<string, { id: number; deptId: number | null }>> {
  if (usernames.length === 0) return new Map();
  const rows = await db.selectFrom('sys_user').select(['id', 'username', 'dept_id']).where('username', 'in', usernames).execute();
  return new Map(rows.map((row) => [row.username, { id: row.id, deptId: row.dept_id }]));
}
