import {
  acceptsAnswersAt,
  attemptDeadline,
  attemptScore,
  attemptsLeft,
  AUTO_SUBMIT_GRACE_MS,
  clientChangeNote,
  countingAttempt,
  eventRoom,
  passes,
  reviewOpensAt,
  reviewShowsKey,
  scoreReleased,
} from '@cloud-classroom/shared/attempt-rules';
import type { AnswerSave, AnswerSaved, AttemptEvents, AttemptQuestion, AttemptResponse, AttemptResult, AttemptStart, AttemptState, MyAttempt, ReviewedQuestion } from '@cloud-classroom/shared/attempts';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { JUDGE_KEYS, scorableOf, scoreResponse, type Scored } from '@cloud-classroom/shared/question-scoring';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { isUniqueViolation } from '../../db/constraint-violation.js';
import type { Database } from '../../db/schema.js';
import { conflict, invalidInput, notFound } from '../../domain-error.js';
import type { JobRunner } from '../../jobs/job-runner.js';
import type { ExamsService, ExamTerms } from '../exams/exams.service.js';
import type { QuestionContent, QuestionsService } from '../questions/questions.service.js';
import { AnswerWriter } from './answer-writer.js';
import { parsePaper, type FrozenPaper, type FrozenQuestion } from './frozen-paper.js';
import {
  claimSubmission,
  countAnswered,
  countAttemptsInProgress,
  countEvents,
  findAnswers,
  findAttempt,
  findAttemptByNumber,
  findAttemptGuard,
  findAttemptTally,
  findMyAttempts,
  finishAttempt,
  findEventDetails,
  holdAttempt,
  insertAnswerRows,
  insertAttempt,
  insertEvents,
  updateAnswerScore,
  writeAnswers,
  type AnswerRow,
  type AttemptRow,
  type NewEvent,
} from './attempts.repo.js';

/** The job submitting an attempt left open, at its deadline plus the grace. */
export const AUTO_SUBMIT_JOB = 'attempts.autoSubmit';
type AutoSubmitPayload = { attemptId: number };

/** Attempts whose unchanging facts (owner, paper) are kept in memory for the saves. */
const GUARD_CACHE_SIZE = 20_000;
const AGENT_MAX = 255;
const DETAIL_MAX = 200;


/**
 * What saving an answer checks, never changing after the start: kept per attempt (see
 * GUARD_CACHE_SIZE). With what the timeline holds already, so a save asks the database only of a
 * value new to it: addresses and browsers noted (`MAX_CLIENT_VALUES` of each at most), the kinds
 * past that bound, and whether the timeline is full.
 */
type Guard = { userId: number; questions: Map<number, FrozenQuestion>; ip: string; agent: string; noted: Set<string>; capped: Set<ClientChange>; full: boolean };

type ClientChange = 'ip_change' | 'device_change';
const TOO_MANY: Record<ClientChange, 'too_many_addresses' | 'too_many_devices'> = { ip_change: 'too_many_addresses', device_change: 'too_many_devices' };

/** Where a request came from, to note a change of address or device during an attempt. */
export type Client = { ip: string; agent: string };

/** Told of people whose attempt of the exam was just graded passed, inside the grading's transaction: it should only queue work (a job) with it. */
export type PassedListener = (examId: number, userIds: number[], trx: Kysely<Database>) => Promise<void>;

/** Told of an attempt just graded (its score settled for the first time), inside the grading's transaction: it should only write or queue work with it. */
export type GradedListener = (attemptId: number, trx: Kysely<Database>) => Promise<void>;

export type AttemptsOptions = {
  /** Shared by the service and its `within` copies; filled by `onPassed`. */
  passedListeners?: PassedListener[];
  /** Shared by the service and its `within` copies; filled by `onGraded`. */
  gradedListeners?: GradedListener[];
  db: Kysely<Database>;
  clock: Clock;
  jobs: JobRunner;
  exams: ExamsService;
  questions: QuestionsService;
  /** Shared by a service and its `within` copies: one queue per process. */
  writer?: AnswerWriter;
  guards?: Map<number, Guard>;
};

const time = (at: number | null) => (at === null ? null : formatDateTime(at));

