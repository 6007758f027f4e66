import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

// The dashboard's SQL: counts over the training tables, each joined to the person it is about so
// that a data scope (department ids; empty: everyone) bounds it. Nothing here writes.

export type Scope = readonly number[];

/** The statuses a due date no longer applies to (as the applicants list's overdue filter). */
const SETTLED_STATUSES = ['completed', 'rejected'] as const;

export type StudyDayRow = { day: string; seconds: number; learners: number };

/** Study time and the people who studied, per day from `from` to `to` (`yyyy-MM-dd`, inclusive). */
export async function studyByDay(db: Kysely<Database>, from: string, to: string, scope: Scope): Promise<StudyDayRow[]> {
  const query = db
    .selectFrom('edu_study_day as s')
    .innerJoin('sys_user as u', 'u.id', 's.user_id')
    .where('s.day', '>=', from)
    .where('s.day', '<=', to)
    .where('s.seconds', '>', 0);
  const rows = await query.$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope))
    .select(['s.day', (eb) => eb.fn.sum<number | string>('s.seconds').as('seconds'), (eb) => eb.fn.count<number | string>('s.user_id').distinct().as('learners')])
    .groupBy('s.day')
    .execute();
  return rows.map((row) => ({ day: row.day, seconds: Number(row.seconds), learners: Number(row.learners) }));
}

/**
 * How many people were active since the day `fromDay` began (`fromMs`): with study time filed on
 * a day from then on, lesson progress saved, or an attempt started or submitted.
 */
export async function countActivePeople(db: Kysely<Database>, fromDay: string, fromMs: number, scope: Scope): Promise<number> {
  const studied = db.selectFrom('edu_study_day as s').innerJoin('sys_user as u', 'u.id', 's.user_id').where('s.day', '>=', fromDay).where('s.seconds', '>', 0).$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope)).select('u.id as user_id');
  const progressed = db.selectFrom('edu_lesson_progress as p').innerJoin('sys_user as u', 'u.id', 'p.user_id').where('p.updated_at', '>=', fromMs).$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope)).select(
    'u.id as user_id',
  );
  const sat = db
      .selectFrom('edu_attempt as t')
      .innerJoin('sys_user as u', 'u.id', 't.user_id')
      .where((eb) => eb.or([eb('t.started_at', '>=', fromMs), eb('t.submitted_at', '>=', fromMs)])).$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope)).select('u.id as user_id');
  // UNION (not UNION ALL) keeps each person once.
  const row = await db
    .selectFrom(studied.union(progressed).union(sat).as('active'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type EnrolmentMoment = { createdAt: number; completedAt: number | null };

/** Enrolments made or completed since `fromMs`, with both moments, for counting per day. */
export async function findEnrolmentMoments(db: Kysely<Database>, fromMs: number, scope: Scope): Promise<EnrolmentMoment[]> {
  const query = db
    .selectFrom('edu_applicant as a')
    .innerJoin('sys_user as u', 'u.id', 'a.user_id')
    .where((eb) => eb.or([eb('a.create_time', '>=', fromMs), eb('a.completed_at', '>=', fromMs)]));
  const rows = await query.$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope)).select(['a.create_time', 'a.completed_at']).execute();
  return rows.map((row) => ({ createdAt: Number(row.create_time), completedAt: row.completed_at === null ? null : Number(row.completed_at) }));
}

