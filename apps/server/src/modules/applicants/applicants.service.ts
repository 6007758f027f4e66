import {
  ENROLLED_STATUSES,
  type Applicant,
  type ApplicantCreate,
  type ApplicantQuery,
  type ApplicantReject,
  type ApplicantsCreated,
  type ApplicantSource,
  type ApplicantStatus,
  type ApplicantUpdate,
  type AssignmentRule,
  type AssignmentRuleCreate,
  type AssignmentRuleQuery,
  type AssignmentRuleUpdate,
  type ImportResult,
  type RuleTarget,
} from '@cloud-classroom/shared/applicants';
import { withOutsideScope, type Page } from '@cloud-classroom/shared/http';
import type { Applied } from '@cloud-classroom/shared/progress';
import { descendantIds } from '@cloud-classroom/shared/tree';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { conflict, forbidden, invalidInput, notFound } from '../../domain-error.js';
import type { Upload } from '../../files/upload.js';
import type { JobRunner } from '../../jobs/job-runner.js';
import { isInScope, type AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/session.service.js';
import { parseDueAt, readApplicantSheet } from './applicant-sheet.js';
import {
  countSeatsTaken,
  deleteApplicants,
  findApplicantHeads,
  findApplicants,
  findApplicantsInTerm,
  findEnrolmentsInCourse,
  findExistingUserIds,
  findUsersByName,
  insertApplicants,
  isPublishedCourse,
  lockTerm,
  updateApplicants,
  type ApplicantFilter,
  type ApplicantHead,
  type ApplicantWithPerson,
  type EnrolmentTerm,
  deleteApplicantsOfPeople,
} from './applicants.repo.js';
import {
  deleteRules,
  findDeptLinks,
  findMemberships,
  findRuleIds,
  findRules,
  findTargetNames,
  findTermRules,
  findUserIdsInDepts,
  findUserIdsWithRoles,
  insertRule,
  setRuleDueDate,
  updateRule,
  type RuleRow,
} from './assignment-rules.repo.js';

export type ApplicantsOptions = {
  db: Kysely<Database>;
  clock: Clock;
  jobs: JobRunner;
  access: AccessService;
};

/** The job that enrols people in the terms whose assignment rules now cover them. */
export const APPLY_RULES_JOB = 'applicants.applyRules';
type ApplyRulesPayload = { userIds: number[] };

/** Told of people newly enrolled (approved) in a term, inside the enrolment's transaction. */
export type EnrolmentListener = (userIds: number[], trx: Kysely<Database>) => Promise<void>;

/**
 * Told of every enrolment written (made, moved to another status, deleted), inside the write's
 * transaction: the census keeps its summary of each person's course by it.
 */
export type EnrolmentWriteListener = (enrolments: { userId: number; termId: number }[], trx: Kysely<Database>) => Promise<void>;

/** Told of people whose enrolment in the term was just completed, inside the completion's transaction. */
export type CompletionListener = (termId: number, userIds: number[], trx: Kysely<Database>) => Promise<void>;

/**
 * What staff, an import or a rule did to enrolments: `assigned` (enrolled by them), `approved`,
 * `rejected`, or a due date set (`due_changed`).
 */
export type EnrolmentChange = 'assigned' | 'approved' | 'rejected' | 'due_changed';

/** Told of enrolments that changed so (by their ids), inside the change's transaction. */
export type EnrolmentChangeListener = (change: EnrolmentChange, applicantIds: number[], trx: Kysely<Database>) => Promise<void>;

const isEnrolled = (status: string) => (ENROLLED_STATUSES as readonly string[]).includes(status);

/**
 * Enrolment (DESIGN §10): the people in a term (applicants) and how they got there — applying
 * from the site, enrolled or imported by staff, or assigned by a rule — and the progress of an
 * enrolment from approved to completed, which the progress module reports here.
 *
 * Seats: a term's capacity counts ENROLLED_STATUSES (approved, in progress, completed); an
 * application awaiting approval takes none. Applying, approving, staff enrolment and imports
 * respect it, each inside a transaction that holds the term (`lockTerm`), so that parallel
 * requests cannot overbook. Assignment rules ignore it: a mandatory course must reach everyone
 * it is assigned to, and staff who assign more people than the term seats see it in the count.
 *
 * Data scope: staff see, enrol and change only the enrolments of people within their data scope
 * (`access.service`), as they do the people themselves; another's enrolment reads as none (404)
 * and writes to it are refused (403). A rule reaches no further than the scope of whoever last
 * wrote it, now and for people who join later.
 */
export class ApplicantsService {
  constructor(
    private readonly options: ApplicantsOptions,
    private readonly enrolmentListeners: EnrolmentListener[] = [],
    private readonly completionListeners: CompletionListener[] = [],
    private readonly changeListeners: EnrolmentChangeListener[] = [],
    private readonly writeListeners: EnrolmentWriteListener[] = [],
  ) {}

  /** Registers the service's job handlers; once, on the service the app builds (services.ts). */
  registerJobs(): void {
    this.options.jobs.register<ApplyRulesPayload>(APPLY_RULES_JOB, async ({ userIds }) => {
      await this.applyRulesTo(userIds);
    });
  }

  /** The same service inside a transaction, for callers whose own writes go with these. */
  within(db: Kysely<Database>): ApplicantsService {
    return db === this.options.db ? this : new ApplicantsService({ ...this.options, db }, this.enrolmentListeners, this.completionListeners, this.changeListeners, this.writeListeners);
  }

  /**
   * `listener` follows people into their terms (the exams' term rules assign them the exam): it
   * runs inside the enrolment's transaction, so it should only queue work (a job) with it.
   */
  onEnrolled(listener: EnrolmentListener): void {
    this.enrolmentListeners.push(listener);
  }

  /** `listener` hears of completed enrolments (certificates issued by a term's rules); it should only queue work with the transaction. */
  onCompleted(listener: CompletionListener): void {
    this.completionListeners.push(listener);
  }

  /** `listener` hears of every enrolment written, inside the write's transaction (see EnrolmentWriteListener). */
  onWritten(listener: EnrolmentWriteListener): void {
    this.writeListeners.push(listener);
  }

  private async written(trx: Kysely<Database>, enrolments: readonly { userId: number; termId: number }[]): Promise<void> {
    if (enrolments.length === 0) return;
    const pairs = enrolments.map(({ userId, termId }) => ({ userId, termId }));
    for (const listener of this.writeListeners) await listener(pairs, trx);
  }

  /** `listener` hears of enrolments staff or rules changed (notifications); it should only write or queue work with the transaction. */
  onEnrolmentChanged(listener: EnrolmentChangeListener): void {
    this.changeListeners.push(listener);
  }

  private async changed(trx: Kysely<Database>, change: EnrolmentChange, applicantIds: readonly number[]): Promise<void> {
    if (applicantIds.length === 0) return;
    for (const listener of this.changeListeners) await listener(change, [...new Set(applicantIds)], trx);
  }

  private async completed(trx: Kysely<Database>, enrolments: readonly { termId: number; userId: number }[]): Promise<void> {
    for (const { termId, userId } of enrolments) {
      for (const listener of this.completionListeners) await listener(termId, [userId], trx);
    }
  }

  private async enrolled(trx: Kysely<Database>, userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    for (const listener of this.enrolmentListeners) await listener([...new Set(userIds)], trx);
  }

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  private now(): number {
    return this.options.clock.now();
  }

  /**
   * Runs `work` in a transaction, or in the caller's when this service is already `within` one
   * (Kysely refuses to open a transaction inside another).
   */
  private transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? work(this.db) : this.db.transaction().execute(work);
  }

  // ---- The back office's list -------------------------------------------------------------------

  async list(caller: Principal, query: ApplicantQuery): Promise<Page<Applicant>> {
    const scope = await this.scopeFilter(caller);
    const page = await findApplicants(this.db, { ...filterOf(query), ...scope }, this.now(), query);
    if (scope.deptIds === undefined) return page;
    const everyone = await findApplicants(this.db, filterOf(query), this.now(), { page: 0, size: 1 });
    return withOutsideScope(page, everyone.totalElements - page.totalElements);
  }

  /** One enrolment, as the list shows it (edit-applicant opened from a bookmark or a reload); outside the caller's scope, as none. */
  async one(caller: Principal, id: number): Promise<Applicant> {
    const [applicant] = (await findApplicants(this.db, { ids: [id], ...(await this.scopeFilter(caller)) }, this.now())).content;
    if (applicant === undefined) throw notFound(`id: no applicant ${id}`);
    return applicant;
  }

  /** Every applicant the filters match within the caller's scope, in the asked order, for the download. */
  async exportRows(caller: Principal, query: ApplicantQuery): Promise<Applicant[]> {
    return (await findApplicants(this.db, { ...filterOf(query), ...(await this.scopeFilter(caller)) }, this.now(), { sort: query.sort })).content;
  }

  private async scopeFilter(caller: Principal): Promise<Pick<ApplicantFilter, 'deptIds'>> {
    const scope = await this.options.access.within(this.db).dataScopeOf(caller.userId);
    return scope.length === 0 ? {} : { deptIds: scope };
  }

  // ---- Staff enrol, edit, approve, reject, delete -----------------------------------------------

  /**
   * Staff enrol people directly (source `staff`, approved). Someone already enrolled in the term
   * is counted as existing and left as they are; someone who applied or was rejected is enrolled
   * (their row becomes approved). The term's seats must hold everyone newly enrolled.
   */
  async enrol(caller: Principal, body: ApplicantCreate): Promise<ApplicantsCreated> {
    const userIds = [...new Set(body.userIds)];
    return this.transaction(async (trx) => {
      const term = await lockTerm(trx, body.termId);
      if (term === undefined) throw invalidInput(`termId: term ${body.termId} does not exist`);
      const known = await findExistingUserIds(trx, userIds);
      const unknown = userIds.find((id) => !known.has(id));
      if (unknown !== undefined) throw invalidInput(`userIds: user ${unknown} does not exist`);
      await this.options.access.within(trx).requireUsersInScope(caller, userIds, 'userIds');
      const { created, existing } = await this.enrolIn(trx, term, userIds, { source: 'staff', dueAt: body.dueAt }, caller.username, 'userIds');
      return { created, existing };
    });
  }

  /**
   * Edits one enrolment (edit-applicant). Moving someone into an enrolled status from applied or
   * rejected takes a seat, so the term must have one; completing sets the completion time, and
   * leaving completed clears it.
   */
  async update(caller: Principal, body: ApplicantUpdate): Promise<void> {
    const by = caller.username;
    await this.transaction(async (trx) => {
      const current = (await findApplicantHeads(trx, [body.id])).get(body.id);
      if (current === undefined) throw notFound(`id: no applicant ${body.id}`);
      await this.requireInScope(trx, caller, [current], 'id');
      const term = await lockTerm(trx, current.termId);
      if (term !== undefined && !isEnrolled(current.status) && isEnrolled(body.status)) {
        await requireSeats(trx, term, 1, 'status');
      }
      const now = this.now();
      const completedAt = body.status === 'completed' ? (current.status === 'completed' ? undefined : now) : null;
      await updateApplicants(trx, [body.id], { status: body.status, dueAt: body.dueAt, reason: body.reason, completedAt }, by, now);
      await this.written(trx, [current]);
      if (body.status === 'completed' && current.status !== 'completed') await this.completed(trx, [current]);
      if (!isEnrolled(current.status) && isEnrolled(body.status)) await this.enrolled(trx, [current.userId]);
      if (current.status === 'applied' && isEnrolled(body.status)) await this.changed(trx, 'approved', [body.id]);
      if (current.status !== 'rejected' && body.status === 'rejected') await this.changed(trx, 'rejected', [body.id]);
      if (body.dueAt !== null) await this.changed(trx, 'due_changed', [body.id]);
    });
  }

  /** Deletes the enrolments; what the people studied (their lesson progress) stays theirs. */
  async delete(caller: Principal, ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transaction(async (trx) => {
      const heads = await this.requireApplicants(trx, caller, unique, 'ids');
      await deleteApplicants(trx, unique);
      await this.written(trx, heads);
    });
  }

  /**
   * Approves applications, all or none: every id must be an application awaiting approval
   * (`applied`; anything else is a 409 naming those ids), and each term must have seats for
   * everyone approved in it.
   */
  async approve(caller: Principal, ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transaction(async (trx) => {
      const heads = await this.requireApplicants(trx, caller, unique, 'ids');
      requireStatuses(heads, ['applied'], 'approved');
      const byTerm = new Map<number, number>();
      for (const head of heads) byTerm.set(head.termId, (byTerm.get(head.termId) ?? 0) + 1);
      // In id order, so that two bulk approvals lock their terms in the same order and never deadlock.
      for (const termId of [...byTerm.keys()].sort((a, b) => a - b)) {
        const term = await lockTerm(trx, termId);
        if (term !== undefined) await requireSeats(trx, term, byTerm.get(termId) ?? 0, 'ids');
      }
      await updateApplicants(trx, unique, { status: 'approved', reason: null }, caller.username, this.now());
      await this.written(trx, heads);
      await this.enrolled(
        trx,
        heads.map((head) => head.userId),
      );
      await this.changed(trx, 'approved', unique);
    });
  }

  /**
   * Rejects applications or enrolments that have not started (`applied` or `approved`), all or
   * none: any other status is a 409 naming those ids. A rejected approval frees its seat.
   */
  async reject(caller: Principal, body: ApplicantReject): Promise<void> {
    const unique = [...new Set(body.ids)];
    await this.transaction(async (trx) => {
      const heads = await this.requireApplicants(trx, caller, unique, 'ids');
      requireStatuses(heads, ['applied', 'approved'], 'rejected');
      await updateApplicants(trx, unique, { status: 'rejected', reason: body.reason }, caller.username, this.now());
      await this.written(trx, heads);
      await this.changed(trx, 'rejected', unique);
    });
  }

  /** The enrolments must exist (404) and their people be within the caller's data scope (403), each naming `field`. */
  private async requireApplicants(trx: Kysely<Database>, caller: Principal, ids: readonly number[], field: string): Promise<ApplicantWithPerson[]> {
    const heads = await findApplicantHeads(trx, ids);
    const missing = ids.find((id) => !heads.has(id));
    if (missing !== undefined) throw notFound(`${field}: no applicant ${missing}`);
    await this.requireInScope(trx, caller, [...heads.values()], field);
    return [...heads.values()];
  }

  private async requireInScope(trx: Kysely<Database>, caller: Principal, heads: readonly ApplicantWithPerson[], field: string): Promise<void> {
    const access = this.options.access.within(trx);
    access.requirePeopleInScope(await access.dataScopeOf(caller.userId), heads, field);
  }

  // ---- Import -----------------------------------------------------------------------------------

  /**
   * Enrols the people a spreadsheet names (APPLICANT_IMPORT_COLUMNS: username, due date) into
   * the term, source `import`, approved. Every row is checked first, and each problem answered as
   * `{ row, column, message }`: an empty or unknown username, a person outside the importer's
   * data scope, a username listed twice, a due date that is not a time, a row beyond the term's
   * free seats. Someone already enrolled in the term
   * is not a problem: the row is valid and left as it is (not counted in `created`).
   *
   * All or nothing: a dry run writes nothing, and neither does a real run with any problem, so a
   * file is corrected and sent again whole rather than half taken.
   */
  async import(caller: Principal, termId: number, dryRun: boolean, upload: Upload): Promise<ImportResult> {
    const sheet = await readApplicantSheet(upload.content, upload.field);
    if (sheet === null) {
      return { total: 0, valid: 0, created: 0, errors: [{ row: 1, column: 'username', message: 'the first row must be the headers username, dueAt' }], rows: [], examples: [] };
    }
    const { rows } = sheet;
    const examples = sheet.examples.map((row) => ({ sheet: sheet.sheet, row }));
    return this.transaction(async (trx) => {
      const term = await lockTerm(trx, termId);
      if (term === undefined) throw invalidInput(`termId: term ${termId} does not exist`);
      const errors: ImportResult['errors'] = [];
      const users = await findUsersByName(trx, [...new Set(rows.map((row) => row.username).filter((name) => name !== ''))]);
      const scope = await this.options.access.within(trx).dataScopeOf(caller.userId);
      const firstRowOf = new Map<string, number>();
      const people: { row: number; username: string; userId: number; dueAt: number | null }[] = [];
      for (const row of rows) {
        const rowErrors: ImportResult['errors'] = [];
        const user = users.get(row.username);
        const userId = user?.id;
        if (row.username === '') rowErrors.push({ row: row.row, column: 'username', message: 'is required' });
        else if (user === undefined) rowErrors.push({ row: row.row, column: 'username', message: `no user named '${row.username}'` });
        else if (!isInScope(scope, user.deptId)) rowErrors.push({ row: row.row, column: 'username', message: `'${row.username}' is outside the departments you manage` });
        const seen = firstRowOf.get(row.username);
        if (row.username !== '' && seen !== undefined) rowErrors.push({ row: row.row, column: 'username', message: `'${row.username}' is already listed in row ${seen}` });
        else if (row.username !== '') firstRowOf.set(row.username, row.row);
        const dueAt = parseDueAt(row.dueAt);
        if (!dueAt.ok) rowErrors.push({ row: row.row, column: 'dueAt', message: "expected 'yyyy-MM-dd HH:mm:ss' or 'yyyy-MM-dd'" });
        errors.push(...rowErrors);
        if (rowErrors.length === 0 && userId !== undefined && dueAt.ok) people.push({ row: row.row, username: row.username, userId, dueAt: dueAt.at });
      }
      const current = await findApplicantsInTerm(trx, term.id, people.map((person) => person.userId));
      const joining = people.filter((person) => !isEnrolled(current.get(person.userId)?.status ?? ''));
      const left = await seatsLeft(trx, term);
      if (left !== null && joining.length > left) {
        for (const person of joining.slice(left)) {
          errors.push({ row: person.row, column: 'username', message: `the term has ${left} seat(s) left for ${joining.length} people` });
        }
      }
      errors.sort((a, b) => a.row - b.row);
      const refused = new Set(left !== null && joining.length > left ? joining.slice(left) : []);
      const listed = people.filter((person) => !refused.has(person)).map((person) => ({ sheet: sheet.sheet, row: person.row, type: null, text: person.username }));
      const result = { total: rows.length, valid: listed.length, created: 0, errors, rows: listed, examples };
      if (dryRun || errors.length > 0) return result;
      // Each row may carry its own due date: the people are enrolled a due date at a time.
      const byDueAt = new Map<number | null, number[]>();
      for (const person of joining) {
        const group = byDueAt.get(person.dueAt) ?? [];
        group.push(person.userId);
        byDueAt.set(person.dueAt, group);
      }
      let created = 0;
      for (const [dueAt, userIds] of byDueAt) {
        created += (await this.enrolIn(trx, term, userIds, { source: 'import', dueAt }, caller.username, 'file')).created;
      }
      return { ...result, created };
    });
  }

  // ---- The learner applies ----------------------------------------------------------------------

  /**
   * The signed-in learner applies for a term of a published course. An open term enrols them at
   * once (approved, if a seat is free: else 409 `termId: the term is full`); an approval term
   * records the application (`applied`, taking no seat until approved); an assigned term is
   * refused (403). Someone who applied or is enrolled already gets their enrolment back unchanged
   * (`created: false`, answered 200); someone rejected applies afresh, to be approved again by
   * staff whatever the mode (their row becomes `applied`, answered 201).
   */
  async apply(user: { userId: number; username: string }, courseId: number, termId: number): Promise<{ applied: Applied; created: boolean }> {
    return this.transaction(async (trx) => {
      if (!(await isPublishedCourse(trx, courseId))) throw notFound(`id: no course ${courseId}`);
      const term = await lockTerm(trx, termId);
      if (term === undefined || term.courseId !== courseId) throw invalidInput(`termId: term ${termId} is not a term of course ${courseId}`);
      if (term.enrolMode === 'assigned') throw forbidden('termId: this term is by assignment only');
      const now = this.now();
      const mine = (await findApplicantsInTerm(trx, term.id, [user.userId])).get(user.userId);
      if (mine !== undefined && mine.status !== 'rejected') return { applied: { id: mine.id, status: mine.status as ApplicantStatus }, created: false };
      if (term.endAt < now) throw conflict('termId: the term has ended');
      if (mine !== undefined) {
        await updateApplicants(trx, [mine.id], { status: 'applied', source: 'self', reason: null, ruleId: null }, user.username, now);
        await this.written(trx, [mine]);
        return { applied: { id: mine.id, status: 'applied' }, created: true };
      }
      const status = term.enrolMode === 'open' ? 'approved' : 'applied';
      if (status === 'approved' && (await seatsLeft(trx, term)) === 0) throw conflict('termId: the term is full');
      const [id] = await insertApplicants(trx, [{ termId: term.id, userId: user.userId, status, source: 'self', dueAt: null }], user.username, now);
      await this.written(trx, [{ userId: user.userId, termId: term.id }]);
      if (status === 'approved') await this.enrolled(trx, [user.userId]);
      return { applied: { id: id as number, status }, created: true };
    });
  }

  // ---- Progress ---------------------------------------------------------------------------------

  /**
   * The learner studied the course (the progress module calls this after a progress report):
   * their enrolments in the course's terms go from approved to in progress, and, when `completed`
   * (every required lesson done), to completed with the completion time. Idempotent: a completed
   * enrolment stays completed, and applications or rejections are not touched.
   */
  async recordProgress(userId: number, courseId: number, progress: { completed: boolean }): Promise<void> {
    await this.transaction(async (trx) => {
      const enrolments = await findEnrolmentsInCourse(trx, userId, courseId);
      const now = this.now();
      const moving = enrolments.filter((enrolment) => enrolment.status !== 'completed' && (progress.completed || enrolment.status === 'approved'));
      if (moving.length === 0) return;
      const ids = moving.map((enrolment) => enrolment.id);
      const changes = progress.completed ? { status: 'completed' as const, completedAt: now } : { status: 'in_progress' as const };
      await updateApplicants(trx, ids, changes, 'system', now);
      await this.written(trx, moving.map((enrolment) => ({ userId, termId: enrolment.termId })));
      if (progress.completed) await this.completed(trx, moving.map((enrolment) => ({ termId: enrolment.termId, userId })));
    });
  }

  /** People being deleted: their enrolments go with them, freeing their seats (call through `within` the deletion's transaction). */
  async forgetPeople(userIds: readonly number[]): Promise<void> {
    await deleteApplicantsOfPeople(this.db, userIds);
  }

  // ---- Assignment rules -------------------------------------------------------------------------

  /**
   * The course's rules. The people a rule names outside the caller's data scope are counted, not
   * named: the rule's existence is the course's business, who it names is their departments'.
   */
  async listRules(caller: Principal, query: AssignmentRuleQuery): Promise<Page<AssignmentRule>> {
    const found = await findRules(this.db, { termId: query.termId, courseId: query.courseId }, query);
    const scope = await this.options.access.dataScopeOf(caller.userId);
    const named = [...new Set(found.content.filter((rule) => rule.target === 'users').flatMap((rule) => rule.ids))];
    const inScope = new Set(scope.length === 0 ? named : (await findMemberships(this.db, named)).filter((person) => isInScope(scope, person.deptId)).map((person) => person.userId));
    const page = {
      ...found,
      content: found.content.map((rule) => {
        if (rule.target !== 'users') return { ...rule, othersOutsideScope: 0 };
        const ids = rule.ids.filter((id) => inScope.has(id));
        return { ...rule, ids, othersOutsideScope: rule.ids.length - ids.length };
      }),
    };
    const names = new Map<RuleTarget, Map<number, string>>();
    for (const target of ['dept', 'role', 'users'] as const) {
      const ids = [...new Set(page.content.filter((rule) => rule.target === target).flatMap((rule) => rule.ids))];
      names.set(target, await findTargetNames(this.db, target, ids));
    }
    return {
      totalElements: page.totalElements,
      content: page.content.map((rule) => ({
        ...rule,
        names: rule.ids.flatMap((id) => {
          const name = names.get(rule.target)?.get(id);
          return name === undefined ? [] : [name];
        }),
      })),
    };
  }

  /**
   * A new rule enrols everyone it covers at once (see `materialise`); a department rule also
   * enrols the people who join the department's subtree later (`applyRulesTo`). Departments and
   * people outside the author's data scope are refused (403); a role's holders outside it are
   * left out, as a training department enrols only its own people however widely a role is held.
   */
  async createRule(caller: Principal, rule: AssignmentRuleCreate): Promise<number> {
    return this.transaction(async (trx) => {
      await requireRuleTargets(trx, rule);
      await this.requireTargetsInScope(trx, caller, rule);
      const id = await insertRule(trx, rule, caller.username, this.now());
      await this.materialise(trx, [{ id, target: rule.target, ids: rule.ids, termId: rule.termId, dueAt: rule.dueAt, author: caller.username }], undefined, caller.username);
      return id;
    });
  }

  /**
   * Changes a rule and enrols whoever it covers now. The people it enrolled before stay enrolled
   * (they may have studied already), and its new due date applies to its enrolments in its term
   * that are not completed. The rule must reach no further than the caller's data scope, before
   * and after (403); it reaches then as far as the caller's.
   */
  async updateRule(caller: Principal, rule: AssignmentRuleUpdate): Promise<void> {
    const by = caller.username;
    await this.transaction(async (trx) => {
      if (!(await findRuleIds(trx, [rule.id])).has(rule.id)) throw notFound(`id: no assignment rule ${rule.id}`);
      await requireRuleTargets(trx, rule);
      await this.requireRulesWithin(trx, caller, [rule.id], 'id');
      await this.requireTargetsInScope(trx, caller, rule);
      const now = this.now();
      await updateRule(trx, rule.id, rule, by, now);
      const dated = await setRuleDueDate(trx, rule.id, rule.termId, rule.dueAt, by, now);
      if (rule.dueAt !== null) await this.changed(trx, 'due_changed', dated);
      await this.materialise(trx, [{ id: rule.id, target: rule.target, ids: rule.ids, termId: rule.termId, dueAt: rule.dueAt, author: by }], undefined, by);
    });
  }

  /**
   * Deletes the rules, each reaching no further than the caller's data scope (403). The enrolments
   * they made stay (with their progress), no longer linked to a rule.
   */
  async deleteRules(caller: Principal, ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transaction(async (trx) => {
      const found = await findRuleIds(trx, unique);
      const missing = unique.find((id) => !found.has(id));
      if (missing !== undefined) throw notFound(`ids: no assignment rule ${missing}`);
      await this.requireRulesWithin(trx, caller, unique, 'ids');
      await deleteRules(trx, unique);
    });
  }

  /** A rule's departments and named people must be within the caller's data scope (403 naming `ids`); roles are bounded when applied. */
  private async requireTargetsInScope(trx: Kysely<Database>, caller: Principal, rule: AssignmentRuleCreate): Promise<void> {
    const access = this.options.access.within(trx);
    if (rule.target === 'users') return access.requireUsersInScope(caller, rule.ids, 'ids');
    if (rule.target !== 'dept') return;
    const scope = await access.dataScopeOf(caller.userId);
    const outside = rule.ids.find((id) => !isInScope(scope, id));
    if (outside !== undefined) throw forbidden(`ids: the department ${(await findTargetNames(trx, 'dept', [outside])).get(outside)} is outside the departments you manage`);
  }

  /**
   * Changing or deleting a rule someone else wrote: whatever it may enrol must be within the
   * caller's data scope (its departments' subtrees or its role's holders, bounded by its author's
   * scope; its named people), else 403 naming `field`.
   */
  private async requireRulesWithin(trx: Kysely<Database>, caller: Principal, ids: readonly number[], field: string): Promise<void> {
    const access = this.options.access.within(trx);
    const scope = await access.dataScopeOf(caller.userId);
    if (scope.length === 0) return;
    const within = (depts: readonly number[]) => depts.every((id) => scope.includes(id));
    const reaches = access.authorScopes();
    for (const rule of await findTermRules(trx, ids)) {
      const reach = await reaches.of(rule.author);
      let fits: boolean;
      if (rule.target === 'users') {
        fits = (await findMemberships(trx, rule.ids)).every((member) => isInScope(scope, member.deptId));
      } else if (rule.target === 'dept') {
        const depts = await access.deptSubtrees(rule.ids);
        fits = within(reach.length === 0 ? depts : depts.filter((id) => reach.includes(id)));
      } else {
        fits = reach.length > 0 && within(reach);
      }
      if (!fits) throw forbidden(`${field}: the assignment rule ${rule.id} reaches people outside the departments you manage`);
    }
  }

  /**
   * Called by the users service once people were created or changed department or roles: queues
   * a job that enrols them in the terms whose rules now cover them. A job, so that a failure here
   * never fails the change to the user, and is retried. No dedupe key: a job already running for
   * the same person may have read their department before this change, and one run too many
   * costs nothing (`applyRulesTo` is idempotent).
   */
  async membershipChanged(userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.options.jobs.enqueue(APPLY_RULES_JOB, { userIds: [...userIds] } satisfies ApplyRulesPayload);
  }

  /** Enrols these people in every term whose rules cover them now, each rule within its author's data scope; answers how many enrolments it made. */
  async applyRulesTo(userIds: readonly number[]): Promise<number> {
    return this.transaction(async (trx) => this.materialise(trx, await findTermRules(trx), new Set(userIds), 'system'));
  }

  /**
   * Enrols the people the rules cover (only those in `only`, when given) within their authors'
   * data scopes in the rules' terms: source `rule`, approved, the rule's id and due date. Someone already enrolled in the term is
   * left as they are; someone who applied or was rejected is enrolled by the rule. Capacity is not
   * checked (see the class comment). Answers how many enrolments it made.
   */
  private async materialise(trx: Kysely<Database>, rules: readonly RuleRow[], only: ReadonlySet<number> | undefined, by: string): Promise<number> {
    let made = 0;
    const links = rules.some((rule) => rule.target === 'dept') ? await findDeptLinks(trx) : [];
    // Matching the few changed people against each rule is cheaper than listing everyone a rule covers.
    const members = only === undefined ? undefined : await findMemberships(trx, [...only]);
    const reaches = this.options.access.within(trx).authorScopes();
    // Terms are locked in id order, as bulk approvals lock them, so that the two never deadlock.
    for (const rule of [...rules].sort((a, b) => (a.termId ?? 0) - (b.termId ?? 0) || a.id - b.id)) {
      if (rule.termId === null) continue;
      const covered = await coveredBy(trx, rule, links, members, await reaches.of(rule.author));
      if (covered.length === 0) continue;
      const term = await lockTerm(trx, rule.termId);
      if (term === undefined) continue;
      made += (await this.enrolIn(trx, term, covered, { source: 'rule', dueAt: rule.dueAt, ruleId: rule.id }, by, 'ids', false)).created;
    }
    return made;
  }

  /**
   * Enrols the people in the term (approved): new rows for those without one, and the rows of
   * those who applied or were rejected turned into enrolments; the enrolled are left alone. With
   * `checkSeats`, the term must hold everyone newly enrolled (409 naming `field`).
   */
  private async enrolIn(
    trx: Kysely<Database>,
    term: EnrolmentTerm,
    userIds: readonly number[],
    how: { source: ApplicantSource; dueAt: number | null; ruleId?: number },
    by: string,
    field: string,
    checkSeats = true,
  ): Promise<{ created: number; existing: number }> {
    const current = await findApplicantsInTerm(trx, term.id, userIds);
    const fresh = userIds.filter((id) => !current.has(id));
    const reopened = [...current.values()].filter((applicant) => !isEnrolled(applicant.status));
    const created = fresh.length + reopened.length;
    if (checkSeats && created > 0) await requireSeats(trx, term, created, field);
    const now = this.now();
    const inserted = await insertApplicants(
      trx,
      fresh.map((userId) => ({ termId: term.id, userId, status: 'approved', source: how.source, dueAt: how.dueAt, ruleId: how.ruleId ?? null })),
      by,
      now,
    );
    await updateApplicants(
      trx,
      reopened.map((applicant) => applicant.id),
      { status: 'approved', source: how.source, dueAt: how.dueAt, reason: null, ruleId: how.ruleId ?? null },
      by,
      now,
    );
    const enrolledNow = [...fresh, ...reopened.map((applicant) => applicant.userId)];
    await this.written(trx, enrolledNow.map((userId) => ({ userId, termId: term.id })));
    await this.enrolled(trx, enrolledNow);
    await this.changed(trx, 'assigned', [...inserted, ...reopened.map((applicant) => applicant.id)]);
    return { created, existing: userIds.length - created };
  }
}