/**
 * Taking exams (DESIGN §6, §7, §10): an attempt's paper drawn and frozen at its start with a
 * deadline the server fixes then (the earliest of the window's close and start + limit + the
 * person's extra minutes); answers saved one by one, idempotent by revision and written in
 * groups (`AnswerWriter`), refused once the deadline has passed; submission by the learner, or
 * by the server at the deadline plus the grace (the `attempts.autoSubmit` job), exactly once
 * whoever comes first; grading of the objective questions at submission with the shared scoring
 * functions (short answers wait for a marker); results, keys and analyses as the exam's review
 * policy allows; and the integrity timeline.
 */
export class AttemptsService {
  private readonly writer: AnswerWriter;
  private readonly guards: Map<number, Guard>;

  constructor(private readonly options: AttemptsOptions) {
    this.writer = options.writer ?? new AnswerWriter((items, now) => writeAnswers(options.db, items, now), options.clock);
    this.guards = options.guards ?? new Map();
    this.passedListeners = options.passedListeners ?? [];
    this.gradedListeners = options.gradedListeners ?? [];
  }

  private readonly passedListeners: PassedListener[];
  private readonly gradedListeners: GradedListener[];

  /** Attempts started and not handed in, every exam's (the metrics' figure). */
  countInProgress(): Promise<number> {
    return countAttemptsInProgress(this.options.db);
  }

  /** Listens to attempts graded on submission (their results released to their people). */
  onGraded(listener: GradedListener): void {
    this.gradedListeners.push(listener);
  }

  /** Listens to attempts graded passed on submission (certificates issued by an exam's rules). */
  onPassed(listener: PassedListener): void {
    this.passedListeners.push(listener);
  }

  registerJobs(): void {
    this.options.jobs.register<AutoSubmitPayload>(AUTO_SUBMIT_JOB, async ({ attemptId }) => {
      await this.autoSubmit(attemptId);
    });
  }

  within(db: Kysely<Database>): AttemptsService {
    return db === this.options.db ? this : new AttemptsService({ ...this.options, db, writer: this.writer, guards: this.guards, passedListeners: this.passedListeners, gradedListeners: this.gradedListeners });
  }

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  private now(): number {
    return this.options.clock.now();
  }

  /** For the learner's list of exams: per exam, attempts started and the one still open. */
  async tally(userId: number, examIds: readonly number[]): Promise<Map<number, { used: number; openAttemptId: number | null }>> {
    return findAttemptTally(this.db, userId, examIds);
  }

  // ---- Starting ---------------------------------------------------------------------------------

  /**
   * My open attempt of the exam (`resumed`), or a new one: the exam must be published and
   * assigned to me (404), its window open for me (409 naming the bound) and an attempt left (409).
   * An open attempt past its deadline is submitted first, as the server would. Two starts racing
   * make one attempt: the unique attempt number lets one insert win, and the other resumes it.
   */
  async start(userId: number, examId: number, client: Client): Promise<{ resumed: boolean; attempt: AttemptStart }> {
    const terms = await this.options.exams.termsFor(userId, examId);
    if (terms === undefined) throw notFound(`id: no exam ${examId}`);
    const attempts = await findMyAttempts(this.db, userId, examId);
    const open = attempts.find((attempt) => attempt.state === 'in_progress' && attempt.submittedAt === null);
    if (open !== undefined) {
      if (acceptsAnswersAt(open.deadline, this.now())) return { resumed: true, attempt: await this.resume(open, terms, client) };
      await this.finish(open.id, 'server');
    }
    const now = this.now();
    if (terms.openAt !== null && now < terms.openAt) throw conflict(`openAt: the exam opens at ${formatDateTime(terms.openAt)}`);
    if (terms.closeAt !== null && now >= terms.closeAt) throw conflict(`closeAt: the exam closed at ${formatDateTime(terms.closeAt)}`);
    if (attempts.length >= terms.attemptsAllowed) {
      throw conflict(`attempts: all ${terms.attemptsAllowed} attempt${terms.attemptsAllowed === 1 ? '' : 's'} used`);
    }
    const { paper, bank } = await this.freezePaper(examId, terms);
    const deadline = attemptDeadline({ startedAt: now, limitMinutes: terms.limitMinutes, extraMinutes: terms.extraMinutes, closeAt: terms.closeAt });
    const number = Math.max(0, ...attempts.map((attempt) => attempt.number)) + 1;
    const agent = client.agent.slice(0, AGENT_MAX);
    const frozen = JSON.stringify(paper);
    try {
      const id = await this.db.transaction().execute(async (trx) => {
        const attemptId = await insertAttempt(trx, { examId, userId, number, startedAt: now, deadline, paper: frozen, ip: client.ip, agent });
        await insertAnswerRows(
          trx,
          attemptId,
          paper.questions.map((question) => ({ questionId: question.id, maxScore: question.score })),
        );
        await insertEvents(trx, [{ attemptId, type: 'start', at: now, questionId: null, detail: '' }]);
        if (deadline !== null) {
          await this.options.jobs.enqueue(AUTO_SUBMIT_JOB, { attemptId } satisfies AutoSubmitPayload, {
            runAt: deadline + AUTO_SUBMIT_GRACE_MS,
            dedupeKey: `attempt:${attemptId}`,
            db: trx,
          });
        }
        return attemptId;
      });
      const attempt: AttemptRow = {
        id,
        examId,
        userId,
        number,
        state: 'in_progress',
        startedAt: now,
        deadline,
        submittedAt: null,
        submittedBy: null,
        score: null,
        passed: null,
        paper: frozen,
        ip: client.ip,
        agent,
      };
      return { resumed: false, attempt: await this.startView(attempt, terms, { bank }) };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const winner = await findAttemptByNumber(this.db, examId, userId, number);
      if (winner === undefined) throw error;
      return { resumed: true, attempt: await this.resume(winner, terms, client) };
    }
  }

