import { attemptScore, passes } from '@cloud-classroom/shared/attempt-rules';
import type {
  AttemptEvent,
  AttemptResponse,
  AttemptState,
  IntegrityEventType,
  MarkAnswer,
  MarkingAttempt,
  MarkingGroup,
  MarkingItem,
  MarkingQueue,
  MarkingQueueQuery,
  RegradeResult,
} from '@cloud-classroom/shared/attempts';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { roundTo } from '@cloud-classroom/shared/exam-statistics';
import { scorableOf, scoreResponse } from '@cloud-classroom/shared/question-scoring';
import type { QuestionContent } from '../questions/questions.service.js';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { conflict, forbidden, invalidInput, notFound } from '../../domain-error.js';
import type { JobRunner } from '../../jobs/job-runner.js';
import type { AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/session.service.js';
import type { GradedListener, PassedListener } from './attempts.service.js';
import { parsePaper } from './frozen-paper.js';
import {
  countSubmitted,
  countTargetAnswers,
  findAnswersOfAttempt,
  findPapers,
  findAnswerToMark,
  findAttemptGroups,
  findAttemptHead,
  findAttemptIdsOfExam,
  findAttemptRows,
  findChangesOfAttempt,
  findEventsOfAttempt,
  findExamHead,
  findMarkingAnswers,
  findPassScores,
  findQuestionGroups,
  findRegradeGroups,
  groupHolds,
  findScoresOfAttempt,
  insertScoreChange,
  updateAttemptResult,
  updateMark,
  rescoreQuestion,
  writeAttemptTotals,
  type AttemptRescore,
  type GroupToRescore,
  type MarkingAnswerRow,
  type RegradeTarget,
  type Scope,
  type ScoreChange,
} from './marking.repo.js';

/** What marking needs of the question bank (the questions service): whole questions with their current keys. */
export type QuestionSource = {
  contentsOf(ids: readonly number[]): Promise<QuestionContent[]>;
  within(db: Kysely<Database>): QuestionSource;
};

export type MarkingOptions = {
  /** Told of attempts a marker's score made pass (see PassedListener); shared with `within` copies. */
  passedListeners?: PassedListener[];
  /** Told of attempts a marker's score graded (see GradedListener); shared with `within` copies. */
  gradedListeners?: GradedListener[];
  db: Kysely<Database>;
  clock: Clock;
  jobs: JobRunner;
  access: AccessService;
  questions: QuestionSource;
};

/** The job that rescores the submitted answers to questions whose key changed. */
export const REGRADE_JOB = 'attempts.regrade';
type RegradePayload = { questionIds: number[]; by: string };

/** How much of a stem a question's group label shows. */
const LABEL_STEM_LENGTH = 40;

const time = (at: number | null) => (at === null ? null : formatDateTime(at));

/** The anonymous name of an attempt: its place among the exam's attempts, which never changes as more are made. */
export const candidateLabel = (number: number) => `Candidate ${number}`;

function parseResponse(text: string | null): AttemptResponse {
  if (text === null) return null;
  try {
    return JSON.parse(text) as AttemptResponse;
  } catch {
    return null;
  }
}


const flagOf = (value: boolean | null) => (value === null ? null : value ? (1 as const) : (0 as const));

/**
 * Rescores the submitted answers of `target` against the questions' current keys, in one
 * transaction (the caller's, when `db` is one). Answers are read as groups of alike ones (same
 * question, paper score and response: a few hundred for half a million answers, with the few
 * distinct things they hold), each group is scored once in memory, and only groups holding
 * something else are written, by statements over a question's groups: the automatic score, the
 * score in force unless a marker's is, the verdict, and a `regrade` row in `edu_score_change` per
 * answer whose score in force changed. Graded attempts with a changed answer are summed again and their pass
 * decided again; one still being marked gets its total when its last answer is marked. Short
 * answers are the markers' and are left alone. Idempotent: run again, it finds nothing to change.
 * The bench measures this (`bench/`).
 */
export async function regrade(
  db: Kysely<Database>,
  questions: QuestionSource,
  target: RegradeTarget,
  by: string,
  now: number,
  /** Told of the attempts the regrade made pass. */
  passedListeners: readonly PassedListener[] = [],
): Promise<RegradeResult> {
  const work = async (trx: Kysely<Database>): Promise<RegradeResult> => {
    const groups = await findRegradeGroups(trx, target);
    const questionIds = [...new Set(groups.map((group) => group.questionId))];
    const scorable = new Map<number, QuestionContent>();
    for (const question of await questions.within(trx).contentsOf(questionIds)) {
      if (question.type !== 'short') scorable.set(question.id, question);
    }
    const rescored = await countTargetAnswers(trx, target, questionIds.filter((id) => !scorable.has(id)));
    const toRescore = new Map<number, GroupToRescore[]>();
    for (const group of groups) {
      const question = scorable.get(group.questionId);
      if (question === undefined) continue;
      const parsed = parseResponse(group.response);
      const scored = scoreResponse(scorableOf(question, group.maxScore), Array.isArray(parsed) || typeof parsed === 'string' ? parsed : null);
      const next = { autoScore: scored.score ?? 0, correct: scored.correct === true ? (1 as const) : (0 as const) };
      if (groupHolds(group, next)) continue;
      toRescore.set(group.questionId, [...(toRescore.get(group.questionId) ?? []), { maxScore: group.maxScore, response: group.response, next }]);
    }
    let changed = 0;
    const deltas = new Map<number, number>();
    for (const [questionId, ofQuestion] of toRescore) {
      const changes = await rescoreQuestion(trx, target, questionId, ofQuestion, { by, at: now });
      changed += changes.length;
      for (const change of changes) deltas.set(change.attemptId, (deltas.get(change.attemptId) ?? 0) + (change.newScore ?? 0) - (change.oldScore ?? 0));
    }
    const attempts: AttemptRescore[] = [];
    const nowPassing: { exam_id: number; user_id: number }[] = [];
    const attemptRows = await findAttemptRows(trx, [...deltas.keys()]);
    const passScores = await findPassScores(trx, [...new Set(attemptRows.map((attempt) => attempt.exam_id))]);
    for (const attempt of attemptRows) {
      if (attempt.state !== 'graded' || attempt.score === null) continue;
      const score = roundTo(Number(attempt.score) + (deltas.get(attempt.id) as number), 2);
      const passed = flagOf(passes(score, passScores.get(attempt.exam_id) ?? 0));
      if (score !== Number(attempt.score) || passed !== attempt.passed) attempts.push({ id: attempt.id, score, passed, at: now });
      if (passed === 1 && attempt.passed !== 1) nowPassing.push(attempt);
    }
    await writeAttemptTotals(trx, attempts);
    for (const attempt of nowPassing) {
      for (const listener of passedListeners) await listener(attempt.exam_id, [attempt.user_id], trx);
    }
    return { attempts: attempts.length, answers: rescored, changed };
  };
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * Marking (DESIGN §7, `/edu/correct-exam`): the queue of submitted answers by question across
 * candidates (anonymous unless names are asked for) or by attempt, with counters; a marker's
 * score within the question's maximum, or an override of a score already given with a reason,
 * each audited in `edu_score_change` and moving the attempt to graded once nothing is left to
 * mark; one attempt with its integrity timeline and its history of changes; and regrading after a
 * key fix. Staff see and mark only candidates within their data scope.
 */
export class MarkingService {
  private readonly passedListeners: PassedListener[];
  private readonly gradedListeners: GradedListener[];

  constructor(private readonly options: MarkingOptions) {
    this.passedListeners = options.passedListeners ?? [];
    this.gradedListeners = options.gradedListeners ?? [];
  }

  /** Listens to attempts a marker's last score graded (their results released to their people). */
  onGraded(listener: GradedListener): void {
    this.gradedListeners.push(listener);
  }

  /** Listens to attempts graded passed by a marker's score (certificates issued by an exam's rules). */
  onPassed(listener: PassedListener): void {
    this.passedListeners.push(listener);
  }

  /** Registers the regrade job; once, on the service the app builds (services.ts). */
  registerJobs(): void {
    this.options.jobs.register<RegradePayload>(REGRADE_JOB, async ({ questionIds, by }) => {
      await this.regradeQuestions(questionIds, by);
    });
  }

  within(db: Kysely<Database>): MarkingService {
    return db === this.options.db ? this : new MarkingService({ ...this.options, db, passedListeners: this.passedListeners, gradedListeners: this.gradedListeners });
  }

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  private transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? work(this.db) : this.db.transaction().execute(work);
  }

  private scopeOf(caller: Principal, db: Kysely<Database> = this.db): Promise<Scope> {
    return this.options.access.within(db).dataScopeOf(caller.userId);
  }

  private async requireInScope(caller: Principal, db: Kysely<Database>, deptId: number | null): Promise<void> {
    const scope = await this.scopeOf(caller, db);
    if (scope.length > 0 && (deptId === null || !scope.includes(deptId))) throw forbidden('this candidate is outside the departments you manage');
  }

  // ---- The queue --------------------------------------------------------------------------------

  async queue(caller: Principal, examId: number, query: MarkingQueueQuery): Promise<MarkingQueue> {
    const exam = await findExamHead(this.db, examId);
    if (exam === undefined) throw notFound(`id: no exam ${examId}`);
    const scope = await this.scopeOf(caller);
    const numbers = await this.candidateNumbers(examId);
    const name = (attemptId: number, row: { username: string; nickName: string }) => (query.reveal ? `${row.nickName} (${row.username})` : candidateLabel(numbers.get(attemptId) ?? 0));
    // Those outside are said beside the counters, so a marker whose scope hides candidates does not take 0 for "nothing came in".
    const counts = await countSubmitted(this.db, examId, scope);
    let groups: MarkingGroup[];
    let pendingTotal: number;
    let items: MarkingItem[] = [];
    if (query.by === 'question') {
      const rows = await findQuestionGroups(this.db, examId, scope);
      const questions = await this.questionsById(rows.map((row) => row.id));
      groups = rows.map((row, index) => ({ id: row.id, label: questionLabel(index + 1, questions.get(row.id)), total: row.total, pending: row.pending }));
      pendingTotal = rows.reduce((sum, row) => sum + row.pending, 0);
      if (query.questionId !== undefined) {
        const answers = await findMarkingAnswers(this.db, examId, scope, { questionId: query.questionId, pending: query.pending });
        items = await this.itemsOf(answers, questions, (row) => name(row.attemptId, row));
      }
    } else {
      const rows = await findAttemptGroups(this.db, examId, scope);
      groups = rows.map((row) => ({ id: row.id, label: name(row.id, row), total: row.total, pending: row.pending }));
      pendingTotal = rows.reduce((sum, row) => sum + row.pending, 0);
      if (query.attemptId !== undefined) {
        const answers = await findMarkingAnswers(this.db, examId, scope, { attemptId: query.attemptId, pending: query.pending });
        const questions = await this.questionsById(answers.map((row) => row.questionId));
        items = await this.itemsOf(answers, questions, (row) => name(row.attemptId, row));
      }
    }
    return { examId, title: exam.title, by: query.by, groups, items, pendingTotal, attemptCount: counts.submitted, gradedCount: counts.graded, outsideScope: counts.outsideScope };
  }

  private async candidateNumbers(examId: number, db: Kysely<Database> = this.db): Promise<Map<number, number>> {
    const ids = await findAttemptIdsOfExam(db, examId);
    return new Map(ids.map((id, index) => [id, index + 1]));
  }

  /**
   * The answers as items, each choice question's with the option order its candidate saw, from
   * its attempt's frozen paper (read only for those: a paper is kilobytes); the question's own
   * order where the paper froze none.
   */
  private async itemsOf(answers: readonly MarkingAnswerRow[], questions: Map<number, QuestionContent>, candidate: (row: MarkingAnswerRow) => string): Promise<MarkingItem[]> {
    const isChoice = (row: MarkingAnswerRow) => ['single', 'multiple'].includes(questions.get(row.questionId)?.type ?? '');
    const papers = await findPapers(this.db, [...new Set(answers.filter(isChoice).map((row) => row.attemptId))]);
    const frozen = new Map<string, string[]>();
    for (const [attemptId, paper] of papers) {
      for (const question of parsePaper(paper).questions) frozen.set(`${attemptId}:${question.id}`, question.options);
    }
    return answers.map((row) => {
      const question = questions.get(row.questionId);
      const order = frozen.get(`${row.attemptId}:${row.questionId}`) ?? [];
      return toItem(row, question, candidate(row), order.length > 0 ? order : (question?.options.map((option) => option.key) ?? []));
    });
  }

  private async questionsById(ids: readonly number[], db: Kysely<Database> = this.db): Promise<Map<number, QuestionContent>> {
    const questions = await this.options.questions.within(db).contentsOf([...new Set(ids)]);
    return new Map(questions.map((question) => [question.id, question]));
  }

  // ---- One attempt ------------------------------------------------------------------------------

  async attempt(caller: Principal, attemptId: number, reveal = false): Promise<MarkingAttempt> {
    const head = await findAttemptHead(this.db, attemptId);
    if (head === undefined) throw notFound(`id: no attempt ${attemptId}`);
    await this.requireInScope(caller, this.db, head.deptId);
    const numbers = await this.candidateNumbers(head.examId);
    const candidate = reveal ? `${head.nickName} (${head.username})` : candidateLabel(numbers.get(head.id) ?? 0);
    const answers = await findAnswersOfAttempt(this.db, attemptId);
    const questions = await this.questionsById(answers.map((row) => row.questionId));
    const events = await findEventsOfAttempt(this.db, attemptId);
    const changes = await findChangesOfAttempt(this.db, attemptId);
    return {
      id: head.id,
      examId: head.examId,
      candidate,
      state: head.state as AttemptState,
      startedAt: formatDateTime(head.startedAt),
      submittedAt: time(head.submittedAt),
      submittedBy: head.submittedBy as MarkingAttempt['submittedBy'],
      score: head.score,
      passed: head.passed,
      items: await this.itemsOf(answers, questions, () => candidate),
      events: events.map(
        (event): AttemptEvent => ({ type: event.type as IntegrityEventType, at: formatDateTime(event.at), questionId: event.questionId, detail: event.detail }),
      ),
      changes: changes.map((change) => ({ ...change, kind: change.kind as ScoreChange['kind'], at: formatDateTime(change.at) })),
    };
  }

  // ---- Marking ----------------------------------------------------------------------------------

  /**
   * A marker's score for an answer: a first `mark` for one awaiting a marker, an `override`
   * (with a reason) for one already scored. Audited with the old and new score; the attempt is
   * graded (total, pass) once no answer of it awaits a marker, and an already graded attempt is
   * summed again.
   */
  async mark(caller: Principal, answerId: number, body: MarkAnswer): Promise<void> {
    await this.transaction(async (trx) => {
      const answer = await findAnswerToMark(trx, answerId);
      if (answer === undefined) throw notFound(`answerId: no answer ${answerId}`);
      await this.requireInScope(caller, trx, answer.deptId);
      if (answer.state === 'in_progress') throw conflict('answerId: the attempt is still in progress');
      if (body.score > answer.maxScore) throw invalidInput(`score: is more than the question's ${answer.maxScore} points`);
      const kind = answer.score === null ? 'mark' : 'override';
      if (kind === 'override' && body.reason === '') throw invalidInput('reason: is required to change a score already given');
      const score = roundTo(body.score, 2);
      const now = this.options.clock.now();
      const by = caller.username;
      await updateMark(trx, answer.id, { score, correct: score >= answer.maxScore, comment: body.comment === '' ? null : body.comment, by, at: now });
      await insertScoreChange(trx, { attemptId: answer.attemptId, answerId: answer.id, questionId: answer.questionId, kind, oldScore: answer.score, newScore: score, reason: body.reason, by, at: now });
      const total = attemptScore(await findScoresOfAttempt(trx, answer.attemptId));
      if (total === null) return;
      const passScore = (await findPassScores(trx, [answer.examId])).get(answer.examId) ?? 0;
      const passed = passes(total, passScore);
      await updateAttemptResult(trx, answer.attemptId, { state: 'graded', score: total, passed, at: now });
      if (passed) for (const listener of this.passedListeners) await listener(answer.examId, [answer.userId], trx);
      // An override of an attempt graded already changes a released result; it is told once, when first graded.
      for (const listener of this.gradedListeners) await listener(answer.attemptId, trx);
    });
  }

  // ---- Regrading --------------------------------------------------------------------------------

  /** Rescores every submitted answer of the exam against the questions' current keys (see `regrade`). */
  async regradeExam(examId: number, by: string): Promise<RegradeResult> {
    if ((await findExamHead(this.db, examId)) === undefined) throw notFound(`id: no exam ${examId}`);
    return regrade(this.db, this.options.questions, { examId }, by, this.options.clock.now(), this.passedListeners);
  }

  /** Rescores every submitted answer to these questions, in whatever exam. */
  async regradeQuestions(questionIds: readonly number[], by: string): Promise<RegradeResult> {
    return regrade(this.db, this.options.questions, { questionIds }, by, this.options.clock.now(), this.passedListeners);
  }

  /** Queues the regrade after a key fix, in the fix's transaction (so a fix never goes without it). */
  async queueRegrade(questionIds: readonly number[], by: string, trx: Kysely<Database>): Promise<void> {
    // No dedupe key: one queued while an earlier regrade runs may see a key that earlier one did not.
    await this.options.jobs.enqueue(REGRADE_JOB, { questionIds: [...questionIds], by } satisfies RegradePayload, { db: trx });
  }
}

function questionLabel(number: number, question: QuestionContent | undefined): string {
  const text = (question?.stemText ?? '').replace(/\s+/g, ' ').trim();
  const stem = text.length > LABEL_STEM_LENGTH ? `${text.slice(0, LABEL_STEM_LENGTH)}…` : text;
  return `Q${number} · ${stem}`;
}

function toItem(row: MarkingAnswerRow, question: QuestionContent | undefined, candidate: string, optionOrder: string[]): MarkingItem {
  return {
    answerId: row.id,
    attemptId: row.attemptId,
    questionId: row.questionId,
    candidate,
    // A drawn question may have left the bank since: its answers are still marked, without its text.
    type: question?.type ?? 'short',
    stem: question?.stem ?? '',
    options: question?.options ?? [],
    optionOrder,
    answer: question?.answer ?? [],
    response: parseResponse(row.response),
    maxScore: row.maxScore,
    autoScore: row.autoScore,
    score: row.score,
    comment: row.comment,
    markedBy: row.markedBy,
    markedAt: time(row.markedAt),
    pending: row.score === null,
  };
}
