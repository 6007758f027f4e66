import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { countingAttempt, type CountsRule } from '@cloud-classroom/shared/attempt-rules';
import { certificateVerificationPath } from '@cloud-classroom/shared/certificate-links';
import {
  addMonthsToDate,
  certificateNumberSchema,
  certificateSnapshotSchema,
  CERTIFICATE_IMPORT_COLUMNS,
  certificateStatusAt,
  formatCalendarDate,
  formatCertificateNumber,
  maskHolderName,
  type Certificate,
  type CertificateIssue,
  type CertificateLayout,
  type CertificateQuery,
  type CertificateReissue,
  type CertificateRevoke,
  type CertificateImportColumn,
  type CertificateSnapshot,
  type CertificateSource,
  type CertificatesIssued,
  type CertificateVerification,
  type CertificateVerifyQuery,
  type CertRule,
  type CertRuleCreate,
  type CertRuleQuery,
  type CertTemplate,
  type CertTemplateCreate,
  type CertTemplateQuery,
  type CertTemplateUpdate,
  type CertTemplateVersion,
  type MyCertificate,
} from '@cloud-classroom/shared/certificates';
import { ENROLLED_STATUSES, type ImportResult } from '@cloud-classroom/shared/applicants';
import { dayInZone, endOfValidity } from '@cloud-classroom/shared/calendar-day';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { mapPage, withOutsideScope, type Page } from '@cloud-classroom/shared/http';
import { checkPermission } from '@cloud-classroom/shared/permission';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { JobRunner } from '../../jobs/job-runner.js';
import type { Database } from '../../db/schema.js';
import { conflict, forbidden, invalidInput, notFound } from '../../domain-error.js';
import type { FileStore } from '../../files/file-store.js';
import type { FileOwner } from '../../files/orphan-files.js';
import type { Upload } from '../../files/upload.js';
import type { AccessService } from '../access/access.service.js';
import { limitPerAddress } from '../auth/address-limit.js';
import type { Principal } from '../auth/session.service.js';
import type * as YazlModule from 'yazl';
import { renderCertificatePdf } from './certificate-pdf.js';
import { parseCalendarCell, readCertificateSheet } from './certificate-sheet.js';
import {
  countCertificatesOfVersion,
  deleteRules,
  deleteTemplates,
  findBackgroundKeys,
  findByNumber,
  findCertificates,
  findExamFacts,
  findFinishedAttempts,
  findMyCertificates,
  findApplicants,
  findCompleters,
  findPassers,
  findPeople,
  findPeopleByUsername,
  findTakenNumbers,
  findValidHeld,
  findTemplateHeadsByName,
  findRuleHolders,
  findRules,
  findRulesOf,
  findTemplateHead,
  findTemplateIds,
  findTemplates,
  findTemplatesInUse,
  findTermFacts,
  findVersion,
  findVersions,
  insertCertificate,
  insertRule,
  insertTemplate,
  insertVersion,
  nextSequence,
  numberTaken,
  revokeCertificates,
  supersede,
  updateTemplate,
  updateVersionLayout,
  type ApplicantHead,
  type CertificateRow,
  type FinishedAttempt,
  type Person,
  type TemplateHead,
  type VersionRow,
} from './certificates.repo.js';

export type CertificatesOptions = {
  db: Kysely<Database>;
  clock: Clock;
  files: FileStore;
  access: AccessService;
  jobs: JobRunner;
  /** The organisation's zone (config `TZ`): certificates are dated, and expire, by its calendar days. */
  timeZone: string;
  /** The site's own address (`config.publicUrl`), which every verification link names: never a request's Host, which the caller writes. */
  publicUrl: string;
  /** Shared by the service and its `within` copies; filled by `onIssued`. */
  issuedListeners?: IssuedListener[];
};

/** Told of the certificates just issued (their ids), inside the issuing transaction; it should only write or queue work with it. */
export type IssuedListener = (certificateIds: number[], trx: Kysely<Database>) => Promise<void>;

/** The job that issues what an exam's or a term's rules give people who passed or completed it. */
export const AUTO_ISSUE_JOB = 'certificates.autoIssue';
/** `userIds` null: everyone who qualifies (a rule just made reaches those who passed before). */
type AutoIssuePayload = { examId: number | null; termId: number | null; userIds: number[] | null };

/** Public checks one address may make a minute: plenty for people scanning codes, too few to guess codes. */
export const VERIFY_PER_MINUTE = 30;
/** Where uploaded backgrounds are kept; a layout may name only a key under it (certificateBackgroundKeySchema). */
export const BACKGROUND_FOLDER = 'cert-backgrounds';
/** The two kinds pdfkit embeds. */
export const BACKGROUND_TYPES = ['png', 'jpeg'] as const;
export const BACKGROUND_MAX_BYTES = 10 * 1024 * 1024;
/** Where the rendered PDFs are kept, a folder per certificate. */
export const PDF_CACHE_FOLDER = 'cert-pdfs';

// No 0/O, 1/I/L: a code is read off paper and typed. 32 symbols, so a byte's low 5 bits pick one
// without bias; 12 of them are 60 bits, far beyond what VERIFY_PER_MINUTE lets anyone try.
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789_';
const CODE_LENGTH = 12;

