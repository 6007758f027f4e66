import type { CompiledQuery, Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import { ReusableQuery } from '../../db/reusable-query.js';
import type { Database } from '../../db/schema.js';
import { sqliteTransactionNow } from '../../db/sqlite-connection.js';

// ---- Attempts -----------------------------------------------------------------------------------

export type AttemptRow = {
  id: number;
  examId: number;
  userId: number;
  number: number;
  state: string;
  startedAt: number;
  deadline: number | null;
  submittedAt: number | null;
  submittedBy: string | null;
  score: number | null;
  passed: boolean | null;
  paper: string;
  ip: string;
  agent: string;
};

type StoredAttempt = {
  id: number;
  exam_id: number;
  user_id: number;
  number: number;
  state: string;
  started_at: number;
  deadline: number | null;
  submitted_at: number | null;
  submitted_by: string | null;
  score: number | null;
  passed: number | null;
  paper: string;
  ip: string;
  agent: string;
};

// pg answers bigint columns as numbers here (db/database.ts), SQLite as numbers already.
const attemptOf = (row: StoredAttempt): AttemptRow => ({
  id: row.id,
  examId: row.exam_id,
  userId: row.user_id,
  number: row.number,
  state: row.state,
  startedAt: Number(row.started_at),
  deadline: row.deadline === null ? null : Number(row.deadline),
  submittedAt: row.submitted_at === null ? null : Number(row.submitted_at),
  submittedBy: row.submitted_by,
  score: row.score,
  passed: row.passed === null ? null : row.passed === 1,
  paper: row.paper,
  ip: row.ip,
  agent: row.agent,
});

const ATTEMPT_COLUMNS = [
  'id',
  'exam_id',
  'user_id',
  'number',
  'state',
  'started_at',
  'deadline',
  'submitted_at',
  'submitted_by',
  'score',
  'passed',
  'paper',
  'ip',
  'agent',
] as const;

export async function findAttempt(db: Kysely<Database>, id: number): Promise<AttemptRow | undefined> {
  const row = await db.selectFrom('edu_attempt').select(ATTEMPT_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && attemptOf(row);
}

/** The person's attempts of the exam, newest first. */
export async function findMyAttempts(db: Kysely<Database>, userId: number, examId: number): Promise<AttemptRow[]> {
  const rows = await db.selectFrom('edu_attempt').select(ATTEMPT_COLUMNS).where('exam_id', '=', examId).where('user_id', '=', userId).orderBy('number', 'desc').execute();
  return rows.map(attemptOf);
}

export async function findAttemptByNumber(db: Kysely<Database>, examId: number, userId: number, number: number): Promise<AttemptRow | undefined> {
  const row = await db
    .selectFrom('edu_attempt')
    .select(ATTEMPT_COLUMNS)
    .where('exam_id', '=', examId)
    .where('user_id', '=', userId)
    .where('number', '=', number)
    .executeTakeFirst();
  return row && attemptOf(row);
}

/** Per exam among these, how many attempts the person started and the one still in progress. */
export async function findAttemptTally(
  db: Kysely<Database>,
  userId: number,
  examIds: readonly number[],
): Promise<Map<number, { used: number; openAttemptId: number | null }>> {
  const tally = new Map<number, { used: number; openAttemptId: number | null }>();
  if (examIds.length === 0) return tally;
  const rows = await db
    .selectFrom('edu_attempt')
    .select(['id', 'exam_id', 'state'])
    .where('user_id', '=', userId)
    .where('exam_id', 'in', examIds)
    .execute();
  for (const row of rows) {
    const entry = tally.get(row.exam_id) ?? { used: 0, openAttemptId: null };
    entry.used += 1;
    if (row.state === 'in_progress') entry.openAttemptId = row.id;
    tally.set(row.exam_id, entry);
  }
  return tally;
}

export type NewAttempt = {
  examId: number;
  userId: number;
  number: number;
  startedAt: number;
  deadline: number | null;
  paper: string;
  ip: string;
  agent: string;
};

/** Throws a unique violation when the person's attempt of that number exists (a start racing another). */
export async function insertAttempt(db: Kysely<Database>, attempt: NewAttempt): Promise<number> {
  const { id } = await db
    .insertInto('edu_attempt')
    .values({
      exam_id: attempt.examId,
      user_id: attempt.userId,
      number: attempt.number,
      state: 'in_progress',
      started_at: attempt.startedAt,
      deadline: attempt.deadline,
      submitted_at: null,
      submitted_by: null,
      score: null,
      passed: null,
      paper: attempt.paper,
      ip: attempt.ip,
      agent: attempt.agent,
      update_time: attempt.startedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The attempt's answer rows, one per question of its paper, blank. */
export async function insertAnswerRows(db: Kysely<Database>, attemptId: number, questions: readonly { questionId: number; maxScore: number }[]): Promise<void> {
  for (let start = 0; start < questions.length; start += 200) {
    await db
      .insertInto('edu_attempt_answer')
      .values(
        questions.slice(start, start + 200).map((question, index) => ({
          attempt_id: attemptId,
          question_id: question.questionId,
          position: start + index,
          max_score: question.maxScore,
          response: null,
          revision: 0,
          saved_at: null,
          seconds: 0,
          auto_score: null,
          manual_score: null,
          score: null,
          correct: null,
          comment: null,
          marked_by: null,
          marked_at: null,
        })),
      )
      .execute();
  }
}

/**
 * Marks the attempt submitted, if it is still in progress: the one statement deciding who
 * submits it (the learner or the server, on any process). Answers whether this call did.
 */
export async function claimSubmission(db: Kysely<Database>, id: number, by: string, now: number): Promise<boolean> {
  const rows = await db
    .updateTable('edu_attempt')
    .set({ submitted_at: now, submitted_by: by, update_time: now })
    .where('id', '=', id)
    .where('state', '=', 'in_progress')
    .where('submitted_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

export async function finishAttempt(
  db: Kysely<Database>,
  id: number,
  values: { state: 'marking' | 'graded'; score: number | null; passed: boolean | null },
  now: number,
): Promise<void> {
  await db
    .updateTable('edu_attempt')
    .set({ state: values.state, score: values.score, passed: values.passed === null ? null : values.passed ? 1 : 0, update_time: now })
    .where('id', '=', id)
    .execute();
}

// ---- Answers ------------------------------------------------------------------------------------

export type AnswerRow = {
  id: number;
  questionId: number;
  position: number;
  maxScore: number;
  response: string | null;
  revision: number;
  savedAt: number | null;
  autoScore: number | null;
  manualScore: number | null;
  score: number | null;
  correct: boolean | null;
  comment: string | null;
};

/** The attempt's answers in paper order. */
export async function findAnswers(db: Kysely<Database>, attemptId: number): Promise<AnswerRow[]> {
  const rows = await db
    .selectFrom('edu_attempt_answer')
    .select(['id', 'question_id', 'position', 'max_score', 'response', 'revision', 'saved_at', 'auto_score', 'manual_score', 'score', 'correct', 'comment'])
    .where('attempt_id', '=', attemptId)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    questionId: row.question_id,
    position: row.position,
    maxScore: row.max_score,
    response: row.response,
    revision: row.revision,
    savedAt: row.saved_at === null ? null : Number(row.saved_at),
    autoScore: row.auto_score,
    manualScore: row.manual_score,
    score: row.score,
    correct: row.correct === null ? null : row.correct === 1,
    comment: row.comment,
  }));
}

/** How many of each attempt's questions have an answer (a response that is not null). */
export async function countAnswered(db: Kysely<Database>, attemptId: number): Promise<number> {
  const row = await db
    .selectFrom('edu_attempt_answer')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('attempt_id', '=', attemptId)
    .where('response', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateAnswerScore(db: Kysely<Database>, id: number, values: { autoScore: number | null; score: number | null; correct: boolean | null }): Promise<void> {
  await db
    .updateTable('edu_attempt_answer')
    .set({ auto_score: values.autoScore, score: values.score, correct: values.correct === null ? null : values.correct ? 1 : 0 })
    .where('id', '=', id)
    .execute();
}

// ---- Saving answers (the hot path) --------------------------------------------------------------

/** What a save needs of an attempt, never changing after its start: read once per attempt and kept. */
const attemptGuard = new ReusableQuery(1, (db, [id]) => db.selectFrom('edu_attempt').select(['user_id', 'paper', 'ip', 'agent']).where('id', '=', id));

export async function findAttemptGuard(db: Kysely<Database>, id: number): Promise<{ userId: number; paper: string; ip: string; agent: string } | undefined> {
  const [row] = await attemptGuard.run(db, [id]);
  return row && { userId: row.user_id, paper: row.paper, ip: row.ip, agent: row.agent };
}

/**
 * One answer written only when its revision is newer than the stored one and the attempt still
 * takes answers (in progress, not submitted, before its deadline): checked here, in the write,
 * since another process may have submitted the attempt meanwhile.
 */
const answerWrite = new ReusableQuery(6, (db, [response, revision, now, seconds, attemptId, questionId]) =>
  db
    .updateTable('edu_attempt_answer')
    .set((eb) => ({ response, revision, saved_at: now, seconds: eb('seconds', '+', seconds) }))
    .where('attempt_id', '=', attemptId)
    .where('question_id', '=', questionId)
    .where('revision', '<', revision)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('edu_attempt as a')
          .select('a.id')
          .where('a.id', '=', attemptId)
          .where('a.state', '=', 'in_progress')
          .where('a.submitted_at', 'is', null)
          .where((inner) => inner.or([inner('a.deadline', 'is', null), inner('a.deadline', '>', now)])),
      ),
    )
    .returning('revision'),
);

/** Why an answer was not written: what is stored, and whether the attempt still takes answers. */
const answerState = new ReusableQuery(2, (db, [attemptId, questionId]) =>
  db
    .selectFrom('edu_attempt_answer as aa')
    .innerJoin('edu_attempt as a', 'a.id', 'aa.attempt_id')
    .select(['aa.revision', 'aa.saved_at', 'a.state', 'a.submitted_at', 'a.deadline'])
    .where('aa.attempt_id', '=', attemptId)
    .where('aa.question_id', '=', questionId),
);

export type AnswerWrite = { attemptId: number; questionId: number; response: string | null; revision: number; seconds: number };

/** `saved`: the revision now stored (this one or a newer one) and when; `closed`: the attempt takes no more answers. */
export type AnswerOutcome = { kind: 'saved'; revision: number; savedAt: number } | { kind: 'closed' };

/** The writes of one batch, in order, each with its outcome (synchronous when `run` is). */
function* batchSteps(db: Kysely<Database>, items: readonly AnswerWrite[], now: number): Generator<CompiledQuery<unknown>, AnswerOutcome[], unknown[]> {
  const outcomes: AnswerOutcome[] = [];
  for (const item of items) {
    const written = yield answerWrite.bind(db, [item.response, item.revision, now, item.seconds, item.attemptId, item.questionId]);
    if (written.length > 0) {
      outcomes.push({ kind: 'saved', revision: item.revision, savedAt: now });
      continue;
    }
    const [state] = (yield answerState.bind(db, [item.attemptId, item.questionId])) as {
      revision: number;
      saved_at: number | null;
      state: string;
      submitted_at: number | null;
      deadline: number | null;
    }[];
    const open = state !== undefined && state.state === 'in_progress' && state.submitted_at === null && (state.deadline === null || Number(state.deadline) > now);
    outcomes.push(open ? { kind: 'saved', revision: state.revision, savedAt: Number(state.saved_at ?? now) } : { kind: 'closed' });
  }
  return outcomes;
}

/**
 * Writes a batch of answers in one transaction (one commit, so one sync to disk, for them all)
 * and answers each one's outcome once it is committed. On SQLite the batch runs synchronously on
 * the connection when no other transaction is open; otherwise (and on PostgreSQL) through Kysely.
 * On PostgreSQL the attempts' rows are first held for share, so a submission (which updates the
 * row) waits for the batch to commit, or the batch sees it submitted: no answer lands after grading read it.
 */
export async function writeAnswers(db: Kysely<Database>, items: readonly AnswerWrite[], now: number): Promise<AnswerOutcome[]> {
  const quick = sqliteTransactionNow(db, (run) => {
    const steps = batchSteps(db, items, now);
    let step = steps.next([]);
    while (!step.done) step = steps.next(run(step.value));
    return step.value;
  });
  if (quick !== undefined) {
    await quick.durable;
    return quick.value;
  }
  return db.transaction().execute(async (trx) => {
    if (isPostgres(db)) {
      const attemptIds = [...new Set(items.map((item) => item.attemptId))].sort((a, b) => a - b);
      await trx.selectFrom('edu_attempt').select('id').where('id', 'in', attemptIds).orderBy('id').forShare().execute();
    }
    // Rows locked in one order by every process, so two batches never wait for each other in a circle.
    const order = items.map((_, index) => index).sort((a, b) => {
      const x = items[a] as AnswerWrite;
      const y = items[b] as AnswerWrite;
      return x.attemptId - y.attemptId || x.questionId - y.questionId || a - b;
    });
    const steps = batchSteps(
      trx,
      order.map((index) => items[index] as AnswerWrite),
      now,
    );
    let step = steps.next([]);
    while (!step.done) step = steps.next((await trx.executeQuery(step.value)).rows);
    const outcomes = new Array<AnswerOutcome>(items.length);
    order.forEach((index, position) => {
      outcomes[index] = step.value[position] as AnswerOutcome;
    });
    return outcomes;
  });
}

// ---- Events -------------------------------------------------------------------------------------

export type NewEvent = { attemptId: number; type: string; at: number; questionId: number | null; detail: string };

export async function insertEvents(db: Kysely<Database>, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('edu_attempt_event')
    .values(events.map((event) => ({ attempt_id: event.attemptId, type: event.type, at: event.at, question_id: event.questionId, detail: event.detail })))
    .execute();
}

export async function countEvents(db: Kysely<Database>, attemptId: number): Promise<number> {
  const row = await db.selectFrom('edu_attempt_event').select((eb) => eb.fn.countAll().as('n')).where('attempt_id', '=', attemptId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The details of the attempt's events of these types (the server's address and browser notes: bounded by `clientChangeNote`). */
export async function findEventDetails(db: Kysely<Database>, attemptId: number, types: readonly string[]): Promise<{ type: string; detail: string }[]> {
  return db.selectFrom('edu_attempt_event').select(['type', 'detail']).where('attempt_id', '=', attemptId).where('type', 'in', types).execute();
}

/**
 * Holds the attempt until the transaction ends, so what is counted of it stays true until then:
 * on PostgreSQL its row locked; SQLite runs one transaction at a time already.
 */
export async function holdAttempt(trx: Kysely<Database>, attemptId: number): Promise<void> {
  if (isPostgres(trx)) await trx.selectFrom('edu_attempt').select('id').where('id', '=', attemptId).forUpdate().execute();
}

/** Attempts started and not yet handed in, across every exam. */
export async function countAttemptsInProgress(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('edu_attempt')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('state', '=', 'in_progress')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