  /**
   * Draws the paper and freezes it: question order, sections, points and, per question, option
   * order; with the questions as drawn (texts included).
   */
  private async freezePaper(examId: number, terms: ExamTerms): Promise<{ paper: FrozenPaper; bank: Map<number, QuestionContent> }> {
    const { sections } = await this.options.exams.drawPaper(examId);
    const questions: FrozenQuestion[] = [];
    const bank = new Map<number, QuestionContent>();
    for (const section of sections) {
      for (const { question, score } of section.questions) {
        bank.set(question.id, question);
        questions.push({
          id: question.id,
          type: question.type,
          section: section.title,
          score,
          options: this.options.exams.optionOrder(
            question.options.map((option) => option.key),
            terms.shuffleOptions,
          ),
          blanks: question.type === 'blank' ? question.answer.length : 0,
        });
      }
    }
    return { paper: { questions }, bank };
  }

  private async resume(attempt: AttemptRow, terms: ExamTerms, client: Client): Promise<AttemptStart> {
    const guard = this.guardOf(attempt);
    if (!guard.full) await this.appendEvents(attempt.id, async () => [{ attemptId: attempt.id, type: 'resume', at: this.now(), questionId: null, detail: '' }], guard);
    await this.noteClient(attempt.id, guard, client);
    return this.startView(attempt, terms);
  }

  /**
   * The attempt as its taker sees it: the frozen paper with the bank's current texts (no key, no
   * analysis), my answers, the time left. `fresh`: the attempt was just started from these
   * questions as drawn, and has no answer yet.
   */
  private async startView(attempt: AttemptRow, terms: ExamTerms, fresh?: { bank: ReadonlyMap<number, QuestionContent> }): Promise<AttemptStart> {
    const paper = parsePaper(attempt.paper);
    const bank = fresh?.bank ?? new Map((await this.options.questions.contentsOf(paper.questions.map((question) => question.id))).map((question) => [question.id, question]));
    const answers = fresh === undefined ? await findAnswers(this.db, attempt.id) : [];
    const now = this.now();
    return {
      id: attempt.id,
      examId: attempt.examId,
      title: terms.title,
      description: terms.description,
      number: attempt.number,
      attemptsAllowed: terms.attemptsAllowed,
      totalScore: totalOf(paper),
      passScore: terms.passScore,
      startedAt: formatDateTime(attempt.startedAt),
      deadline: time(attempt.deadline),
      serverNow: formatDateTime(now),
      remainingMs: attempt.deadline === null ? null : Math.max(0, attempt.deadline - now),
      questions: paper.questions.map((frozen) => candidateQuestion(frozen, bank.get(frozen.id))),
      answers: answers
        .filter((answer) => answer.revision > 0)
        .map((answer) => ({
          questionId: answer.questionId,
          response: parseResponse(answer.response),
          revision: answer.revision,
          savedAt: formatDateTime(answer.savedAt ?? attempt.startedAt),
        })),
    };
  }

