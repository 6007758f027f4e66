import { ENROLLED_STATUSES } from '@cloud-classroom/shared/applicants';
import { latestClose } from '@cloud-classroom/shared/attempt-rules';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { drawQuestions, shuffled, type DrawDemand, type DrawOutcome } from '@cloud-classroom/shared/exam-draw';
import type {
  DrawCheckResult,
  DrawRule,
  Exam,
  ExamAssign,
  ExamAssigned,
  ExamAssignee,
  ExamAssigneeOverride,
  ExamAssigneeQuery,
  ExamCounts,
  ExamCreate,
  ExamPreview,
  ExamQuery,
  ExamReview,
  ExamRule,
  ExamUpdate,
  Paper,
  PaperQuestion,
  SiteExam,
} from '@cloud-classroom/shared/exams';
import type { Page } from '@cloud-classroom/shared/http';
import type { QuestionAnswer } from '@cloud-classroom/shared/questions';
import type { QuestionType } from '@cloud-classroom/shared/question-scoring';
import type { QuestionContent } from '../questions/questions.service.js';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { conflict, forbidden, invalidInput, notFound } from '../../domain-error.js';
import type { JobRunner } from '../../jobs/job-runner.js';
import { isInScope, type AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/session.service.js';
import {
  countAssigneesByRule,
  deleteAssignees,
  deleteAssigneesOfPeople,
  deleteExamRules,
  deleteExams,
  findAssigneeHeads,
  findAssignees,
  findAssigneesOfUsers,
  findCourseExists,
  findExamHead,
  findCloses,
  findExamForPerson,
  findExamsAttempted,
  findExamIds,
  findExamRules,
  findExams,
  findMemberships,
  findMyExams,
  findPeople,
  findRuleMadeAssignees,
  findTargetNames,
  findTermCourse,
  findUserIdsEnrolledIn,
  findUserIdsInDepts,
  findUserIdsWithRoles,
  insertAssignees,
  insertExam,
  insertExamRule,
  markAssigneesStaff,
  setAssigneeRule,
  setExamQuestions,
  updateAssigneeOverrides,
  updateExam,
  type ExamHead,
  type ExamRuleRow,
  type ExamValues,
  type Membership,
  type MyExamRow,
} from './exams.repo.js';

/** What the exams need of the question bank (the questions service). */
export type QuestionBank = {
  /** The ids of the questions a draw rule may draw: carrying any of its tags (any question without tags), of its type and difficulty. */
  matchingIds(rule: { tags: readonly string[]; type: QuestionType; difficulty: number | null }): Promise<number[]>;
  /** The questions by id; ids naming none are absent. */
  contentsOf(ids: readonly number[]): Promise<QuestionContent[]>;
  within(db: Kysely<Database>): QuestionBank;
};

export type ExamsOptions = {
  db: Kysely<Database>;
  clock: Clock;
  jobs: JobRunner;
  access: AccessService;
  questions: QuestionBank;
  /** Values in [0, 1) deciding the drawn papers and the shuffles. */
  random?: () => number;
  /** The attempts module's count of a person's attempts (a function: that module is built after this one and calls it). */
  attempts?: () => AttemptTally;
  /** Shared by the service and its `within` copies; filled by `onAssigneesChanged`. */
  changeListeners?: ExamChangeListener[];
};

/**
 * An exam's people changed: `assigned` newly (by staff or a rule), or their own terms (due date,
 * window) overridden; no people: the exam itself was saved (its window may have moved).
 */
export type ExamChange = { examId: number; userIds: number[]; assigned: boolean };

/** Told of an ExamChange inside the change's transaction; it should only write or queue work with it. */
export type ExamChangeListener = (change: ExamChange, trx: Kysely<Database>) => Promise<void>;

/** The job that assigns people the exams whose department, role or term rules now cover them. */
export const APPLY_EXAM_RULES_JOB = 'exams.applyRules';
type ApplyRulesPayload = { userIds: number[] };

const TARGET_NOUNS = { dept: 'department', role: 'role', term: 'term' } as const;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** A question of a drawn paper, whole, with its points in this paper. */
export type DrawnQuestion = { question: QuestionContent; score: number };
/** A paper drawn for a preview or an attempt: the exam and its sections' questions in order. */
export type DrawnPaper = { exam: ExamHead; sections: { title: string; questions: DrawnQuestion[] }[] };

/**
 * A person's terms for an exam published and assigned to them: the window (a bound set for them
 * replaces the exam's), limit and extra minutes, attempts allowed (extra ones added), and what
 * taking it needs of the exam.
 */
export type ExamTerms = {
  examId: number;
  title: string;
  description: string;
  openAt: number | null;
  closeAt: number | null;
  limitMinutes: number | null;
  extraMinutes: number;
  attemptsAllowed: number;
  counts: ExamCounts;
  review: ExamReview;
  totalScore: number;
  passScore: number;
  shuffleOptions: boolean;
};

/** What the learner's list needs of their attempts: per exam, how many they started and the one still open. */
export type AttemptTally = (userId: number, examIds: readonly number[]) => Promise<Map<number, { used: number; openAttemptId: number | null }>>;

/** A draw rule with where it sits in the paper, for messages naming it. */
type PlacedRule = { rule: DrawRule; field: string };

/** A paper checked against the bank: its fixed questions, each rule's candidates, its totals. */
type CheckedPaper = {
  questions: Map<number, QuestionContent>;
  fixedIds: number[];
  rules: PlacedRule[];
  demands: DrawDemand[];
  totalScore: number;
  questionCount: number;
};

/**
 * Exam design and assignment (DESIGN §6, §10): exams with their paper (sections of fixed
 * questions and draw rules, validated against the bank with `drawQuestions` so every paper can be
 * drawn), the staff's preview of a drawn paper, and who is assigned an exam: people by hand
 * (source `staff`), or department subtrees, roles and terms' enrolled applicants through rules in
 * `edu_assignment_rule` (source `rule`), which also reach people who join them later through the
 * `exams.applyRules` job. A rule reaches no further than its author's data scope, as staff see
 * and assign only the people of their departments. Taking an exam builds on this.
 */
export class ExamsService {
  private readonly changeListeners: ExamChangeListener[];

  constructor(private readonly options: ExamsOptions) {
    this.changeListeners = options.changeListeners ?? [];
  }

  /** Listens to people assigned an exam, their terms overridden, and exams saved (notifications). */
  onAssigneesChanged(listener: ExamChangeListener): void {
    this.changeListeners.push(listener);
  }

  private async changed(trx: Kysely<Database>, change: ExamChange): Promise<void> {
    if (change.assigned && change.userIds.length === 0) return;
    for (const listener of this.changeListeners) await listener(change, trx);
  }

  /** Registers the service's job handlers; once, on the service the app builds (services.ts). */
  registerJobs(): void {
    this.options.jobs.register<ApplyRulesPayload>(APPLY_EXAM_RULES_JOB, async ({ userIds }) => {
      await this.applyRulesTo(userIds);
    });
  }

  /** The same service inside a transaction, for callers whose own writes go with these. */
  within(db: Kysely<Database>): ExamsService {
    return db === this.options.db ? this : new ExamsService({ ...this.options, db, changeListeners: this.changeListeners });
  }

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  private now(): number {
    return this.options.clock.now();
  }

  private get random(): () => number {
    return this.options.random ?? Math.random;
  }

  /** Runs `work` in a transaction, or in the caller's when this service is already `within` one. */
  private transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? work(this.db) : this.db.transaction().execute(work);
  }

  // ---- Exams ------------------------------------------------------------------------------------

  async list(query: ExamQuery): Promise<Page<Exam>> {
    return findExams(this.db, { q: query.q, courseId: query.courseId, status: query.status }, query);
  }

  async one(id: number): Promise<Exam> {
    const [exam] = (await findExams(this.db, { ids: [id] })).content;
    if (exam === undefined) throw notFound(`id: no exam ${id}`);
    return exam;
  }

  /**
   * Saves a new exam once its paper can be drawn (see `valuesOf`), with a row per fixed question
   * (so a question in use cannot be deleted from the bank).
   */
  async create(body: ExamCreate, by: string): Promise<number> {
    return this.transaction(async (trx) => {
      const values = await this.valuesOf(trx, body);
      const id = await insertExam(trx, values, by, this.now());
      await setExamQuestions(trx, id, fixedIdsOf(values.paper));
      await this.changed(trx, { examId: id, userIds: [], assigned: false });
      return id;
    });
  }

  async update(body: ExamUpdate, by: string): Promise<void> {
    await this.transaction(async (trx) => {
      if (!(await findExamIds(trx, [body.id])).has(body.id)) throw notFound(`id: no exam ${body.id}`);
      const values = await this.valuesOf(trx, body);
      await updateExam(trx, body.id, values, by, this.now());
      await setExamQuestions(trx, body.id, fixedIdsOf(values.paper));
      await this.changed(trx, { examId: body.id, userIds: [], assigned: false });
    });
  }

  /**
   * Deletes the exams with their assignees and assignment rules, all or none (404 naming the first
   * missing); refused (409) for an exam people have attempted, whose results and reports need it.
   */
  async delete(ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transaction(async (trx) => {
      const found = await findExamIds(trx, unique);
      const missing = unique.find((id) => !found.has(id));
      if (missing !== undefined) throw notFound(`ids: no exam ${missing}`);
      const attempted = await findExamsAttempted(trx, unique);
      if (attempted.length > 0) throw conflict(`ids: ${attempted.map((title) => `'${title}'`).join(', ')} ${attempted.length === 1 ? 'has' : 'have'} attempts`);
      await deleteExams(trx, unique);
    });
  }

  /**
   * What is stored of an exam: a term must be one of the course's (a term alone sets the course),
   * the fixed questions must exist, every draw rule must be satisfiable together with the others
   * and apart from the fixed questions, and the pass score may not exceed the paper's total.
   */
  private async valuesOf(trx: Kysely<Database>, body: ExamCreate): Promise<ExamValues> {
    let courseId = body.courseId;
    if (body.termId !== null) {
      const termCourse = await findTermCourse(trx, body.termId);
      if (termCourse === undefined) throw invalidInput(`termId: term ${body.termId} does not exist`);
      if (courseId !== null && courseId !== termCourse) throw invalidInput(`termId: term ${body.termId} is not a term of course ${courseId}`);
      courseId = termCourse;
    } else if (courseId !== null && !(await findCourseExists(trx, courseId))) {
      throw invalidInput(`courseId: course ${courseId} does not exist`);
    }
    const checked = await this.checkPaper(trx, body.paper);
    const outcome = drawQuestions(checked.demands, checked.fixedIds, this.random);
    if (!outcome.ok) throw invalidInput(shortfallMessage(checked.rules[outcome.rule] as PlacedRule, outcome));
    if (body.passScore > checked.totalScore) throw invalidInput(`passScore: is more than the paper's total score of ${checked.totalScore}`);
    return {
      title: body.title,
      courseId,
      termId: body.termId,
      status: body.status,
      description: body.description,
      paper: body.paper,
      totalScore: checked.totalScore,
      questionCount: checked.questionCount,
      openAt: body.openAt,
      closeAt: body.closeAt,
      limitMinutes: body.limitMinutes,
      attempts: body.attempts,
      counts: body.counts,
      passScore: body.passScore,
      shuffleQuestions: body.shuffleQuestions,
      shuffleOptions: body.shuffleOptions,
      review: body.review,
    };
  }

  /**
   * Reads what the paper names from the bank: its fixed questions (400 naming the section of one
   * that does not exist), each draw rule's candidates, and the totals: a fixed question scores the
   * section's score or its own, a rule its count × its score.
   */
  private async checkPaper(db: Kysely<Database>, paper: Paper): Promise<CheckedPaper> {
    const bank = this.options.questions.within(db);
    const fixedIds = fixedIdsOf(paper);
    const questions = new Map((await bank.contentsOf(fixedIds)).map((question) => [question.id, question]));
    const rules: PlacedRule[] = [];
    let totalScore = 0;
    let questionCount = 0;
    for (const [index, section] of paper.sections.entries()) {
      const missing = section.questionIds.find((id) => !questions.has(id));
      if (missing !== undefined) throw invalidInput(`paper.sections.${index}.questionIds: question ${missing} does not exist`);
      for (const id of section.questionIds) totalScore += section.score ?? (questions.get(id) as QuestionContent).score;
      questionCount += section.questionIds.length;
      for (const [ruleIndex, rule] of section.draw.entries()) {
        rules.push({ rule, field: `paper.sections.${index}.draw.${ruleIndex}` });
        totalScore += rule.count * rule.score;
        questionCount += rule.count;
      }
    }
    const demands: DrawDemand[] = [];
    for (const { rule } of rules) {
      demands.push({ count: rule.count, candidates: await bank.matchingIds({ tags: rule.tags, type: rule.type, difficulty: rule.difficulty }) });
    }
    return { questions, fixedIds, rules, demands, totalScore: round2(totalScore), questionCount };
  }

  /**
   * The editor's live count: per rule, how many questions match it, how many of those are not
   * fixed questions of the paper, and whether it is short. A rule found short is set aside and
   * the others drawn again, so every rule that cannot be met is marked, not only the first.
   */
  async drawCheck(paper: Paper): Promise<DrawCheckResult> {
    const checked = await this.checkPaper(this.db, paper);
    const fixed = new Set(checked.fixedIds);
    const short = new Set<number>();
    let active = checked.demands.map((_, index) => index);
    for (;;) {
      const outcome = drawQuestions(
        active.map((index) => checked.demands[index] as DrawDemand),
        checked.fixedIds,
        this.random,
      );
      if (outcome.ok) break;
      const rule = active[outcome.rule] as number;
      short.add(rule);
      active = active.filter((index) => index !== rule);
    }
    let next = 0;
    return {
      sections: paper.sections.map((section) => ({
        rules: section.draw.map(() => {
          const index = next;
          next += 1;
          const candidates = new Set((checked.demands[index] as DrawDemand).candidates);
          return { matching: candidates.size, available: [...candidates].filter((id) => !fixed.has(id)).length, short: short.has(index) };
        }),
      })),
      totalScore: checked.totalScore,
      questionCount: checked.questionCount,
    };
  }

  // ---- Preview ----------------------------------------------------------------------------------

  /**
   * One paper as a learner would get it, drawn afresh on every call: each section's fixed
   * questions in order (shuffled when the exam shuffles questions), then the questions drawn for
   * its rules in random order; options shuffled when the exam says so (keys stay the question's
   * own); with the key and analysis, as only staff preview. A bank that no longer satisfies a rule
   * (drawn questions deleted since) answers 409 naming it.
   */
  async preview(id: number): Promise<ExamPreview> {
    const { exam, sections } = await this.drawPaper(id);
    return {
      examId: exam.id,
      title: exam.title,
      description: exam.description,
      limitMinutes: exam.limitMinutes,
      totalScore: exam.totalScore,
      passScore: exam.passScore,
      sections: sections.map((section) => ({
        title: section.title,
        questions: section.questions.map(({ question, score }) => this.paperQuestion(question, score, exam.shuffleOptions)),
      })),
    };
  }

  /**
   * One paper drawn as the exam says (the preview's, and each attempt's at its start): per
   * section its fixed questions in order (shuffled when the exam shuffles questions), then the
   * questions drawn for its rules in random order, each whole (key included) with its points.
   * Options are left in the question's order: the caller shuffles them when `shuffleOptions`.
   */
  async drawPaper(id: number): Promise<DrawnPaper> {
    const exam = await findExamHead(this.db, id);
    if (exam === undefined) throw notFound(`id: no exam ${id}`);
    const checked = await this.checkPaper(this.db, exam.paper);
    const outcome = drawQuestions(checked.demands, checked.fixedIds, this.random);
    if (!outcome.ok) throw conflict(shortfallMessage(checked.rules[outcome.rule] as PlacedRule, outcome));
    const drawnIds = outcome.drawn.flat();
    const drawnQuestions = new Map((await this.options.questions.within(this.db).contentsOf(drawnIds)).map((question) => [question.id, question]));
    let ruleIndex = 0;
    const sections = exam.paper.sections.map((section) => {
      const fixedIds = exam.shuffleQuestions ? shuffled(section.questionIds, this.random) : section.questionIds;
      const fixed = fixedIds.map((questionId) => {
        const question = checked.questions.get(questionId) as QuestionContent;
        return { question, score: section.score ?? question.score };
      });
      const drawn: DrawnQuestion[] = [];
      for (const rule of section.draw) {
        for (const questionId of outcome.drawn[ruleIndex] as number[]) {
          const question = drawnQuestions.get(questionId);
          if (question !== undefined) drawn.push({ question, score: rule.score });
        }
        ruleIndex += 1;
      }
      return { title: section.title, questions: [...fixed, ...shuffled(drawn, this.random)] };
    });
    return { exam, sections };
  }

  /** Shuffles a question's options when the exam says so (values from the exam's random source). */
  optionOrder<T>(options: readonly T[], shuffleOptions: boolean): T[] {
    return shuffleOptions ? shuffled(options, this.random) : [...options];
  }

  private paperQuestion(question: QuestionContent, score: number, shuffleOptions: boolean): PaperQuestion {
    return {
      id: question.id,
      type: question.type,
      stem: question.stem,
      options: this.optionOrder(question.options, shuffleOptions),
      blanks: question.type === 'blank' ? blankCount(question.answer) : 0,
      score,
      policy: question.policy,
      answer: question.answer,
      blankRules: question.blankRules,
      analysis: question.analysis,
    };
  }

  // ---- Assignees --------------------------------------------------------------------------------

  /** The exam's assignees within the caller's data scope (`overdue`: only those past due who have passed no attempt). */
  async listAssignees(caller: Principal, examId: number, query: ExamAssigneeQuery): Promise<Page<ExamAssignee>> {
    await this.requireExam(this.db, examId, 'id');
    const scope = await this.options.access.dataScopeOf(caller.userId);
    const overdueAt = query.overdue === true ? this.options.clock.now() : undefined;
    return findAssignees(this.db, { examId, q: query.q, overdueAt, ...(scope.length === 0 ? {} : { deptIds: scope }) }, query);
  }

  /**
   * Assigns the exam. Named people (`users`) get rows of source `staff`; one a rule assigned
   * already becomes `staff`, so removing the rule leaves them. A department (its subtree), a role
   * or a term (its enrolled applicants) makes a rule, which assigns everyone it covers now (source
   * `rule`) and, through the job, whoever it covers later. People and departments outside the
   * caller's data scope are refused (403); a role's or term's people outside it are left out.
   * Someone assigned already is counted as existing and left as they are.
   */
  async assign(caller: Principal, examId: number, body: ExamAssign): Promise<ExamAssigned> {
    const ids = [...new Set(body.ids)];
    return this.transaction(async (trx) => {
      await this.requireExam(trx, examId, 'id');
      const scope = await this.options.access.within(trx).dataScopeOf(caller.userId);
      const now = this.now();
      if (body.target === 'users') {
        const people = await findPeople(trx, ids);
        const unknown = ids.find((id) => !people.has(id));
        if (unknown !== undefined) throw invalidInput(`ids: user ${unknown} does not exist`);
        this.options.access.requirePeopleInScope(scope, [...people.values()], 'ids');
        const current = await findAssigneesOfUsers(trx, examId, ids);
        const fresh = ids.filter((id) => !current.has(id));
        await markAssigneesStaff(
          trx,
          [...current.values()].filter((row) => row.source === 'rule').map((row) => row.id),
          now,
        );
        await insertAssignees(trx, fresh.map((userId) => ({ examId, userId, source: 'staff', ruleId: null, dueAt: body.dueAt })), caller.username, now);
        await this.changed(trx, { examId, userIds: fresh, assigned: true });
        return { created: fresh.length, existing: ids.length - fresh.length, ruleId: null };
      }
      const target = body.target;
      const names = await findTargetNames(trx, target, ids);
      const unknown = ids.find((id) => !names.has(id));
      if (unknown !== undefined) throw invalidInput(`ids: ${TARGET_NOUNS[target]} ${unknown} does not exist`);
      if (target === 'dept' && scope.length > 0) {
        const outside = ids.find((id) => !scope.includes(id));
        if (outside !== undefined) throw forbidden(`ids: the department ${names.get(outside)} is outside the departments you manage`);
      }
      const ruleId = await insertExamRule(trx, { examId, target, ids, dueAt: body.dueAt }, caller.username, now);
      const rule: ExamRuleRow = { id: ruleId, examId, target, ids, dueAt: body.dueAt, createBy: caller.username, createTime: now };
      const covered = await this.coveredBy(trx, rule, scope, undefined);
      const current = await findAssigneesOfUsers(trx, examId, covered);
      const fresh = covered.filter((id) => !current.has(id));
      await insertAssignees(trx, fresh.map((userId) => ({ examId, userId, source: 'rule', ruleId, dueAt: body.dueAt })), caller.username, now);
      await this.changed(trx, { examId, userIds: fresh, assigned: true });
      return { created: fresh.length, existing: covered.length - fresh.length, ruleId };
    });
  }

  /** Sets the listed assignees' personal overrides (all of them at once, replacing what they had). */
  async override(caller: Principal, examId: number, body: ExamAssigneeOverride): Promise<void> {
    await this.transaction(async (trx) => {
      const heads = await this.requireAssignees(trx, caller, examId, body.ids);
      await updateAssigneeOverrides(
        trx,
        heads.map((head) => head.id),
        { extraMinutes: body.extraMinutes, extraAttempts: body.extraAttempts, openAt: body.openAt, closeAt: body.closeAt, dueAt: body.dueAt },
        this.now(),
      );
      await this.changed(trx, { examId, userIds: heads.map((head) => head.userId), assigned: false });
    });
  }

  /**
   * Removes the assignees. Someone a rule still covers is assigned again by the job when their
   * department, roles or enrolments next change; to keep them out, remove the rule.
   */
  async unassign(caller: Principal, examId: number, ids: readonly number[]): Promise<void> {
    await this.transaction(async (trx) => {
      const heads = await this.requireAssignees(trx, caller, examId, ids);
      await deleteAssignees(
        trx,
        heads.map((head) => head.id),
      );
    });
  }

  /** The rows must be the exam's (404) and their people within the caller's data scope (403). */
  private async requireAssignees(trx: Kysely<Database>, caller: Principal, examId: number, ids: readonly number[]) {
    await this.requireExam(trx, examId, 'id');
    const unique = [...new Set(ids)];
    const heads = await findAssigneeHeads(trx, examId, unique);
    const missing = unique.find((id) => !heads.has(id));
    if (missing !== undefined) throw notFound(`ids: no assignee ${missing} of exam ${examId}`);
    const scope = await this.options.access.within(trx).dataScopeOf(caller.userId);
    this.options.access.requirePeopleInScope(scope, [...heads.values()], 'ids');
    return [...heads.values()];
  }

  // ---- Rules ------------------------------------------------------------------------------------

  async listRules(examId: number): Promise<ExamRule[]> {
    await this.requireExam(this.db, examId, 'id');
    const rules = await findExamRules(this.db, { examId });
    const counts = await countAssigneesByRule(
      this.db,
      rules.map((rule) => rule.id),
    );
    const names = new Map<string, Map<number, string>>();
    for (const target of ['dept', 'role', 'term'] as const) {
      const ids = [...new Set(rules.filter((rule) => rule.target === target).flatMap((rule) => rule.ids))];
      names.set(target, await findTargetNames(this.db, target, ids));
    }
    return rules.map((rule) => ({
      id: rule.id,
      target: rule.target,
      ids: rule.ids,
      names: rule.ids.flatMap((id) => names.get(rule.target)?.get(id) ?? []),
      dueAt: rule.dueAt === null ? null : formatDateTime(rule.dueAt),
      assigneeCount: counts.get(rule.id) ?? 0,
      createTime: formatDateTime(rule.createTime),
    }));
  }

  /**
   * Removes the exam's rules and the assignments they made that nothing else holds: a row another
   * of the exam's rules covers moves to that rule; rows staff named (source `staff`) stay.
   */
  async deleteRules(examId: number, ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transaction(async (trx) => {
      await this.requireExam(trx, examId, 'id');
      const found = new Set((await findExamRules(trx, { examId, ids: unique })).map((rule) => rule.id));
      const missing = unique.find((id) => !found.has(id));
      if (missing !== undefined) throw notFound(`ids: no rule ${missing} of exam ${examId}`);
      const made = await findRuleMadeAssignees(trx, unique);
      await deleteExamRules(trx, unique);
      const remaining = await findExamRules(trx, { examId });
      const members = await findMemberships(
        trx,
        made.map((row) => row.userId),
        ENROLLED_STATUSES,
      );
      const now = this.now();
      // Rows are per exam and person; the rules are all this exam's, so a person covered is their row covered.
      const stillCovered = new Map<number, number>();
      const reaches = this.options.access.within(trx).authorScopes();
      for (const rule of remaining) {
        for (const userId of await this.coveredBy(trx, rule, await reaches.of(rule.createBy), members)) {
          if (!stillCovered.has(userId)) stillCovered.set(userId, rule.id);
        }
      }
      const moves = new Map<number, number[]>();
      const gone: number[] = [];
      for (const row of made) {
        const ruleId = stillCovered.get(row.userId);
        if (ruleId === undefined) gone.push(row.id);
        else moves.set(ruleId, [...(moves.get(ruleId) ?? []), row.id]);
      }
      for (const [ruleId, rows] of moves) await setAssigneeRule(trx, rows, ruleId, now);
      await deleteAssignees(trx, gone);
    });
  }

  // ---- People joining, enrolled, removed --------------------------------------------------------

  /**
   * Called once people were created or changed department or roles (users.onMembershipChange),
   * or were enrolled in a term (applicants' onEnrolled, inside the enrolment's transaction, given
   * as `db`): queues the job that assigns them the exams whose rules now cover them. A job, so
   * that a failure here never fails the change itself, and is retried.
   */
  async peopleChanged(userIds: readonly number[], db?: Kysely<Database>): Promise<void> {
    if (userIds.length === 0) return;
    await this.options.jobs.enqueue(APPLY_EXAM_RULES_JOB, { userIds: [...userIds] } satisfies ApplyRulesPayload, db === undefined ? {} : { db });
  }

  /** Assigns these people every exam whose rules cover them now; answers how many assignments it made. Idempotent. */
  async applyRulesTo(userIds: readonly number[]): Promise<number> {
    return this.transaction(async (trx) => {
      const rules = await findExamRules(trx);
      if (rules.length === 0) return 0;
      const members = await findMemberships(trx, [...new Set(userIds)], ENROLLED_STATUSES);
      const reaches = this.options.access.within(trx).authorScopes();
      const now = this.now();
      let made = 0;
      for (const rule of rules) {
        const covered = await this.coveredBy(trx, rule, await reaches.of(rule.createBy), members);
        if (covered.length === 0) continue;
        const current = await findAssigneesOfUsers(trx, rule.examId, covered);
        const fresh = covered.filter((id) => !current.has(id));
        await insertAssignees(trx, fresh.map((userId) => ({ examId: rule.examId, userId, source: 'rule', ruleId: rule.id, dueAt: rule.dueAt })), 'system', now);
        await this.changed(trx, { examId: rule.examId, userIds: fresh, assigned: true });
        made += fresh.length;
      }
      return made;
    });
  }

  /** People being deleted: their assignments go with them (call through `within` the deletion's transaction). */
  async forgetPeople(userIds: readonly number[]): Promise<void> {
    await deleteAssigneesOfPeople(this.db, userIds);
  }

  /**
   * The people a rule covers now, within `scope` (department ids; empty: no bound): a department
   * rule everyone in the departments' subtrees, a role rule its holders, a term rule its enrolled
   * applicants; among `members` when given.
   */
  private async coveredBy(trx: Kysely<Database>, rule: ExamRuleRow, scope: readonly number[], members: readonly Membership[] | undefined): Promise<number[]> {
    const depts = rule.target === 'dept' ? new Set(await this.options.access.within(trx).deptSubtrees(rule.ids)) : undefined;
    let people: { userId: number; deptId: number | null }[];
    if (members !== undefined) {
      people = members.filter((member) =>
        rule.target === 'dept'
          ? member.deptId !== null && (depts?.has(member.deptId) ?? false)
          : rule.target === 'role'
            ? member.roleIds.some((id) => rule.ids.includes(id))
            : member.termIds.some((id) => rule.ids.includes(id)),
      );
    } else {
      const userIds =
        rule.target === 'dept'
          ? await findUserIdsInDepts(trx, [...(depts ?? [])])
          : rule.target === 'role'
            ? await findUserIdsWithRoles(trx, rule.ids)
            : await findUserIdsEnrolledIn(trx, rule.ids, ENROLLED_STATUSES);
      const found = scope.length === 0 ? undefined : await findPeople(trx, userIds);
      people = userIds.map((userId) => ({ userId, deptId: found?.get(userId)?.deptId ?? null }));
    }
    return [...new Set(people.filter((person) => isInScope(scope, person.deptId)).map((person) => person.userId))].sort((a, b) => a - b);
  }

  private async requireExam(db: Kysely<Database>, examId: number, field: string): Promise<void> {
    if (!(await findExamIds(db, [examId])).has(examId)) throw notFound(`${field}: no exam ${examId}`);
  }

  // ---- The learner's exams ----------------------------------------------------------------------

  /**
   * The published exams assigned to the user: their window (each bound set personally replaces
   * the exam's), limit (extra minutes added), attempts (extra ones added), and where they stand
   * by the clock: upcoming before the window, closed after it or with no attempt left.
   */
  async siteExams(userId: number, courseId: number | undefined): Promise<SiteExam[]> {
    const now = this.now();
    const rows = await findMyExams(this.db, userId, { courseId });
    const tally = (await this.options.attempts?.()(
      userId,
      rows.map((row) => row.id),
    )) ?? new Map<number, { used: number; openAttemptId: number | null }>();
    return rows.map((row) => {
      const terms = termsOf(row);
      const { openAt, closeAt, attemptsAllowed } = terms;
      const attemptsUsed = tally.get(row.id)?.used ?? 0;
      const openAttemptId = tally.get(row.id)?.openAttemptId ?? null;
      const attemptsLeft = Math.max(0, attemptsAllowed - attemptsUsed);
      // An attempt still open can be resumed though it used the last one.
      const state =
        openAt !== null && now < openAt ? 'upcoming' : (closeAt !== null && now >= closeAt) || (attemptsLeft === 0 && openAttemptId === null) ? 'closed' : 'open';
      return {
        id: row.id,
        title: row.title,
        description: row.description,
        courseId: row.courseId,
        courseTitle: row.courseTitle,
        openAt: openAt === null ? null : formatDateTime(openAt),
        closeAt: closeAt === null ? null : formatDateTime(closeAt),
        dueAt: row.dueAt === null ? null : formatDateTime(row.dueAt),
        overdue: row.dueAt !== null && row.dueAt < now && state !== 'closed',
        limitMinutes: row.limitMinutes === null ? null : row.limitMinutes + row.extraMinutes,
        attemptsAllowed,
        attemptsUsed,
        attemptsLeft,
        openAttemptId,
        totalScore: row.totalScore,
        passScore: row.passScore,
        questionCount: row.questionCount,
        state,
      };
    });
  }

  /** The person's terms for the exam (see `ExamTerms`); undefined when it is not published or not assigned to them. */
  async termsFor(userId: number, examId: number, { assigned = true }: { assigned?: boolean } = {}): Promise<ExamTerms | undefined> {
    // `assigned: false`: for an attempt already made, whatever became of the exam's status or assignment since.
    const row = assigned ? (await findMyExams(this.db, userId, { examId }))[0] : await findExamForPerson(this.db, userId, examId);
    return row === undefined ? undefined : termsOf(row);
  }

  /** When nobody can sit the exam any more (`latestClose`: personal windows included); null: never, or no such exam. */
  async latestCloseOf(examId: number): Promise<number | null> {
    const closes = await findCloses(this.db, examId);
    if (closes === undefined) return null;
    return latestClose(closes.examCloseAt, closes.latestPersonalCloseAt === null ? [] : [closes.latestPersonalCloseAt]);
  }
}