/** How many enrolments are in each status now. */
export async function countEnrolmentsByStatus(db: Kysely<Database>, scope: Scope): Promise<Map<string, number>> {
  const query = db.selectFrom('edu_applicant as a').innerJoin('sys_user as u', 'u.id', 'a.user_id');
  const rows = await query.$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope))
    .select(['a.status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('a.status')
    .execute();
  return new Map(rows.map((row) => [row.status, Number(row.n)]));
}

export type OpenExamRow = { id: number; title: string; closeAt: number | null };

/** Published exams whose own window holds `now` (people's own windows aside), the soonest to close first. */
export async function findOpenExams(db: Kysely<Database>, now: number): Promise<OpenExamRow[]> {
  const rows = await db
    .selectFrom('edu_exam')
    .select(['id', 'title', 'close_at'])
    .where('status', '=', 'published')
    .where((eb) => eb.or([eb('open_at', 'is', null), eb('open_at', '<=', now)]))
    .where((eb) => eb.or([eb('close_at', 'is', null), eb('close_at', '>', now)]))
    .execute();
  return rows
    .map((row) => ({ id: row.id, title: row.title, closeAt: row.close_at === null ? null : Number(row.close_at) }))
    .sort((a, b) => (a.closeAt ?? Number.MAX_SAFE_INTEGER) - (b.closeAt ?? Number.MAX_SAFE_INTEGER) || a.id - b.id);
}

/** People assigned to each of the exams, within the scope. */
export async function countAssigneesByExam(db: Kysely<Database>, examIds: readonly number[], scope: Scope): Promise<Map<number, number>> {
  if (examIds.length === 0) return new Map();
  const query = db.selectFrom('edu_exam_assignee as a').innerJoin('sys_user as u', 'u.id', 'a.user_id').where('a.exam_id', 'in', examIds);
  const rows = await query.$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope))
    .select(['a.exam_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('a.exam_id')
    .execute();
  return new Map(rows.map((row) => [row.exam_id, Number(row.n)]));
}

/** Attempts being sat now, per exam, within the scope. */
export async function countAttemptsInProgress(db: Kysely<Database>, scope: Scope): Promise<Map<number, number>> {
  const query = db.selectFrom('edu_attempt as t').innerJoin('sys_user as u', 'u.id', 't.user_id').where('t.state', '=', 'in_progress');
  const rows = await query.$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope))
    .select(['t.exam_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('t.exam_id')
    .execute();
  return new Map(rows.map((row) => [row.exam_id, Number(row.n)]));
}

export type RecentExamRow = { id: number; title: string; counts: string; latest: number };

/**
 * Exams that closed between `fromMs` and `now`, or with an attempt submitted by someone within the
 * scope since `fromMs`; `latest` is the later of the two moments, by which they are listed.
 */
export async function findRecentExams(db: Kysely<Database>, fromMs: number, now: number, scope: Scope): Promise<RecentExamRow[]> {
  const submissions = await db.selectFrom('edu_attempt as t').innerJoin('sys_user as u', 'u.id', 't.user_id').where('t.submitted_at', '>=', fromMs).$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope))
    .select(['t.exam_id', (eb) => eb.fn.max<number | string>('t.submitted_at').as('latest')])
    .groupBy('t.exam_id')
    .execute();
  const latestSubmission = new Map(submissions.map((row) => [row.exam_id, Number(row.latest)]));
  const closed = await db.selectFrom('edu_exam').select('id').where('close_at', '>=', fromMs).where('close_at', '<=', now).execute();
  const ids = [...new Set([...latestSubmission.keys(), ...closed.map((row) => row.id)])];
  if (ids.length === 0) return [];
  const exams = await db.selectFrom('edu_exam').select(['id', 'title', 'counts', 'close_at']).where('id', 'in', ids).execute();
  return exams.map((exam) => {
    const closeAt = exam.close_at === null ? null : Number(exam.close_at);
    const closedLately = closeAt !== null && closeAt >= fromMs && closeAt <= now ? closeAt : 0;
    return { id: exam.id, title: exam.title, counts: exam.counts, latest: Math.max(closedLately, latestSubmission.get(exam.id) ?? 0) };
  });
}

export type FinishedAttemptRow = { id: number; examId: number; userId: number; state: string; startedAt: number; score: number | null; passed: boolean | null };