  // ---- Answers ----------------------------------------------------------------------------------

  /**
   * Saves an answer of my attempt if its revision is newer than the stored one: 404 when the
   * attempt is not mine (as when there is none) or the question not in it, 400 when the response
   * does not fit the question's type, 409 once the attempt takes no more answers. An older or
   * equal revision writes nothing and answers what is stored.
   */
  async saveAnswer(userId: number, attemptId: number, questionId: number, body: AnswerSave, client: Client): Promise<AnswerSaved> {
    const guard = await this.guard(userId, attemptId);
    const question = guard.questions.get(questionId);
    if (question === undefined) throw notFound(`questionId: no question ${questionId} in attempt ${attemptId}`);
    const issue = responseIssue(question, body.response);
    if (issue !== undefined) throw invalidInput(`response: ${issue}`);
    await this.noteClient(attemptId, guard, client);
    const outcome = await this.writer.save({
      attemptId,
      questionId,
      response: body.response === null ? null : JSON.stringify(body.response),
      revision: body.revision,
      seconds: body.seconds,
    });
    if (outcome.kind === 'closed') throw conflict(`deadline: attempt ${attemptId} takes no more answers`);
    return { revision: outcome.revision, savedAt: formatDateTime(outcome.savedAt) };
  }

  /** My attempt's unchanging facts, from memory after the first read; 404 when it is not mine. */
  private async guard(userId: number, attemptId: number): Promise<Guard> {
    let guard = this.guards.get(attemptId);
    if (guard === undefined) {
      const row = await findAttemptGuard(this.db, attemptId);
      if (row === undefined) throw notFound(`id: no attempt ${attemptId}`);
      guard = this.remember(attemptId, { userId: row.userId, paper: row.paper, ip: row.ip, agent: row.agent });
    }
    if (guard.userId !== userId) throw notFound(`id: no attempt ${attemptId}`);
    return guard;
  }

  private guardOf(attempt: AttemptRow): Guard {
    return this.guards.get(attempt.id) ?? this.remember(attempt.id, attempt);
  }

  private remember(attemptId: number, facts: { userId: number; paper: string; ip: string; agent: string }): Guard {
    const guard: Guard = {
      userId: facts.userId,
      questions: new Map(parsePaper(facts.paper).questions.map((question) => [question.id, question])),
      ip: facts.ip,
      agent: facts.agent,
      noted: new Set(),
      capped: new Set(),
      full: false,
    };
    if (this.guards.size >= GUARD_CACHE_SIZE) this.guards.delete(this.guards.keys().next().value as number);
    this.guards.set(attemptId, guard);
    return guard;
  }

  /**
   * An address or browser other than the start's goes on the timeline, once per new value, up to
   * `MAX_CLIENT_VALUES` of each; then once that there were more (`clientChangeNote`).
   */
  private async noteClient(attemptId: number, guard: Guard, client: Client): Promise<void> {
    const agent = client.agent.slice(0, AGENT_MAX);
    for (const [type, value, started] of [
      ['ip_change', client.ip, guard.ip],
      ['device_change', agent.slice(0, DETAIL_MAX), guard.agent.slice(0, DETAIL_MAX)],
    ] as const) {
      const key = `${type}:${value}`;
      if (guard.full || guard.capped.has(type) || value === started || guard.noted.has(key)) continue;
      await this.appendEvents(attemptId, async (trx) => {
        const stored = await findEventDetails(trx, attemptId, [type, TOO_MANY[type]]);
        const noted = stored.filter((event) => event.type === type).map((event) => event.detail);
        const capped = stored.some((event) => event.type === TOO_MANY[type]);
        const note = clientChangeNote({ value, started, noted, capped });
        if (capped || note === 'too_many') guard.capped.add(type);
        else guard.noted.add(key);
        if (note === 'none') return [];
        return [{ attemptId, type: note === 'value' ? type : TOO_MANY[type], at: this.now(), questionId: null, detail: note === 'value' ? value : '' }];
      }, guard);
    }
  }

