import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import { ReusableQuery, type Slots } from '../../db/reusable-query.js';
import type { Database } from '../../db/schema.js';

// The marking's and the regrade's SQL: answers of submitted attempts read by question or by
// attempt within a data scope, a mark written with its audit row and the attempt's new result,
// and the regrade's bulk reads and writes.

/** Department ids bounding whose attempts are read; empty: no bound. */
export type Scope = readonly number[];

const SUBMITTED = ['marking', 'graded'] as const;

export type ExamHead = { id: number; title: string; totalScore: number; passScore: number; counts: string };

export async function findExamHead(db: Kysely<Database>, examId: number): Promise<ExamHead | undefined> {
  const row = await db
    .selectFrom('edu_exam')
    .select(['id', 'title', 'total_score', 'pass_score', 'counts'])
    .where('id', '=', examId)
    .executeTakeFirst();
  return row && { id: row.id, title: row.title, totalScore: Number(row.total_score), passScore: Number(row.pass_score), counts: row.counts };
}

/** The pass score of each of these exams. */
export async function findPassScores(db: Kysely<Database>, examIds: readonly number[]): Promise<Map<number, number>> {
  if (examIds.length === 0) return new Map();
  const rows = await db.selectFrom('edu_exam').select(['id', 'pass_score']).where('id', 'in', examIds).execute();
  return new Map(rows.map((row) => [row.id, Number(row.pass_score)]));
}

/** Every attempt id of the exam, oldest first: an attempt's place in it is its anonymous number. */
export async function findAttemptIdsOfExam(db: Kysely<Database>, examId: number): Promise<number[]> {
  const rows = await db.selectFrom('edu_attempt').select('id').where('exam_id', '=', examId).orderBy('id').execute();
  return rows.map((row) => row.id);
}

function submittedAttempts(db: Kysely<Database>, examId: number, scope: Scope) {
  let query = db
    .selectFrom('edu_attempt as t')
    .innerJoin('sys_user as u', 'u.id', 't.user_id')
    .where('t.exam_id', '=', examId)
    .where('t.state', 'in', SUBMITTED);
  if (scope.length > 0) query = query.where('u.dept_id', 'in', scope);
  return query;
}

export type AttemptGroupRow = { id: number; username: string; nickName: string; total: number; pending: number };
export type QuestionGroupRow = { id: number; firstPosition: number; total: number; pending: number };

const pendingCount = sql<number>`sum(case when a.score is null then 1 else 0 end)`;

/** The exam's submitted attempts in scope, each with its count of answers and of answers awaiting a marker. */
export async function findAttemptGroups(db: Kysely<Database>, examId: number, scope: Scope): Promise<AttemptGroupRow[]> {
  const rows = await submittedAttempts(db, examId, scope)
    .innerJoin('edu_attempt_answer as a', 'a.attempt_id', 't.id')
    .select(['t.id', 'u.username', 'u.nick_name', (eb) => eb.fn.countAll().as('total'), pendingCount.as('pending')])
    .groupBy(['t.id', 'u.username', 'u.nick_name'])
    .orderBy('t.id')
    .execute();
  return rows.map((row) => ({ id: row.id, username: row.username, nickName: row.nick_name, total: Number(row.total), pending: Number(row.pending) }));
}

/** The questions answered in the exam's submitted attempts in scope, with their counts, by their first place in a paper. */
export async function findQuestionGroups(db: Kysely<Database>, examId: number, scope: Scope): Promise<QuestionGroupRow[]> {
  const rows = await submittedAttempts(db, examId, scope)
    .innerJoin('edu_attempt_answer as a', 'a.attempt_id', 't.id')
    .select(['a.question_id', (eb) => eb.fn.min('a.position').as('first_position'), (eb) => eb.fn.countAll().as('total'), pendingCount.as('pending')])
    .groupBy('a.question_id')
    .execute();
  return rows
    .map((row) => ({ id: row.question_id, firstPosition: Number(row.first_position), total: Number(row.total), pending: Number(row.pending) }))
    .sort((a, b) => a.firstPosition - b.firstPosition || a.id - b.id);
}