/** The submitted attempts (marking or graded) of the exams by people within the scope. */
export async function findFinishedAttempts(db: Kysely<Database>, examIds: readonly number[], scope: Scope): Promise<FinishedAttemptRow[]> {
  if (examIds.length === 0) return [];
  const query = db
    .selectFrom('edu_attempt as t')
    .innerJoin('sys_user as u', 'u.id', 't.user_id')
    .where('t.exam_id', 'in', examIds)
    .where('t.state', '!=', 'in_progress');
  const rows = await query.$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope)).select(['t.id', 't.exam_id', 't.user_id', 't.state', 't.started_at', 't.score', 't.passed']).execute();
  return rows.map((row) => ({
    id: row.id,
    examId: row.exam_id,
    userId: row.user_id,
    state: row.state,
    startedAt: Number(row.started_at),
    score: row.score === null ? null : Number(row.score),
    passed: row.passed === null ? null : row.passed === 1,
  }));
}

export type CertificateCounts = { issuedInPeriod: number; issuedThisWeek: number; valid: number };

/** Certificates held by people within the scope: issued since each moment (not revoked), and valid at `now`. */
export async function countCertificates(db: Kysely<Database>, periodFromMs: number, weekFromMs: number, now: number, scope: Scope): Promise<CertificateCounts> {
  const base = () => db.selectFrom('edu_certificate as c').innerJoin('sys_user as u', 'u.id', 'c.user_id').where('c.revoked_at', 'is', null).$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope));
  const countOf = async (query: ReturnType<typeof base>) => Number((await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    issuedInPeriod: await countOf(base().where('c.issued_at', '>=', periodFromMs).where('c.issued_at', '<=', now)),
    issuedThisWeek: await countOf(base().where('c.issued_at', '>=', weekFromMs).where('c.issued_at', '<=', now)),
    valid: await countOf(
      base()
        .where('c.superseded_by', 'is', null)
        .where('c.issued_at', '<=', now)
        .where((eb) => eb.or([eb('c.expires_at', 'is', null), eb('c.expires_at', '>', now)])),
    ),
  };
}

export type OverdueGroupRow = { id: number; title: string; count: number };

/** Overdue enrolments (past due, neither completed nor rejected) within the scope, per course. */
export async function countOverdueEnrolmentsByCourse(db: Kysely<Database>, now: number, scope: Scope): Promise<OverdueGroupRow[]> {
  const query = db
    .selectFrom('edu_applicant as a')
    .innerJoin('sys_user as u', 'u.id', 'a.user_id')
    .innerJoin('edu_term as t', 't.id', 'a.term_id')
    .innerJoin('edu_course as c', 'c.id', 't.course_id')
    .where('a.due_at', 'is not', null)
    .where('a.due_at', '<', now)
    .where('a.status', 'not in', SETTLED_STATUSES);
  const rows = await query.$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope))
    .select(['c.id', 'c.title', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy(['c.id', 'c.title'])
    .execute();
  return rows.map((row) => ({ id: row.id, title: row.title, count: Number(row.n) }));
}

/** Overdue exam assignments (past due, and the person has passed no attempt of it) within the scope, per exam. */
export async function countOverdueAssignmentsByExam(db: Kysely<Database>, now: number, scope: Scope): Promise<OverdueGroupRow[]> {
  const query = db
    .selectFrom('edu_exam_assignee as a')
    .innerJoin('sys_user as u', 'u.id', 'a.user_id')
    .innerJoin('edu_exam as e', 'e.id', 'a.exam_id')
    .where('a.due_at', 'is not', null)
    .where('a.due_at', '<', now)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('edu_attempt as t')
            .select('t.id')
            .whereRef('t.exam_id', '=', 'a.exam_id')
            .whereRef('t.user_id', '=', 'a.user_id')
            .where('t.passed', '=', 1),
        ),
      ),
    );
  const rows = await query.$if(scope.length > 0, (qb) => qb.where('u.dept_id', 'in', scope))
    .select(['e.id', 'e.title', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy(['e.id', 'e.title'])
    .execute();
  return rows.map((row) => ({ id: row.id, title: row.title, count: Number(row.n) }));
}