  /**
   * Adds events to an attempt's timeline as far as `eventRoom` leaves room for them (the
   * submission's place aside), counting what is there with the attempt held, so two requests at
   * once do not both take the last place. `make` decides what to add from the timeline as it is then.
   */
  private async appendEvents(attemptId: number, make: (trx: Kysely<Database>) => Promise<NewEvent[]>, guard?: Guard): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await holdAttempt(trx, attemptId);
      const room = eventRoom(await countEvents(trx, attemptId), false);
      if (room === 0) {
        if (guard !== undefined) guard.full = true;
        return;
      }
      await insertEvents(trx, (await make(trx)).slice(0, room));
    });
  }

  // ---- Submitting and grading -------------------------------------------------------------------

  /**
   * Submits my attempt and answers its result. Submitting again answers the same result (200):
   * a client retrying after a lost answer must not see an error. After the deadline the learner
   * may still submit until the server does (answers are refused by then already).
   */
  async submit(userId: number, attemptId: number): Promise<AttemptResult> {
    const attempt = await this.own(userId, attemptId);
    if (attempt.state === 'in_progress' && attempt.submittedAt === null) {
      const late = attempt.deadline !== null && this.now() >= attempt.deadline + AUTO_SUBMIT_GRACE_MS;
      await this.finish(attemptId, late ? 'server' : 'learner');
    }
    return this.result(userId, attemptId);
  }

  /** The job's work: submits the attempt as the server if nobody has yet. */
  async autoSubmit(attemptId: number): Promise<boolean> {
    return this.finish(attemptId, 'server');
  }

  /**
   * Submits and grades in one transaction, if the attempt is still in progress (the claim is one
   * conditional update, so the learner and the server's job, on any process, submit it once):
   * each answer scored against the question's current key, short answers left to a marker
   * (state `marking`), else `graded` with the total and pass or fail. Answers whether this call did.
   */
  private async finish(attemptId: number, by: 'learner' | 'server'): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const now = this.now();
      if (!(await claimSubmission(trx, attemptId, by, now))) return false;
      const attempt = (await findAttempt(trx, attemptId)) as AttemptRow;
      const answers = await findAnswers(trx, attemptId);
      const bank = new Map(
        (
          await this.options.questions.within(trx).contentsOf(
            answers.map((answer) => answer.questionId),
          )
        ).map((question) => [question.id, question]),
      );
      const scores: (number | null)[] = [];
      for (const answer of answers) {
        const scored = scoreAnswer(bank.get(answer.questionId), answer);
        const score = answer.manualScore ?? scored.score;
        scores.push(score);
        await updateAnswerScore(trx, answer.id, { autoScore: scored.score, score, correct: answer.manualScore === null ? scored.correct : answer.manualScore >= answer.maxScore });
      }
      const total = attemptScore(scores);
      const terms = await this.options.exams.within(trx).termsFor(attempt.userId, attempt.examId, { assigned: false });
      const passed = total === null ? null : passes(total, terms?.passScore ?? 0);
      await finishAttempt(trx, attemptId, total === null ? { state: 'marking', score: null, passed: null } : { state: 'graded', score: total, passed }, now);
      if (passed === true) for (const listener of this.passedListeners) await listener(attempt.examId, [attempt.userId], trx);
      if (total !== null) for (const listener of this.gradedListeners) await listener(attemptId, trx);
      // The claim holds the attempt's row: nobody else counts the room meanwhile.
      if (eventRoom(await countEvents(trx, attemptId), true) > 0) await insertEvents(trx, [{ attemptId, type: by === 'server' ? 'auto_submit' : 'submit', at: now, questionId: null, detail: '' }]);
      return true;
    });
  }

  // ---- Results ----------------------------------------------------------------------------------

  /**
   * My attempt's state and, as the review policy allows, its score and my answers; with the key,
   * analyses, verdicts and comments only once nobody can use them for a sitting still to come
   * (`reviewShowsKey`: my attempts all used, or the exam closed for everyone).
   */
  async result(userId: number, attemptId: number): Promise<AttemptResult> {
    const attempt = await this.own(userId, attemptId);
    // Undefined once the exam is unpublished or no longer assigned to me: I can sit it no more.
    const current = await this.options.exams.termsFor(userId, attempt.examId);
    const terms = current ?? (await this.options.exams.termsFor(userId, attempt.examId, { assigned: false }));
    const paper = parsePaper(attempt.paper);
    const answers = await findAnswers(this.db, attemptId);
    const now = this.now();
    const state = attempt.state as AttemptState;
    const released = scoreReleased(state);
    const review = terms?.review ?? 'never';
    let opensAt: number | null = null;
    let showsKey = false;
    if (review !== 'never' && attempt.submittedAt !== null) {
      const closesAt = await this.options.exams.latestCloseOf(attempt.examId);
      opensAt = reviewOpensAt(review, attempt.submittedAt, closesAt);
      if (opensAt !== null && opensAt <= now) showsKey = reviewShowsKey({ review, attemptsLeft: await this.attemptsLeft(userId, attempt.examId, current, now), now, latestClose: closesAt });
    }
    const reviewable = opensAt !== null && opensAt <= now;
    let questions: ReviewedQuestion[] = [];
    if (reviewable) {
      const bank = new Map((await this.options.questions.contentsOf(paper.questions.map((question) => question.id))).map((question) => [question.id, question]));
      const byQuestion = new Map(answers.map((answer) => [answer.questionId, answer]));
      questions = paper.questions.map((frozen) => {
        const question = bank.get(frozen.id);
        const answer = byQuestion.get(frozen.id);
        const mine = { ...candidateQuestion(frozen, question), response: parseResponse(answer?.response ?? null) };
        // A verdict or a comment tells the key as well as the key does.
        if (!showsKey) return { ...mine, earned: null, correct: null, comment: null };
        return {
          ...mine,
          earned: released ? (answer?.score ?? null) : null,
          correct: released ? (answer?.correct ?? null) : null,
          comment: answer?.comment ?? null,
          answer: question?.answer ?? [],
          analysis: question?.analysis ?? '',
        };
      });
    }
    return {
      id: attempt.id,
      examId: attempt.examId,
      title: terms?.title ?? '',
      number: attempt.number,
      state,
      submittedBy: attempt.submittedBy as AttemptResult['submittedBy'],
      startedAt: formatDateTime(attempt.startedAt),
      deadline: time(attempt.deadline),
      submittedAt: time(attempt.submittedAt),
      totalScore: totalOf(paper),
      passScore: terms?.passScore ?? 0,
      answeredCount: await countAnswered(this.db, attemptId),
      questionCount: paper.questions.length,
      released,
      score: released ? attempt.score : null,
      passed: released ? attempt.passed : null,
      questions,
      keyLater: reviewable && !showsKey,
      reviewFrom: opensAt !== null && opensAt > now ? formatDateTime(opensAt) : null,
    };
  }

  /** The attempts I may still sit of the exam (`current`: my terms while it is published and assigned to me). */
  private async attemptsLeft(userId: number, examId: number, current: ExamTerms | undefined, now: number): Promise<number> {
    const attempts = await findMyAttempts(this.db, userId, examId);
    const running = attempts.some((attempt) => attempt.state === 'in_progress' && attempt.submittedAt === null && acceptsAnswersAt(attempt.deadline, now));
    return attemptsLeft({ allowed: current?.attemptsAllowed ?? 0, used: attempts.length, running, closeAt: current?.closeAt ?? null, now });
  }

  /** My attempts of an exam assigned to me, newest first, marking the one whose score counts. */
  async mine(userId: number, examId: number): Promise<MyAttempt[]> {
    const terms = await this.options.exams.termsFor(userId, examId);
    const attempts = await findMyAttempts(this.db, userId, examId);
    if (terms === undefined && attempts.length === 0) throw notFound(`id: no exam ${examId}`);
    const finished = attempts.filter((attempt) => attempt.state !== 'in_progress');
    const counting = countingAttempt(
      finished.map((attempt) => ({ id: attempt.id, startedAt: attempt.startedAt, score: attempt.state === 'graded' ? attempt.score : null })),
      terms?.counts ?? 'best',
    );
    return attempts.map((attempt) => {
      const released = scoreReleased(attempt.state as AttemptState);
      return {
        id: attempt.id,
        number: attempt.number,
        state: attempt.state as AttemptState,
        startedAt: formatDateTime(attempt.startedAt),
        submittedAt: time(attempt.submittedAt),
        released,
        score: released ? attempt.score : null,
        passed: released ? attempt.passed : null,
        counts: attempt.id === counting?.id,
      };
    });
  }

  // ---- Integrity events -------------------------------------------------------------------------

  /**
   * Stores the client's events on my attempt's timeline, dated by the server's clock (now less
   * their age, never before the start), while the attempt is in progress or within the grace
   * after its deadline or submission (409 after); what finds no room on the timeline (`eventRoom`) is dropped.
   */
  async recordEvents(userId: number, attemptId: number, body: AttemptEvents): Promise<void> {
    const attempt = await this.own(userId, attemptId);
    const now = this.now();
    const open = attempt.submittedAt === null ? attempt.deadline === null || now < attempt.deadline + AUTO_SUBMIT_GRACE_MS : now < attempt.submittedAt + AUTO_SUBMIT_GRACE_MS;
    if (!open) throw conflict(`deadline: attempt ${attemptId} is over`);
    const inPaper = new Set(parsePaper(attempt.paper).questions.map((question) => question.id));
    await this.appendEvents(attemptId, async () =>
      body.events.map((event) => ({
        attemptId,
        type: event.type,
        at: Math.max(attempt.startedAt, now - event.agoMs),
        questionId: event.questionId !== null && inPaper.has(event.questionId) ? event.questionId : null,
        detail: event.detail,
      })),
    );
  }

  /** My attempt; another person's answers the same 404 as none, so ids tell nothing. */
  private async own(userId: number, attemptId: number): Promise<AttemptRow> {
    const attempt = await findAttempt(this.db, attemptId);
    if (attempt === undefined || attempt.userId !== userId) throw notFound(`id: no attempt ${attemptId}`);
    return attempt;
  }
}