/** How many attempts in scope are submitted, and graded; and how many submitted are outside it, in one read. */
export async function countSubmitted(db: Kysely<Database>, examId: number, scope: Scope): Promise<{ submitted: number; graded: number; outsideScope: number }> {
  // A person of no department is outside every scope: `null in (…)` is not true.
  const inScope = scope.length === 0 ? sql`1 = 1` : sql`u.dept_id in (${sql.join(scope)})`;
  const row = await submittedAttempts(db, examId, [])
    .select([
      sql<number>`sum(case when ${inScope} then 1 else 0 end)`.as('submitted'),
      sql<number>`sum(case when ${inScope} and t.state = 'graded' then 1 else 0 end)`.as('graded'),
      sql<number>`sum(case when ${inScope} then 0 else 1 end)`.as('outside'),
    ])
    .executeTakeFirstOrThrow();
  return { submitted: Number(row.submitted ?? 0), graded: Number(row.graded ?? 0), outsideScope: Number(row.outside ?? 0) };
}

export type MarkingAnswerRow = {
  id: number;
  attemptId: number;
  questionId: number;
  position: number;
  maxScore: number;
  response: string | null;
  autoScore: number | null;
  score: number | null;
  comment: string | null;
  markedBy: string | null;
  markedAt: number | null;
  username: string;
  nickName: string;
};

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

/** What the marking queue and the attempt view read of an answer and its candidate. */
const MARKING_ANSWER_COLUMNS = [
  'a.id',
  'a.attempt_id',
  'a.question_id',
  'a.position',
  'a.max_score',
  'a.response',
  'a.auto_score',
  'a.score',
  'a.comment',
  'a.marked_by',
  'a.marked_at',
  'u.username',
  'u.nick_name',
] as const;

/** The answers of submitted attempts in scope: to one question, or of one attempt; only those awaiting a marker when `pending`. */
export async function findMarkingAnswers(
  db: Kysely<Database>,
  examId: number,
  scope: Scope,
  filter: { questionId?: number | undefined; attemptId?: number | undefined; pending: boolean },
): Promise<MarkingAnswerRow[]> {
  let query = submittedAttempts(db, examId, scope)
    .innerJoin('edu_attempt_answer as a', 'a.attempt_id', 't.id')
    .select(MARKING_ANSWER_COLUMNS);
  if (filter.questionId !== undefined) query = query.where('a.question_id', '=', filter.questionId);
  if (filter.attemptId !== undefined) query = query.where('a.attempt_id', '=', filter.attemptId);
  if (filter.pending) query = query.where('a.score', 'is', null);
  const rows = await query.orderBy('a.attempt_id').orderBy('a.position').execute();
  return rows.map(toMarkingAnswer);
}

function toMarkingAnswer(row: {
  id: number;
  attempt_id: number;
  question_id: number;
  position: number;
  max_score: number;
  response: string | null;
  auto_score: number | null;
  score: number | null;
  comment: string | null;
  marked_by: string | null;
  marked_at: number | null;
  username: string;
  nick_name: string;
}): MarkingAnswerRow {
  return {
    id: row.id,
    attemptId: row.attempt_id,
    questionId: row.question_id,
    position: row.position,
    maxScore: Number(row.max_score),
    response: row.response,
    autoScore: numberOrNull(row.auto_score),
    score: numberOrNull(row.score),
    comment: row.comment,
    markedBy: row.marked_by,
    markedAt: numberOrNull(row.marked_at),
    username: row.username,
    nickName: row.nick_name,
  };
}

// ---- One attempt ----------------------------------------------------------------------------------

export type AttemptHeadRow = {
  id: number;
  examId: number;
  userId: number;
  deptId: number | null;
  username: string;
  nickName: string;
  state: string;
  startedAt: number;
  submittedAt: number | null;
  submittedBy: string | null;
  score: number | null;
  passed: boolean | null;
};