function filterOf(query: ApplicantQuery): ApplicantFilter {
  return { termId: query.termId, courseId: query.courseId, status: query.status, source: query.source, q: query.q, overdue: query.overdue };
}

/** Free seats in the term; null when it has no limit. */
async function seatsLeft(trx: Kysely<Database>, term: EnrolmentTerm): Promise<number | null> {
  if (term.capacity === null) return null;
  return Math.max(0, term.capacity - (await countSeatsTaken(trx, term.id)));
}

async function requireSeats(trx: Kysely<Database>, term: EnrolmentTerm, needed: number, field: string): Promise<void> {
  const left = await seatsLeft(trx, term);
  if (left === null || needed <= left) return;
  throw conflict(left === 0 ? `${field}: the term is full` : `${field}: the term has ${left} seat${left === 1 ? '' : 's'} left`);
}

/** Every applicant must be in one of the statuses; a 409 names those that are not. */
function requireStatuses(heads: readonly ApplicantHead[], from: readonly string[], to: string): void {
  const stuck = heads.filter((head) => !from.includes(head.status));
  if (stuck.length === 0) return;
  const listed = stuck
    .slice(0, 10)
    .map((head) => `${head.id} (${head.status})`)
    .join(', ');
  throw conflict(`ids: only ${from.join(' or ')} applicants can be ${to}; not ${listed}${stuck.length > 10 ? ', …' : ''}`);
}