/** A certificate's verification code (the demo seed's too). */
export function randomCertificateCode(): string {
  return Array.from(crypto.randomBytes(CODE_LENGTH), (byte) => CODE_ALPHABET[byte & 31]).join('');
}

function codeMatches(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given.trim().toUpperCase());
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}


/**
 * The sequence a pattern counts in on a day: the pattern with its date placeholders filled in, so
 * `CC-{yyyy}-{seq:6}` starts again at 1 each year and a pattern without a date never does. Patterns
 * differing only in the sequence's width share one count, as their numbers could collide.
 */
export function sequenceScope(pattern: string, issuedOn: string): string {
  return formatCalendarDate(issuedOn, pattern.replace(/\{seq:\d+\}/, '{seq}'));
}

/** The start of a calendar day in the server's zone (an imported certificate's moment of issue). */
function dayStart(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, day).getTime();
}

type Yazl = typeof YazlModule;
let yazl: Promise<Yazl> | undefined;
// Loaded on the first download, as most runs of the server never make one. CommonJS: Node offers it as the default export.
const loadYazl = (): Promise<Yazl> => (yazl ??= import('yazl').then((module) => ((module as unknown as { default?: Yazl }).default ?? module) as Yazl));

const SAMPLE_HOLDER = '张伟明';
const SAMPLE_CODE = 'SAMPLE';

/**
 * Certificates (DESIGN §6, §10; issue 14): templates whose layout is versioned (a layout that
 * certificates were issued with is never edited: the edit becomes a new version), issuing by hand
 * to chosen people (for an exam: its title and each person's counted score; for a term: its
 * course's title) with numbers from the template's pattern, revoking with a reason, re-issuing
 * after a name correction (the old certificate kept, superseded), the PDF drawn from the
 * snapshot and cached in the file store, the learner's own list, and the public check.
 * Staff act on the certificates of people within their data scope, as on the people themselves.
 */
export class CertificatesService {
  private readonly issuedListeners: IssuedListener[];

  constructor(private readonly options: CertificatesOptions) {
    this.issuedListeners = options.issuedListeners ?? [];
  }

  within(db: Kysely<Database>): CertificatesService {
    return db === this.options.db ? this : new CertificatesService({ ...this.options, db, issuedListeners: this.issuedListeners });
  }

  /** Listens to certificates issued by hand, by a rule or re-issued (their holders told); not to imported ones, issued before. */
  onIssued(listener: IssuedListener): void {
    this.issuedListeners.push(listener);
  }

  /** Registers the automatic issue job; once, on the service the app builds (services.ts). */
  registerJobs(): void {
    this.options.jobs.register<AutoIssuePayload>(AUTO_ISSUE_JOB, async (payload) => {
      await this.autoIssue(payload);
    });
  }

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  private now(): number {
    return this.options.clock.now();
  }

  /** The calendar day of the instant in the organisation's zone. */
  private dayOf(ms: number): string {
    return dayInZone(ms, this.options.timeZone);
  }