export async function findAttemptHead(db: Kysely<Database>, attemptId: number): Promise<AttemptHeadRow | undefined> {
  const row = await db
    .selectFrom('edu_attempt as t')
    .innerJoin('sys_user as u', 'u.id', 't.user_id')
    .select(['t.id', 't.exam_id', 't.user_id', 'u.dept_id', 'u.username', 'u.nick_name', 't.state', 't.started_at', 't.submitted_at', 't.submitted_by', 't.score', 't.passed'])
    .where('t.id', '=', attemptId)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      examId: row.exam_id,
      userId: row.user_id,
      deptId: row.dept_id,
      username: row.username,
      nickName: row.nick_name,
      state: row.state,
      startedAt: Number(row.started_at),
      submittedAt: numberOrNull(row.submitted_at),
      submittedBy: row.submitted_by,
      score: numberOrNull(row.score),
      passed: row.passed === null ? null : row.passed === 1,
    }
  );
}

/** Every answer of the attempt, in its paper's order. */
export async function findAnswersOfAttempt(db: Kysely<Database>, attemptId: number): Promise<MarkingAnswerRow[]> {
  const rows = await db
    .selectFrom('edu_attempt_answer as a')
    .innerJoin('edu_attempt as t', 't.id', 'a.attempt_id')
    .innerJoin('sys_user as u', 'u.id', 't.user_id')
    .select(MARKING_ANSWER_COLUMNS)
    .where('a.attempt_id', '=', attemptId)
    .orderBy('a.position')
    .execute();
  return rows.map(toMarkingAnswer);
}

/** The frozen papers of these attempts, by attempt. */
export async function findPapers(db: Kysely<Database>, attemptIds: readonly number[]): Promise<Map<number, string>> {
  if (attemptIds.length === 0) return new Map();
  const rows = await db.selectFrom('edu_attempt').select(['id', 'paper']).where('id', 'in', attemptIds).execute();
  return new Map(rows.map((row) => [row.id, row.paper]));
}

export async function findEventsOfAttempt(db: Kysely<Database>, attemptId: number) {
  const rows = await db
    .selectFrom('edu_attempt_event')
    .select(['type', 'at', 'question_id', 'detail'])
    .where('attempt_id', '=', attemptId)
    .orderBy('at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ type: row.type, at: Number(row.at), questionId: row.question_id, detail: row.detail }));
}

export async function findChangesOfAttempt(db: Kysely<Database>, attemptId: number) {
  const rows = await db
    .selectFrom('edu_score_change')
    .select(['question_id', 'kind', 'old_score', 'new_score', 'reason', 'create_by', 'create_time'])
    .where('attempt_id', '=', attemptId)
    .orderBy('create_time')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    questionId: row.question_id,
    kind: row.kind,
    oldScore: numberOrNull(row.old_score),
    newScore: numberOrNull(row.new_score),
    reason: row.reason,
    by: row.create_by,
    at: Number(row.create_time),
  }));
}

// ---- A mark -------------------------------------------------------------------------------------

export type AnswerToMark = {
  id: number;
  attemptId: number;
  questionId: number;
  maxScore: number;
  score: number | null;
  examId: number;
  userId: number;
  state: string;
  deptId: number | null;
};

export async function findAnswerToMark(db: Kysely<Database>, answerId: number): Promise<AnswerToMark | undefined> {
  const row = await db
    .selectFrom('edu_attempt_answer as a')
    .innerJoin('edu_attempt as t', 't.id', 'a.attempt_id')
    .innerJoin('sys_user as u', 'u.id', 't.user_id')
    .select(['a.id', 'a.attempt_id', 'a.question_id', 'a.max_score', 'a.score', 't.exam_id', 't.user_id', 't.state', 'u.dept_id'])
    .where('a.id', '=', answerId)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      attemptId: row.attempt_id,
      questionId: row.question_id,
      maxScore: Number(row.max_score),
      score: numberOrNull(row.score),
      examId: row.exam_id,
      userId: row.user_id,
      state: row.state,
      deptId: row.dept_id,
    }
  );
}