/** The rule's term and targets must exist (400 naming the field). */
async function requireRuleTargets(trx: Kysely<Database>, rule: AssignmentRuleCreate): Promise<void> {
  if ((await lockTerm(trx, rule.termId)) === undefined) throw invalidInput(`termId: term ${rule.termId} does not exist`);
  const names = await findTargetNames(trx, rule.target, rule.ids);
  const missing = rule.ids.find((id) => !names.has(id));
  if (missing !== undefined) throw invalidInput(`ids: ${{ dept: 'department', role: 'role', users: 'user' }[rule.target]} ${missing} does not exist`);
}

type Membership = Awaited<ReturnType<typeof findMemberships>>[number];

/**
 * The people a rule covers now (a department rule: everyone in the departments' subtrees) within
 * `reach` (its author's data scope; [] bounds nothing), among `members` when given.
 */
async function coveredBy(
  trx: Kysely<Database>,
  rule: RuleRow,
  links: readonly { id: number; pid: number | null }[],
  members: readonly Membership[] | undefined,
  reach: readonly number[],
): Promise<number[]> {
  const bound = reach.length === 0 ? undefined : reach;
  let people: number[];
  if (members !== undefined) {
    const depts = rule.target === 'dept' ? new Set(descendantIds(links, rule.ids)) : undefined;
    people = members
      .filter((member) =>
        rule.target === 'dept'
          ? member.deptId !== null && (depts?.has(member.deptId) ?? false)
          : rule.target === 'role'
            ? member.roleIds.some((id) => rule.ids.includes(id))
            : rule.ids.includes(member.userId),
      )
      .filter((member) => isInScope(reach, member.deptId))
      .map((member) => member.userId);
  } else if (rule.target === 'dept') {
    people = await findUserIdsInDepts(trx, descendantIds(links, rule.ids).filter((id) => isInScope(reach, id)));
  } else if (rule.target === 'role') {
    people = await findUserIdsWithRoles(trx, rule.ids, bound);
  } else {
    people = [...(await findExistingUserIds(trx, rule.ids, bound))];
  }
  return [...new Set(people)].sort((a, b) => a - b);
}
