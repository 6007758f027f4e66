import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Scope } from './marking.repo.js';

// The exam report's SQL: the exam's attempts with their candidates and departments, the answers of
// the attempts that count, and how many integrity events each has.

const CHUNK = 500;

export async function countAssignees(db: Kysely<Database>, examId: number, scope: Scope): Promise<number> {
  let query = db.selectFrom('edu_exam_assignee as a').innerJoin('sys_user as u', 'u.id', 'a.user_id').where('a.exam_id', '=', examId);
  if (scope.length > 0) query = query.where('u.dept_id', 'in', scope);
  const row = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export type ReportAttemptRow = {
  id: number;
  userId: number;
  username: string;
  nickName: string;
  deptId: number | null;
  deptName: string | null;
  state: string;
  startedAt: number;
  submittedAt: number | null;
  score: number | null;
  passed: boolean | null;
};

/** Every attempt of the exam by a candidate within the scope. */
export async function findReportAttempts(db: Kysely<Database>, examId: number, scope: Scope): Promise<ReportAttemptRow[]> {
  let query = db
    .selectFrom('edu_attempt as t')
    .innerJoin('sys_user as u', 'u.id', 't.user_id')
    .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
    .select(['t.id', 't.user_id', 'u.username', 'u.nick_name', 'u.dept_id', 'd.name as dept_name', 't.state', 't.started_at', 't.submitted_at', 't.score', 't.passed'])
    .where('t.exam_id', '=', examId);
  if (scope.length > 0) query = query.where('u.dept_id', 'in', scope);
  const rows = await query.orderBy('t.id').execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    username: row.username,
    nickName: row.nick_name,
    deptId: row.dept_id,
    deptName: row.dept_name,
    state: row.state,
    startedAt: Number(row.started_at),
    submittedAt: row.submitted_at === null ? null : Number(row.submitted_at),
    score: row.score === null ? null : Number(row.score),
    passed: row.passed === null ? null : row.passed === 1,
  }));
}

export type ReportAnswerRow = { attemptId: number; questionId: number; position: number; maxScore: number; response: string | null; score: number | null; seconds: number };

export async function findReportAnswers(db: Kysely<Database>, attemptIds: readonly number[]): Promise<ReportAnswerRow[]> {
  const rows: ReportAnswerRow[] = [];
  for (let start = 0; start < attemptIds.length; start += CHUNK) {
    const found = await db
      .selectFrom('edu_attempt_answer')
      .select(['attempt_id', 'question_id', 'position', 'max_score', 'response', 'score', 'seconds'])
      .where('attempt_id', 'in', attemptIds.slice(start, start + CHUNK))
      .orderBy('attempt_id')
      .orderBy('position')
      .execute();
    for (const row of found) {
      rows.push({
        attemptId: row.attempt_id,
        questionId: row.question_id,
        position: row.position,
        maxScore: Number(row.max_score),
        response: row.response,
        score: row.score === null ? null : Number(row.score),
        seconds: Number(row.seconds),
      });
    }
  }
  return rows;
}

/** How many events of other types than `ignored` each attempt has. */
export async function countEvents(db: Kysely<Database>, attemptIds: readonly number[], ignored: readonly string[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (let start = 0; start < attemptIds.length; start += CHUNK) {
    const rows = await db
      .selectFrom('edu_attempt_event')
      .select(['attempt_id', (eb) => eb.fn.countAll().as('n')])
      .where('attempt_id', 'in', attemptIds.slice(start, start + CHUNK))
      .where('type', 'not in', ignored)
      .groupBy('attempt_id')
      .execute();
    for (const row of rows) counts.set(row.attempt_id, Number(row.n));
  }
  return counts;
}