export async function updateMark(
  db: Kysely<Database>,
  answerId: number,
  mark: { score: number; correct: boolean; comment: string | null; by: string; at: number },
): Promise<void> {
  await db
    .updateTable('edu_attempt_answer')
    .set({ manual_score: mark.score, score: mark.score, correct: mark.correct ? 1 : 0, comment: mark.comment, marked_by: mark.by, marked_at: mark.at })
    .where('id', '=', answerId)
    .execute();
}

export type ScoreChange = {
  attemptId: number;
  answerId: number;
  questionId: number;
  kind: 'mark' | 'override' | 'regrade';
  oldScore: number | null;
  newScore: number | null;
  reason: string;
  by: string;
  at: number;
};

const changeRow = (change: ScoreChange) => ({
  attempt_id: change.attemptId,
  answer_id: change.answerId,
  question_id: change.questionId,
  kind: change.kind,
  old_score: change.oldScore,
  new_score: change.newScore,
  reason: change.reason,
  create_by: change.by,
  create_time: change.at,
});

export async function insertScoreChange(db: Kysely<Database>, change: ScoreChange): Promise<void> {
  await db.insertInto('edu_score_change').values(changeRow(change)).execute();
}

/** The scores of the attempt's answers (null: awaiting a marker). */
export async function findScoresOfAttempt(db: Kysely<Database>, attemptId: number): Promise<(number | null)[]> {
  const rows = await db.selectFrom('edu_attempt_answer').select('score').where('attempt_id', '=', attemptId).execute();
  return rows.map((row) => numberOrNull(row.score));
}

export async function updateAttemptResult(
  db: Kysely<Database>,
  attemptId: number,
  result: { state: 'marking' | 'graded'; score: number | null; passed: boolean | null; at: number },
): Promise<void> {
  await db
    .updateTable('edu_attempt')
    .set({ state: result.state, score: result.score, passed: result.passed === null ? null : result.passed ? 1 : 0, update_time: result.at })
    .where('id', '=', attemptId)
    .execute();
}

// ---- Regrade ------------------------------------------------------------------------------------

/** The answers a regrade reads: every answer of an exam's submitted attempts, or every submitted answer to some questions. */
export type RegradeTarget = { examId: number } | { questionIds: readonly number[] };

/**
 * Answers alike for scoring: the same question, paper score and response text, with the few
 * distinct things they hold now. A large exam's half a million answers are a few hundred of
 * these, which is what makes a regrade fast: each is scored once, and a group whose answers
 * already hold its score is neither read row by row nor written.
 */
export type RegradeGroup = {
  questionId: number;
  maxScore: number;
  response: string | null;
  /** Each distinct state of the group's answers: the automatic score, and the verdict of those without a marker's score. */
  holding: AnswerHolding[];
};

/** What some answers of a group hold: `correct` only counts where no marker's score is in force (`unmarked`). */
export type AnswerHolding = { autoScore: number | null; unmarked: boolean; correct: number | null };

type AnswerFilter = ExpressionBuilder<Database, 'edu_attempt_answer'>;

/** The answers of the target's submitted attempts (as a condition on `edu_attempt_answer`). */
function ofTarget(eb: AnswerFilter, target: RegradeTarget) {
  if ('examId' in target) {
    return eb('edu_attempt_answer.attempt_id', 'in', eb.selectFrom('edu_attempt as t').select('t.id').where('t.exam_id', '=', target.examId).where('t.state', 'in', SUBMITTED));
  }
  return eb.and([
    eb('edu_attempt_answer.question_id', 'in', target.questionIds.length > 0 ? target.questionIds : [-1]),
    eb.exists(eb.selectFrom('edu_attempt as t').select('t.id').whereRef('t.id', '=', 'edu_attempt_answer.attempt_id').where('t.state', 'in', SUBMITTED)),
  ]);
}