/** Each bound set personally replaces the exam's; extra minutes and attempts add to its own. */
function termsOf(row: MyExamRow): ExamTerms {
  return {
    examId: row.id,
    title: row.title,
    description: row.description,
    openAt: row.myOpenAt ?? row.openAt,
    closeAt: row.myCloseAt ?? row.closeAt,
    limitMinutes: row.limitMinutes,
    extraMinutes: row.extraMinutes,
    attemptsAllowed: row.attempts + row.extraAttempts,
    counts: row.counts,
    review: row.review,
    totalScore: row.totalScore,
    passScore: row.passScore,
    shuffleOptions: row.shuffleOptions,
  };
}

const fixedIdsOf = (paper: Paper) => paper.sections.flatMap((section) => section.questionIds);

/** A blank question's number of blanks: one accepted-answer list per blank. */
const blankCount = (answer: QuestionAnswer) => answer.length;

/** `paper.sections.1.draw.0: needs 10 single questions tagged 消防, the bank has 6 that match`, or why it is short. */
function shortfallMessage(placed: PlacedRule, outcome: Extract<DrawOutcome, { ok: false }>): string {
  const { rule, field } = placed;
  const wanted = `needs ${rule.count} ${rule.type} question${rule.count === 1 ? '' : 's'}${rule.tags.length > 0 ? ` tagged ${rule.tags.join(' or ')}` : ''}${
    rule.difficulty === null ? '' : ` of difficulty ${rule.difficulty}`
  }`;
  const fixed = outcome.matching - outcome.available;
  const matching = `the bank has ${outcome.matching} that match${outcome.matching === 1 ? 'es' : ''}${fixed > 0 ? `, ${fixed} of them fixed questions of this paper` : ''}`;
  if (outcome.sharedShortfall) return `${field}: ${wanted}; ${matching}, but the paper's other draw rules need some of the same questions`;
  return `${field}: ${wanted}, ${matching}`;
}