  private transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? work(this.db) : this.db.transaction().execute(work);
  }

  // ---- Templates --------------------------------------------------------------------------------

  async listTemplates(query: CertTemplateQuery): Promise<Page<CertTemplate>> {
    return findTemplates(this.db, { q: query.q }, query);
  }

  async template(id: number): Promise<CertTemplate> {
    const [template] = (await findTemplates(this.db, { ids: [id] })).content;
    if (template === undefined) throw notFound(`id: no certificate template ${id}`);
    return template;
  }

  async versions(id: number): Promise<CertTemplateVersion[]> {
    if ((await findTemplateHead(this.db, id)) === undefined) throw notFound(`id: no certificate template ${id}`);
    return findVersions(this.db, id);
  }

  async createTemplate(body: CertTemplateCreate, by: string): Promise<number> {
    await this.checkBackground(body.layout);
    return this.transaction(async (trx) => {
      const now = this.now();
      const id = await insertTemplate(trx, body, by, now);
      const versionId = await insertVersion(trx, id, 1, body.layout, by, now);
      await updateTemplate(trx, id, { ...body, currentVersionId: versionId }, by, now);
      return id;
    });
  }

  /**
   * Saves the template. A changed layout goes into the current version while no certificate uses
   * it, else into a new version that the next certificates are issued with; the certificates
   * issued keep theirs. Answers the current version's number.
   */
  async updateTemplate(body: CertTemplateUpdate, by: string): Promise<{ version: number }> {
    await this.checkBackground(body.layout);
    return this.transaction(async (trx) => {
      const head = await findTemplateHead(trx, body.id);
      if (head === undefined) throw notFound(`id: no certificate template ${body.id}`);
      const current = (await findVersion(trx, { id: head.currentVersionId })) as VersionRow;
      const now = this.now();
      let currentVersionId = current.id;
      let version = current.version;
      if (JSON.stringify(current.layout) !== JSON.stringify(body.layout)) {
        if ((await countCertificatesOfVersion(trx, current.id)) > 0) {
          const latest = (await findVersions(trx, body.id))[0]?.version ?? current.version;
          version = latest + 1;
          currentVersionId = await insertVersion(trx, body.id, version, body.layout, by, now);
        } else {
          await updateVersionLayout(trx, current.id, body.layout);
        }
      }
      await updateTemplate(trx, body.id, { ...body, currentVersionId }, by, now);
      return { version };
    });
  }

  /** Deletes the templates with their versions, all or none; refused (409) for one certificates were issued with. */
  async deleteTemplates(ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transaction(async (trx) => {
      const found = await findTemplateIds(trx, unique);
      const missing = unique.find((id) => !found.has(id));
      if (missing !== undefined) throw notFound(`ids: no certificate template ${missing}`);
      const used = await findTemplatesInUse(trx, unique);
      if (used.length > 0) throw conflict(`ids: certificates were issued with ${used.map((name) => `'${name}'`).join(', ')}`);
      await deleteTemplates(trx, unique);
    });
  }

  /** The template's PDF with sample values (a Chinese name, today's date, the first number of its pattern), never cached. */
  async previewTemplate(id: number, version: number | undefined): Promise<Buffer> {
    const head = await findTemplateHead(this.db, id);
    if (head === undefined) throw notFound(`id: no certificate template ${id}`);
    const layoutVersion = await findVersion(this.db, version === undefined ? { id: head.currentVersionId } : { templateId: id, version });
    if (layoutVersion === undefined) throw notFound(`version: template ${id} has no version ${version}`);
    const now = this.now();
    const issuedOn = this.dayOf(now);
    const snapshot: CertificateSnapshot = {
      holderName: SAMPLE_HOLDER,
      title: head.name,
      score: '95',
      issuedOn,
      expiresOn: head.validityMonths === null ? null : addMonthsToDate(issuedOn, head.validityMonths),
      number: formatCertificateNumber(head.numberPattern, now, 1),
    };
    return this.render(layoutVersion.layout, snapshot, this.options.publicUrl + certificateVerificationPath(snapshot.number, SAMPLE_CODE));
  }

  /**
   * Stores a background image (PNG or JPEG, told from its bytes by the upload reader) and answers
   * the key a layout names it by. A file no template version names is swept at a later start.
   */
  async uploadBackground(upload: Upload): Promise<{ key: string }> {
    if (upload.empty) throw invalidInput(`${upload.field}: is empty`);
    const extension = upload.type === 'png' ? 'png' : 'jpg';
    const key = `${BACKGROUND_FOLDER}/${this.dayOf(this.now()).slice(0, 7).replace('-', '')}/${crypto.randomBytes(16).toString('hex')}.${extension}`;
    await this.options.files.put(key, upload.content);
    return { key };
  }

  /** The backgrounds in the file store, for the sweep of files no template version names. */
  readonly backgroundFiles: FileOwner = {
    folder: BACKGROUND_FOLDER,
    referenced: async (keys) => {
      const used = await findBackgroundKeys(this.db);
      return new Set(keys.filter((key) => used.has(key)));
    },
  };

  /** A layout may name only a background the file store holds (uploaded under cert-backgrounds/). */
  private async checkBackground(layout: CertificateLayout): Promise<void> {
    if (layout.backgroundImage !== null && (await this.options.files.stat(layout.backgroundImage)) === undefined) {
      throw invalidInput(`layout.backgroundImage: no file ${layout.backgroundImage}`);
    }
  }

  // ---- Certificates -----------------------------------------------------------------------------

  /** The department ids whose people's certificates the caller acts on; empty: everyone's. */
  private async scopeOf(caller: Principal): Promise<number[]> {
    return caller.isAdmin ? [] : this.options.access.within(this.db).dataScopeOf(caller.userId);
  }

  async list(caller: Principal, query: CertificateQuery): Promise<Page<Certificate>> {
    const scope = await this.scopeOf(caller);
    const page = mapPage(await findCertificates(this.db, { ...query, scope }, this.now(), query), publicShape);
    if (scope.length === 0) return page;
    const everyone = await findCertificates(this.db, { ...query, scope: [] }, this.now(), { page: 0, size: 1 });
    return withOutsideScope(page, everyone.totalElements - page.totalElements);
  }

  async one(caller: Principal, id: number): Promise<Certificate> {
    return publicShape(await this.staffRow(caller, this.db, id));
  }

  /** A certificate of someone within the caller's scope; 404 otherwise, as for none. */
  private async staffRow(caller: Principal, db: Kysely<Database>, id: number): Promise<CertificateRow> {
    const [row] = (await findCertificates(db, { ids: [id], scope: await this.within(db).scopeOf(caller) }, this.now())).content;
    if (row === undefined) throw notFound(`id: no certificate ${id}`);
    return row;
  }

  /** Issues the template's current version to each person (all or none): see issueIn. */
  async issue(caller: Principal, body: CertificateIssue): Promise<CertificatesIssued> {
    return this.transaction(async (trx) => {
      const template = await findTemplateHead(trx, body.templateId);
      if (template === undefined) throw invalidInput(`templateId: no certificate template ${body.templateId}`);
      let { userIds = [], termId } = body;
      if (body.applicantIds !== undefined) {
        const enrolled = await this.enrolledApplicants(trx, body.applicantIds, body);
        userIds = enrolled.userIds;
        termId = enrolled.termId;
      }
      const people = await this.peopleInScope(trx, caller, userIds);
      const source = body.examId !== null ? 'exam' : termId !== null ? 'term' : 'staff';
      const replacing = await this.heldAlready(trx, { templateId: template.id, examId: body.examId, termId, people: userIds.map((id) => people.get(id) as Person) }, body);
      const certificates = await this.issueIn(
        trx,
        { template, people: userIds.map((id) => people.get(id) as Person), examId: body.examId, termId, title: body.title, source, ruleId: null, replacing },
        caller.username,
      );
      return { certificates };
    });
  }

  /**
   * The valid certificates of the template for the exam or term that the people hold already, by
   * holder: a second one is a duplicate (a double click, a list picked twice), refused with 409
   * naming the first holder unless the body asks to re-issue, which supersedes them.
   */
  private async heldAlready(
    trx: Kysely<Database>,
    what: { templateId: number; examId: number | null; termId: number | null; people: readonly Person[] },
    body: CertificateIssue,
  ): Promise<Map<number, number[]>> {
    const held = new Map<number, number[]>();
    if (what.examId === null && what.termId === null) return held;
    const found = await findValidHeld(trx, { templateId: what.templateId, examId: what.examId, termId: what.termId, userIds: what.people.map((person) => person.id) }, this.now());
    for (const { id, userId } of found) held.set(userId, [...(held.get(userId) ?? []), id]);
    const holder = what.people.find((person) => held.has(person.id));
    if (holder !== undefined && !body.reissue) {
      const field = body.applicantIds !== undefined ? 'applicantIds' : 'userIds';
      throw conflict(`${field}: ${holder.username} already holds a valid certificate for this ${what.examId !== null ? 'exam' : 'term'}; re-issue it instead`);
    }
    return held;
  }

  /**
   * Issues the template's current version to each person inside `trx`: for an exam (its title,
   * each person's counted score if graded) or a term (its course's title), or else under the
   * template's name; `title` overrides either. Dated today, expiring after the template's validity.
   */
  private async issueIn(
    trx: Kysely<Database>,
    what: {
      template: TemplateHead;
      people: readonly Person[];
      examId: number | null;
      termId: number | null;
      title: string | null;
      source: CertificateSource;
      ruleId: number | null;
      /** By holder, the certificates each new one supersedes (newest first). */
      replacing?: ReadonlyMap<number, readonly number[]>;
    },
    by: string,
  ): Promise<CertificatesIssued['certificates']> {
    const { template, people, examId, termId } = what;
    let title = template.name;
    let scores = new Map<number, string>();
    if (examId !== null) {
      const exam = await findExamFacts(trx, examId);
      if (exam === undefined) throw invalidInput(`examId: no exam ${examId}`);
      title = exam.title;
      scores = countedScores(await findFinishedAttempts(trx, examId, people.map((person) => person.id)), exam.counts as CountsRule);
    } else if (termId !== null) {
      const term = await findTermFacts(trx, termId);
      if (term === undefined) throw invalidInput(`termId: no term ${termId}`);
      title = term.courseTitle;
    }
    title = what.title ?? title;
    const now = this.now();
    const issuedOn = this.dayOf(now);
    const expiresOn = template.validityMonths === null ? null : addMonthsToDate(issuedOn, template.validityMonths);
    const issued: CertificatesIssued['certificates'] = [];
    for (const person of people) {
      const number = await this.nextNumber(trx, template, now);
      const snapshot = snapshotOf({ holderName: person.nickName, title, score: scores.get(person.id) ?? null, issuedOn, expiresOn, number }, `userIds: ${person.username}`);
      const id = await insertCertificate(
        trx,
        {
          templateId: template.id,
          templateVersionId: template.currentVersionId,
          userId: person.id,
          number,
          code: randomCertificateCode(),
          snapshot,
          source: what.source,
          examId,
          termId,
          issuedAt: now,
          expiresAt: expiresOn === null ? null : endOfValidity(expiresOn, this.options.timeZone),
          supersedes: what.replacing?.get(person.id)?.[0] ?? null,
          ruleId: what.ruleId,
        },
        by,
        now,
      );
      for (const old of what.replacing?.get(person.id) ?? []) await supersede(trx, old, id, now);
      issued.push({ id, userId: person.id, number });
    }
    for (const listener of this.issuedListeners) await listener(issued.map((certificate) => certificate.id), trx);
    return issued;
  }

  /**
   * The people of the applicants, who must all be enrolled (approved, in progress or completed) in
   * one term, the body's if it names one; their term is the certificate's unless an exam is named.
   */
  private async enrolledApplicants(trx: Kysely<Database>, applicantIds: readonly number[], body: CertificateIssue): Promise<{ userIds: number[]; termId: number | null }> {
    const applicants = await findApplicants(trx, applicantIds);
    const missing = applicantIds.find((id) => !applicants.has(id));
    if (missing !== undefined) throw invalidInput(`applicantIds: no applicant ${missing}`);
    const found = applicantIds.map((id) => applicants.get(id) as ApplicantHead);
    const termIds = new Set(found.map((applicant) => applicant.termId));
    if (termIds.size > 1) throw invalidInput('applicantIds: list applicants of one term');
    const [termId] = termIds as Set<number>;
    if (body.termId !== null && body.termId !== termId) throw invalidInput(`applicantIds: are not applicants of term ${body.termId}`);
    const unenrolled = found.find((applicant) => !(ENROLLED_STATUSES as readonly string[]).includes(applicant.status));
    if (unenrolled !== undefined) throw invalidInput(`applicantIds: applicant ${unenrolled.id} is not enrolled (${unenrolled.status})`);
    return { userIds: [...new Set(found.map((applicant) => applicant.userId))], termId: body.examId === null ? (termId as number) : null };
  }

  /**
   * Existing certificates from a spreadsheet (CERTIFICATE_IMPORT_COLUMNS), with their original
   * numbers and dates, printed with the template's current layout and the holder's name now. A dry
   * run checks every row and writes nothing; a real run writes every row, or none if any is bad.
   * Refused rows: an unknown person or one outside the caller's scope, an unknown or ambiguous
   * template, a number listed twice in the file or held by a certificate already, bad dates.
   */
  async import(caller: Principal, dryRun: boolean, upload: Upload): Promise<ImportResult> {
    const sheet = await readCertificateSheet(upload.content, upload.field);
    if (sheet === null) {
      return { total: 0, valid: 0, created: 0, errors: [{ row: 1, column: 'username', message: `the first row must be the headers ${CERTIFICATE_IMPORT_COLUMNS.join(', ')}` }], rows: [], examples: [] };
    }
    const { rows } = sheet;
    return this.transaction(async (trx) => {
      const errors: ImportResult['errors'] = [];
      const distinct = (values: string[]) => [...new Set(values.filter((value) => value !== ''))];
      const people = await findPeopleByUsername(trx, distinct(rows.map((row) => row.username)));
      const templates = await findTemplateHeadsByName(trx, distinct(rows.map((row) => row.template)));
      const taken = await findTakenNumbers(trx, distinct(rows.map((row) => row.number)));
      const scope = await this.within(trx).scopeOf(caller);
      const firstRowOf = new Map<string, number>();
      const ready: { row: number; template: TemplateHead; person: Person; snapshot: CertificateSnapshot }[] = [];
      for (const row of rows) {
        const rowErrors: ImportResult['errors'] = [];
        const refuse = (column: CertificateImportColumn, message: string) => rowErrors.push({ row: row.row, column, message });
        const person = people.get(row.username);
        if (row.username === '') refuse('username', 'is required');
        else if (person === undefined) refuse('username', `no user named '${row.username}'`);
        else if (scope.length > 0 && (person.deptId === null || !scope.includes(person.deptId))) refuse('username', `'${row.username}' is outside the departments you manage`);
        const named = templates.get(row.template) ?? [];
        if (row.template === '') refuse('template', 'is required');
        else if (named.length === 0) refuse('template', `no certificate template named '${row.template}'`);
        else if (named.length > 1) refuse('template', `${named.length} certificate templates are named '${row.template}'`);
        const number = certificateNumberSchema.safeParse(row.number);
        if (!number.success) refuse('number', number.error.issues[0]?.message ?? 'is not valid');
        else if (taken.has(number.data)) refuse('number', `a certificate numbered '${number.data}' exists already`);
        else if (firstRowOf.has(number.data)) refuse('number', `'${number.data}' is already listed in row ${firstRowOf.get(number.data)}`);
        else firstRowOf.set(number.data, row.row);
        const issuedOn = parseCalendarCell(row.issuedOn);
        if (!issuedOn.ok) refuse('issuedOn', "expected 'yyyy-MM-dd'");
        else if (issuedOn.date === null) refuse('issuedOn', 'is required');
        const expiresOn = parseCalendarCell(row.expiresOn);
        if (!expiresOn.ok) refuse('expiresOn', "expected 'yyyy-MM-dd' or nothing");
        if (rowErrors.length === 0 && person !== undefined && number.success && issuedOn.ok && expiresOn.ok) {
          const template = named[0] as TemplateHead;
          const parsed = certificateSnapshotSchema.safeParse({
            holderName: person.nickName,
            title: row.title === '' ? template.name : row.title,
            score: row.score,
            issuedOn: issuedOn.date,
            expiresOn: expiresOn.date,
            number: number.data,
          });
          if (parsed.success) ready.push({ row: row.row, template, person, snapshot: parsed.data });
          for (const issue of parsed.success ? [] : parsed.error.issues) {
            const column = String(issue.path[0] ?? 'title');
            refuse((CERTIFICATE_IMPORT_COLUMNS as readonly string[]).includes(column) ? (column as CertificateImportColumn) : 'username', issue.message);
          }
        }
        errors.push(...rowErrors);
      }
      const result = {
        total: rows.length,
        valid: ready.length,
        created: 0,
        errors,
        rows: ready.map(({ row, person, snapshot }) => ({ sheet: sheet.sheet, row, type: null, text: `${snapshot.number} ${person.username}` })),
        examples: sheet.examples.map((row) => ({ sheet: sheet.sheet, row })),
      };
      if (dryRun || errors.length > 0) return result;
      const now = this.now();
      for (const { template, person, snapshot } of ready) {
        await insertCertificate(
          trx,
          {
            templateId: template.id,
            templateVersionId: template.currentVersionId,
            userId: person.id,
            number: snapshot.number,
            code: randomCertificateCode(),
            snapshot,
            source: 'import',
            examId: null,
            termId: null,
            issuedAt: dayStart(snapshot.issuedOn),
            expiresAt: snapshot.expiresOn === null ? null : endOfValidity(snapshot.expiresOn, this.options.timeZone),
            supersedes: null,
          },
          caller.username,
          now,
        );
      }
      return { ...result, created: ready.length };
    });
  }

  /** The people by id, each of whom must exist and be within the caller's data scope. */
  private async peopleInScope(trx: Kysely<Database>, caller: Principal, userIds: readonly number[]): Promise<Map<number, Person>> {
    const people = await findPeople(trx, userIds);
    const missing = userIds.find((id) => !people.has(id));
    if (missing !== undefined) throw invalidInput(`userIds: no person ${missing}`);
    const scope = await this.within(trx).scopeOf(caller);
    const outside = [...people.values()].find((person) => scope.length > 0 && (person.deptId === null || !scope.includes(person.deptId)));
    if (outside !== undefined) throw forbidden(`${outside.username} is outside the departments you manage`);
    return people;
  }

  /** The template's next free number for a certificate issued at `issuedAt` (an imported certificate may hold one the sequence reaches). */
  private async nextNumber(trx: Kysely<Database>, template: TemplateHead, issuedAt: number): Promise<string> {
    const scope = sequenceScope(template.numberPattern, this.dayOf(issuedAt));
    for (;;) {
      const number = formatCertificateNumber(template.numberPattern, issuedAt, await nextSequence(trx, scope));
      if (!(await numberTaken(trx, number))) return number;
    }
  }

  /** Revokes the certificates, all or none (404 naming the first missing or out of scope); one revoked already keeps its first revocation. */
  async revoke(caller: Principal, body: CertificateRevoke): Promise<void> {
    await this.transaction(async (trx) => {
      const found = (await findCertificates(trx, { ids: body.ids, scope: await this.within(trx).scopeOf(caller) }, this.now())).content;
      const present = new Set(found.map((row) => row.id));
      const missing = body.ids.find((id) => !present.has(id));
      if (missing !== undefined) throw notFound(`ids: no certificate ${missing}`);
      await revokeCertificates(trx, body.ids, body.reason, caller.username, this.now());
    });
  }

  /**
   * A new certificate in place of one whose printed name was wrong: the same template version,
   * title, score and dates, the name given (by default the account's name now), a new number and
   * code; the old one stays, superseded by it (409 if it was re-issued already or revoked).
   */
  async reissue(caller: Principal, id: number, body: CertificateReissue): Promise<{ id: number; number: string }> {
    return this.transaction(async (trx) => {
      const old = await this.staffRow(caller, trx, id);
      if (old.supersededBy !== null) throw conflict(`id: certificate ${old.number} was re-issued already`);
      if (old.revokedAt !== null) throw conflict(`id: certificate ${old.number} is revoked`);
      const template = (await findTemplateHead(trx, old.templateId)) as TemplateHead;
      const person = (await findPeople(trx, [old.userId])).get(old.userId);
      const holderName = body.holderName ?? person?.nickName;
      if (holderName === undefined) throw invalidInput('holderName: is required, as the account is gone');
      const issuedAt = old.issuedAtMs;
      const number = await this.nextNumber(trx, template, issuedAt);
      const snapshot = snapshotOf({ ...old.snapshot, holderName, number }, 'holderName');
      const now = this.now();
      const newId = await insertCertificate(
        trx,
        {
          templateId: old.templateId,
          templateVersionId: old.templateVersionId,
          userId: old.userId,
          number,
          code: randomCertificateCode(),
          snapshot,
          source: 'reissue',
          examId: old.examId,
          termId: old.termId,
          issuedAt,
          expiresAt: snapshot.expiresOn === null ? null : endOfValidity(snapshot.expiresOn, this.options.timeZone),
          supersedes: old.id,
        },
        caller.username,
        now,
      );
      if (!(await supersede(trx, old.id, newId, now))) throw conflict(`id: certificate ${old.number} was re-issued already`);
      // The holder gets the corrected one as a new certificate (and its expiry reminder, the old one's being void).
      for (const listener of this.issuedListeners) await listener([newId], trx);
      return { id: newId, number };
    });
  }

  /**
   * The certificate's PDF, for its holder or for staff holding `cert:list` whose scope reaches the
   * holder; anyone else gets the 404 of a certificate that does not exist. Drawn once per content
   * (layout version, snapshot, verification link) and kept in the file store.
   */
  async pdf(caller: Principal, id: number): Promise<{ pdf: Buffer; number: string }> {
    const [row] = (await findCertificates(this.db, { ids: [id] }, this.now())).content;
    if (row === undefined || !(await this.mayRead(caller, row))) throw notFound(`id: no certificate ${id}`);
    const found = await this.pdfOf(row);
    return { pdf: 'pdf' in found ? found.pdf : await bytesOf(found.stream), number: row.number };
  }

  /** The certificate's PDF: the cached file as a stream, or drawn now (and cached) as a whole. */
  private async pdfOf(row: CertificateRow): Promise<{ stream: NodeJS.ReadableStream } | { pdf: Buffer }> {
    const version = (await findVersion(this.db, { id: row.templateVersionId })) as VersionRow;
    const url = this.options.publicUrl + certificateVerificationPath(row.number, row.code);
    const digest = crypto.createHash('sha256').update(JSON.stringify([version.layout, row.snapshot, url])).digest('hex').slice(0, 32);
    const key = `${PDF_CACHE_FOLDER}/${row.id}/${digest}.pdf`;
    const cached = await this.options.files.get(key);
    if (cached !== undefined) return { stream: cached };
    const pdf = await this.render(version.layout, row.snapshot, url);
    await this.options.files.put(key, Readable.from([pdf]));
    // What was drawn for another link (the site moved) is of no more use.
    for await (const file of this.options.files.list(`${PDF_CACHE_FOLDER}/${row.id}`)) {
      if (file.key !== key) await this.options.files.delete(file.key);
    }
    return { pdf };
  }

  /**
   * A ZIP of the PDFs of the certificates the list shows with this filter (the caller's scope),
   * `<number>.pdf` each, streamed: yazl asks for an entry's PDF only when it writes that entry, and
   * writes it as fast as the client reads, so one PDF at a time is read or drawn, whatever the count.
   */
  async download(caller: Principal, query: CertificateQuery): Promise<{ zip: NodeJS.ReadableStream; count: number }> {
    const { page: _page, size: _size, ...filter } = query;
    const rows = (await findCertificates(this.db, { ...filter, scope: await this.scopeOf(caller) }, this.now(), { sort: query.sort })).content;
    const { ZipFile } = await loadYazl();
    const zip = new ZipFile();
    const names = new Set<string>();
    for (const row of rows) {
      // Characters no file system takes in a name become _, so two numbers may meet: the id tells them apart.
      const base = row.number.replace(/[/\\:*?"<>|]/g, '_');
      const name = names.has(`${base}.pdf`) ? `${base}-${row.id}.pdf` : `${base}.pdf`;
      names.add(name);
      // Dated as issued; the PDF itself is compressed already.
      zip.addReadStreamLazy(name, { mtime: new Date(row.issuedAtMs), compress: false }, (done) => {
        this.pdfOf(row).then(
          (found) => done(null, 'pdf' in found ? Readable.from([found.pdf]) : found.stream),
          (error: unknown) => done(error, Readable.from([])),
        );
      });
    }
    zip.end();
    return { zip: zip.outputStream, count: rows.length };
  }

  private async mayRead(caller: Principal, row: CertificateRow): Promise<boolean> {
    if (row.userId === caller.userId || caller.isAdmin) return true;
    if (!checkPermission(await this.options.access.permissionsOf(caller.userId), ['cert:list'])) return false;
    const scope = await this.scopeOf(caller);
    return scope.length === 0 || (row.deptId !== null && scope.includes(row.deptId));
  }

  private async render(layout: CertificateLayout, snapshot: CertificateSnapshot, verificationUrl: string): Promise<Buffer> {
    let background: Buffer | null = null;
    if (layout.backgroundImage !== null) {
      const stream = await this.options.files.get(layout.backgroundImage);
      if (stream === undefined) throw conflict(`layout.backgroundImage: the file ${layout.backgroundImage} is gone`);
      background = await bytesOf(stream);
    }
    return renderCertificatePdf({ layout, snapshot, verificationUrl, background });
  }

  // ---- Issuing rules ----------------------------------------------------------------------------

  async listRules(query: CertRuleQuery): Promise<Page<CertRule>> {
    return findRules(this.db, query, query);
  }

  /**
   * A rule issuing the template to whoever passes the exam (a graded attempt that passed) or
   * completes the term; 409 if the same template already has a rule there. People who passed or
   * completed it before get theirs too, by the same job.
   */
  async createRule(body: CertRuleCreate, by: string): Promise<number> {
    return this.transaction(async (trx) => {
      if ((await findTemplateHead(trx, body.templateId)) === undefined) throw invalidInput(`templateId: no certificate template ${body.templateId}`);
      if (body.examId !== null && (await findExamFacts(trx, body.examId)) === undefined) throw invalidInput(`examId: no exam ${body.examId}`);
      if (body.termId !== null && (await findTermFacts(trx, body.termId)) === undefined) throw invalidInput(`termId: no term ${body.termId}`);
      const target = body.examId !== null ? { examId: body.examId } : { termId: body.termId as number };
      if ((await findRulesOf(trx, target)).some((rule) => rule.templateId === body.templateId)) {
        throw conflict(`templateId: this template is issued there by a rule already`);
      }
      const id = await insertRule(trx, body, by, this.now());
      await this.options.jobs.enqueue(AUTO_ISSUE_JOB, { examId: body.examId, termId: body.termId, userIds: null } satisfies AutoIssuePayload, { db: trx });
      return id;
    });
  }

  /** Deletes the rules (404 naming the first missing); what they issued stays. */
  async deleteRules(ids: readonly number[]): Promise<void> {
    await this.transaction(async (trx) => {
      const found = new Set((await findRules(trx, { ids })).content.map((rule) => rule.id));
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) throw notFound(`ids: no certificate rule ${missing}`);
      await deleteRules(trx, ids);
    });
  }

  /**
   * People passed the exam (attempts and marking call this inside the grading's transaction): when
   * the exam has a rule, each gets a job, keyed by exam and person so a regrade while one waits
   * adds none; the job itself issues once per rule and person.
   */
  async examPassed(examId: number, userIds: readonly number[]): Promise<void> {
    await this.queueAutoIssue({ examId }, userIds);
  }

  /** People completed the term (the enrolment calls this inside the completion's transaction): as examPassed. */
  async termCompleted(termId: number, userIds: readonly number[]): Promise<void> {
    await this.queueAutoIssue({ termId }, userIds);
  }

  private async queueAutoIssue(target: { examId: number } | { termId: number }, userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0 || (await findRulesOf(this.db, target)).length === 0) return;
    const [kind, id] = 'examId' in target ? (['exam', target.examId] as const) : (['term', target.termId] as const);
    for (const userId of new Set(userIds)) {
      const payload: AutoIssuePayload = { examId: kind === 'exam' ? id : null, termId: kind === 'term' ? id : null, userIds: [userId] };
      await this.options.jobs.enqueue(AUTO_ISSUE_JOB, payload, { db: this.db, dedupeKey: `${AUTO_ISSUE_JOB}:${kind}:${id}:${userId}` });
    }
  }

  /**
   * The job: for each rule of the exam or term, issues to those of the people who (still) passed
   * or completed it and hold no certificate of that rule; one transaction per rule. Idempotent:
   * run again it finds them holding one, and the unique (rule, person) index refuses a second
   * issued in parallel (the losing transaction rolls back and its retry finds the certificate).
   */
  async autoIssue({ examId, termId, userIds }: AutoIssuePayload): Promise<void> {
    const target = examId !== null ? { examId } : termId !== null ? { termId } : undefined;
    if (target === undefined) return;
    for (const rule of await findRulesOf(this.db, target)) {
      await this.transaction(async (trx) => {
        const template = await findTemplateHead(trx, rule.templateId);
        // The exam or term deleted since: nothing to print.
        const facts = examId !== null ? await findExamFacts(trx, examId) : await findTermFacts(trx, termId as number);
        if (template === undefined || facts === undefined) return;
        const qualified = examId !== null ? await findPassers(trx, examId, userIds ?? undefined) : await findCompleters(trx, termId as number, userIds ?? undefined);
        const holders = await findRuleHolders(trx, rule.id, qualified);
        const people = await findPeople(trx, qualified.filter((id) => !holders.has(id)));
        if (people.size === 0) return;
        await this.issueIn(trx, { template, people: [...people.values()], examId, termId, title: null, source: examId !== null ? 'exam' : 'term', ruleId: rule.id }, 'system');
      });
    }
  }

  // ---- The learner's and the public's -----------------------------------------------------------

  /** The session's own certificates, newest first, superseded and revoked ones included with their status. */
  async mine(userId: number): Promise<MyCertificate[]> {
    return findMyCertificates(this.db, userId, this.now());
  }

  async myOne(userId: number, id: number): Promise<MyCertificate> {
    const found = (await this.mine(userId)).find((certificate) => certificate.id === id);
    if (found === undefined) throw notFound(`id: no certificate ${id}`);
    return found;
  }

  /**
   * The public check: rate limited per address; a wrong code answers as an unknown number does,
   * so numbers cannot be tried without their codes; the holder's name masked.
   */
  async verify(query: CertificateVerifyQuery, address: string): Promise<CertificateVerification> {
    const now = this.now();
    await limitPerAddress(this.db, 'cert-verify', address, now, { max: VERIFY_PER_MINUTE, windowMs: 60_000 }, 'too many certificate checks; wait a minute and try again');
    const row = await findByNumber(this.db, query.number);
    if (row === undefined || !codeMatches(row.code, query.code)) throw notFound('no certificate has this number and code');
    return {
      status: certificateStatusAt(row, now),
      number: row.number,
      holder: maskHolderName(row.holderName),
      title: row.title,
      issuedAt: formatDateTime(row.issuedAt),
      expiresAt: row.expiresAt === null ? null : formatDateTime(row.expiresAt),
      revokedAt: row.revokedAt === null || row.revokedAt > now ? null : formatDateTime(row.revokedAt),
    };
  }
}

/** The row as the wire shows it (the scope's department and the snapshot stay inside). */
function publicShape(row: CertificateRow): Certificate {
  const { deptId: _deptId, templateVersionId: _versionId, snapshot: _snapshot, issuedAtMs: _issuedAtMs, ...certificate } = row;
  return certificate;
}

/** Each person's counted score (as the exam counts attempts), printed as the number it is. */
function countedScores(attempts: readonly FinishedAttempt[], counts: CountsRule): Map<number, string> {
  const byPerson = new Map<number, FinishedAttempt[]>();
  for (const attempt of attempts) byPerson.set(attempt.userId, [...(byPerson.get(attempt.userId) ?? []), attempt]);
  const scores = new Map<number, string>();
  for (const [userId, mine] of byPerson) {
    const counted = countingAttempt(mine, counts);
    if (counted?.score !== null && counted?.score !== undefined) scores.set(userId, String(counted.score));
  }
  return scores;
}

/** The snapshot checked by its schema, a value it refuses (a name too long) answered as a 400 at `field`. */
function snapshotOf(values: CertificateSnapshot, field: string): CertificateSnapshot {
  const parsed = certificateSnapshotSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidInput(`${field}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is not valid'}`);
  }
  return parsed.data;
}

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