export async function findRegradeGroups(db: Kysely<Database>, target: RegradeTarget): Promise<RegradeGroup[]> {
  // DISTINCT, not GROUP BY with aggregates: SQLite keeps the few hundred distinct rows in a
  // b-tree as it goes, where a GROUP BY sorted all half a million answers first (more than half
  // of the regrade's time); whether a group holds its score needs only what its answers hold,
  // not how many hold it.
  const unmarked = sql<number>`case when edu_attempt_answer.manual_score is null then 1 else 0 end`;
  const rows = await db
    .selectFrom('edu_attempt_answer')
    .select([
      'question_id',
      'max_score',
      'response',
      'auto_score',
      unmarked.as('unmarked'),
      sql<number | null>`case when edu_attempt_answer.manual_score is null then edu_attempt_answer.correct end`.as('correct'),
    ])
    .distinct()
    .where((eb) => ofTarget(eb, target))
    .execute();
  const groups = new Map<string, RegradeGroup>();
  for (const row of rows) {
    const maxScore = Number(row.max_score);
    const key = JSON.stringify([row.question_id, maxScore, row.response]);
    let group = groups.get(key);
    if (group === undefined) {
      group = { questionId: row.question_id, maxScore, response: row.response, holding: [] };
      groups.set(key, group);
    }
    group.holding.push({ autoScore: numberOrNull(row.auto_score), unmarked: Number(row.unmarked) === 1, correct: numberOrNull(row.correct) });
  }
  return [...groups.values()];
}