/** Written only by this module, from a checked response. */
const parseResponse = (text: string | null): AttemptResponse => (text === null ? null : (JSON.parse(text) as AttemptResponse));

const totalOf = (paper: FrozenPaper) => Math.round(paper.questions.reduce((sum, question) => sum + question.score, 0) * 100) / 100;

/** The question as its taker sees it, in the attempt's option order; the bank's current texts. */
function candidateQuestion(frozen: FrozenQuestion, question: QuestionContent | undefined): AttemptQuestion {
  const texts = new Map((question?.options ?? []).map((option) => [option.key, option]));
  return {
    id: frozen.id,
    type: frozen.type,
    section: frozen.section,
    stem: question?.stem ?? '',
    options: frozen.options.flatMap((key) => texts.get(key as never) ?? []),
    blanks: frozen.blanks,
    score: frozen.score,
  };
}

/** Why a response does not fit the question (undefined: it fits). Null clears an answer of any type. */
export function responseIssue(question: FrozenQuestion, response: AttemptResponse): string | undefined {
  if (response === null) return undefined;
  switch (question.type) {
    case 'single':
    case 'judge': {
      const keys: readonly string[] = question.type === 'judge' ? JUDGE_KEYS : question.options;
      if (typeof response !== 'string' || !keys.includes(response)) return `must be one of ${keys.join(', ')}`;
      return undefined;
    }
    case 'multiple':
      if (!Array.isArray(response) || response.some((key) => !question.options.includes(key))) return `must be a list of keys among ${question.options.join(', ')}`;
      if (new Set(response).size !== response.length) return 'lists a key twice';
      return undefined;
    case 'blank':
      if (!Array.isArray(response) || response.length !== question.blanks) return `must be a list of ${question.blanks} text${question.blanks === 1 ? '' : 's'}, one per blank`;
      return undefined;
    case 'short':
      return typeof response === 'string' ? undefined : 'must be a text';
  }
}

/** An answer scored against the question's current key at the paper's points; a blank short answer earns 0 without a marker. */
function scoreAnswer(question: QuestionContent | undefined, answer: AnswerRow): Scored {
  const response = parseResponse(answer.response);
  if (question === undefined) return { score: 0, correct: false };
  if (question.type === 'short' && (response === null || (typeof response === 'string' && response.trim() === ''))) return { score: 0, correct: false };
  return scoreResponse(scorableOf(question, answer.maxScore), response);
}