/** How many of the target's submitted answers there are, leaving out those to some questions. */
export async function countTargetAnswers(db: Kysely<Database>, target: RegradeTarget, except: readonly number[]): Promise<number> {
  const count = async (questionIds?: readonly number[]) => {
    const row = await db
      .selectFrom('edu_attempt_answer')
      .select((eb) => eb.fn.countAll().as('n'))
      .where((eb) => (questionIds === undefined ? ofTarget(eb, target) : eb.and([ofTarget(eb, target), eb('edu_attempt_answer.question_id', 'in', questionIds)])))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  // Two counts, not one over the questions kept: with that list SQLite looks up every attempt's
  // answer to every question (half a million index searches) instead of reading each attempt's.
  return (await count()) - (except.length === 0 ? 0 : await count(except));
}

/** What a group's answers become: their automatic score and verdict (the score in force follows unless a marker's is). */
export type GroupRescore = { autoScore: number; correct: 0 | 1 };

/** Whether every answer of the group already holds what it would be given. */
export function groupHolds(group: RegradeGroup, next: GroupRescore): boolean {
  return group.holding.every((held) => held.autoScore === next.autoScore && (!held.unmarked || held.correct === next.correct));
}

/** A group to rescore: its paper score and response, and what its answers become. */
export type GroupToRescore = { maxScore: number; response: string | null; next: GroupRescore };

/**
 * Writes the new automatic scores of a question's groups: first a `regrade` row per answer
 * without a marker's score whose score changes (answered, to sum the attempts again), then the
 * answers that differ from what they should hold. One statement of each for all the question's
 * groups, each answer finding its group's score in a CASE: every statement reads all the
 * target's answers to the question, whatever the size of the groups. A marker's score stays in
 * force, also one saved since the groups were read.
 */
export async function rescoreQuestion(
  trx: Kysely<Database>,
  target: RegradeTarget,
  questionId: number,
  groups: readonly GroupToRescore[],
  audit: { by: string; at: number },
): Promise<{ attemptId: number; oldScore: number | null; newScore: number | null }[]> {
  if (groups.length === 0) return [];
  // Typed, as PostgreSQL takes an untyped parameter in a CASE or a select list for text.
  const ofGroup = <T>(value: (next: GroupRescore) => ReturnType<typeof sql<T>>) =>
    sql<T | null>`case ${sql.join(
      groups.map(
        (group) =>
          sql`when edu_attempt_answer.max_score = ${group.maxScore} and ${
            group.response === null ? sql`edu_attempt_answer.response is null` : sql`edu_attempt_answer.response = ${group.response}`
          } then ${value(group.next)}`,
      ),
      sql` `,
    )} end`;
  const autoScore = ofGroup<number>((next) => sql`cast(${next.autoScore} as double precision)`);
  const correct = ofGroup<0 | 1>((next) => sql`cast(${next.correct} as integer)`);
  const ofQuestion = (eb: AnswerFilter) => eb.and([eb('edu_attempt_answer.question_id', '=', questionId), ofTarget(eb, target), eb(autoScore, 'is not', null)]);
  const changed = await trx
    .insertInto('edu_score_change')
    .columns(['attempt_id', 'answer_id', 'question_id', 'kind', 'old_score', 'new_score', 'reason', 'create_by', 'create_time'])
    .expression(
      trx
        .selectFrom('edu_attempt_answer')
        .select([
          'edu_attempt_answer.attempt_id',
          'edu_attempt_answer.id',
          'edu_attempt_answer.question_id',
          sql<string>`${'regrade'}`.as('kind'),
          'edu_attempt_answer.score',
          autoScore.as('new_score'),
          sql<string>`${''}`.as('reason'),
          sql<string>`${audit.by}`.as('create_by'),
          sql<number>`cast(${audit.at} as bigint)`.as('create_time'),
        ])
        .where((eb) => eb.and([ofQuestion(eb), eb('edu_attempt_answer.manual_score', 'is', null), eb('edu_attempt_answer.score', 'is distinct from', autoScore)])),
    )
    .returning(['attempt_id', 'old_score', 'new_score'])
    .execute();
  await trx
    .updateTable('edu_attempt_answer')
    .set({
      auto_score: autoScore,
      score: sql<number | null>`case when manual_score is null then ${autoScore} else score end`,
      correct: sql<0 | 1 | null>`case when manual_score is null then ${correct} else correct end`,
    })
    .where((eb) =>
      eb.and([
        ofQuestion(eb),
        eb.or([
          eb('edu_attempt_answer.auto_score', 'is distinct from', autoScore),
          eb.and([
            eb('edu_attempt_answer.manual_score', 'is', null),
            eb.or([eb('edu_attempt_answer.score', 'is distinct from', autoScore), eb('edu_attempt_answer.correct', 'is distinct from', correct)]),
          ]),
        ]),
      ]),
    )
    .execute();
  return changed.map((row) => ({ attemptId: row.attempt_id, oldScore: numberOrNull(row.old_score), newScore: numberOrNull(row.new_score) }));
}

export type AttemptRow = { id: number; exam_id: number; user_id: number; state: string; score: number | null; passed: 0 | 1 | null };

export async function findAttemptRows(db: Kysely<Database>, attemptIds: readonly number[]): Promise<AttemptRow[]> {
  const rows: AttemptRow[] = [];
  for (let start = 0; start < attemptIds.length; start += 500) {
    const ids = attemptIds.slice(start, start + 500);
    rows.push(...((await db.selectFrom('edu_attempt').select(['id', 'exam_id', 'user_id', 'state', 'score', 'passed']).where('id', 'in', ids).execute()) as AttemptRow[]));
  }
  return rows;
}

export type AttemptRescore = { id: number; score: number | null; passed: 0 | 1 | null; at: number };

const updateAttemptQuery = new ReusableQuery<never>(4, (db, [score, passed, at, id]: Slots) =>
  db.updateTable('edu_attempt').set({ score, passed, update_time: at }).where('id', '=', id),
);

const BATCH = 1000;

/**
 * The attempts' new totals, inside the caller's transaction: on SQLite one prepared statement per
 * attempt (each runs at once on the connection; SQLite's cost is the commit, not the statements);
 * on PostgreSQL a statement per thousand attempts, as a round trip each would be most of the time.
 */
export async function writeAttemptTotals(trx: Kysely<Database>, attempts: readonly AttemptRescore[]): Promise<void> {
  if (!isPostgres(trx)) {
    for (const attempt of attempts) await updateAttemptQuery.run(trx, [attempt.score, attempt.passed, attempt.at, attempt.id]);
    return;
  }
  for (let start = 0; start < attempts.length; start += BATCH) {
    const values = attempts.slice(start, start + BATCH).map((attempt) => sql`(${attempt.id}::integer, ${attempt.score}::double precision, ${attempt.passed}::integer, ${attempt.at}::bigint)`);
    await sql`update edu_attempt as t set score = v.score, passed = v.passed, update_time = v.at
      from (values ${sql.join(values)}) as v(id, score, passed, at) where t.id = v.id`.execute(trx);
  }
}
