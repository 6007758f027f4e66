import {
  certificateStatusAt,
  type Certificate,
  type CERT_TEMPLATE_SORT_FIELDS,
  type CERTIFICATE_SORT_FIELDS,
  type CertificateLayout,
  type CertificateSnapshot,
  type CertificateSource,
  type CertificateStatus,
  type CertRule,
  type CertTemplate,
  type CertTemplateVersion,
  type MyCertificate,
} from '@cloud-classroom/shared/certificates';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Page, SortOrder } from '@cloud-classroom/shared/http';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { changed, created } from '../../db/audit-columns.js';
import { contains } from '../../db/list-filters.js';
import { paginate, type Ordering } from '../../db/paginate.js';
import type { Database } from '../../db/schema.js';

const time = (at: number | null) => (at === null ? null : formatDateTime(at));
type PageRequest = { page?: number; size?: number; sort?: readonly SortOrder[] };

// Written only by this module, after validation.
const parseLayout = (text: string): CertificateLayout => JSON.parse(text) as CertificateLayout;
const parseSnapshot = (text: string): CertificateSnapshot => JSON.parse(text) as CertificateSnapshot;

/** Keeps `in (…)` lists well under every database's limit. */
function slices<T>(values: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += size) out.push(values.slice(start, start + size));
  return out;
}

// ---- Templates ----------------------------------------------------------------------------------

const TEMPLATE_ORDERING: Ordering<(typeof CERT_TEMPLATE_SORT_FIELDS)[number]> = {
  sortable: { id: 't.id', name: 't.name', createTime: 't.create_time', updateTime: 't.update_time' },
  tiebreak: [['t.id', 'desc']],
};

export async function findTemplates(db: Kysely<Database>, filter: { q?: string | undefined; ids?: readonly number[] }, page: PageRequest = {}): Promise<Page<CertTemplate>> {
  let filtered = db.selectFrom('edu_cert_template as t');
  if (filter.q) filtered = filtered.where(contains(['t.name'], filter.q));
  if (filter.ids) filtered = filtered.where('t.id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  const { content, totalElements } = await paginate(
    filtered,
    (query) =>
      query
        .innerJoin('edu_cert_template_version as v', 'v.id', 't.current_version_id')
        .selectAll('t')
        .select(['v.version', 'v.layout'])
        .select((eb) => eb.selectFrom('edu_certificate as c').select((count) => count.fn.countAll().as('n')).whereRef('c.template_id', '=', 't.id').as('certificate_count')),
    TEMPLATE_ORDERING,
    page,
  );
  return {
    totalElements,
    content: content.map((row) => ({
      id: row.id,
      name: row.name,
      numberPattern: row.number_pattern,
      validityMonths: row.validity_months,
      version: row.version,
      layout: parseLayout(row.layout),
      certificateCount: Number(row.certificate_count),
      createBy: row.create_by,
      updateBy: row.update_by,
      createTime: formatDateTime(row.create_time),
      updateTime: formatDateTime(row.update_time),
    })),
  };
}

export type TemplateHead = { id: number; name: string; numberPattern: string; validityMonths: number | null; currentVersionId: number };

export async function findTemplateHead(db: Kysely<Database>, id: number): Promise<TemplateHead | undefined> {
  const row = await db.selectFrom('edu_cert_template').selectAll().where('id', '=', id).executeTakeFirst();
  return (
    row && {
      id: row.id,
      name: row.name,
      numberPattern: row.number_pattern,
      validityMonths: row.validity_months,
      // Set in the transaction that creates the template.
      currentVersionId: row.current_version_id as number,
    }
  );
}

export type TemplateValues = { name: string; numberPattern: string; validityMonths: number | null };

export async function insertTemplate(db: Kysely<Database>, values: TemplateValues, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('edu_cert_template')
    .values({ ...created(by, now), name: values.name, number_pattern: values.numberPattern, validity_months: values.validityMonths, current_version_id: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateTemplate(db: Kysely<Database>, id: number, values: TemplateValues & { currentVersionId: number }, by: string, now: number): Promise<void> {
  await db
    .updateTable('edu_cert_template')
    .set({ ...changed(by, now), name: values.name, number_pattern: values.numberPattern, validity_months: values.validityMonths, current_version_id: values.currentVersionId })
    .where('id', '=', id)
    .execute();
}

export async function insertVersion(db: Kysely<Database>, templateId: number, version: number, layout: CertificateLayout, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('edu_cert_template_version')
    .values({ template_id: templateId, version, layout: JSON.stringify(layout), create_by: by, create_time: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateVersionLayout(db: Kysely<Database>, versionId: number, layout: CertificateLayout): Promise<void> {
  await db.updateTable('edu_cert_template_version').set({ layout: JSON.stringify(layout) }).where('id', '=', versionId).execute();
}

export type VersionRow = { id: number; templateId: number; version: number; layout: CertificateLayout };

export async function findVersion(db: Kysely<Database>, where: { id: number } | { templateId: number; version: number }): Promise<VersionRow | undefined> {
  let query = db.selectFrom('edu_cert_template_version').selectAll();
  query = 'id' in where ? query.where('id', '=', where.id) : query.where('template_id', '=', where.templateId).where('version', '=', where.version);
  const row = await query.executeTakeFirst();
  return row && { id: row.id, templateId: row.template_id, version: row.version, layout: parseLayout(row.layout) };
}

export async function findVersions(db: Kysely<Database>, templateId: number): Promise<CertTemplateVersion[]> {
  const rows = await db
    .selectFrom('edu_cert_template_version as v')
    .selectAll('v')
    .select((eb) => eb.selectFrom('edu_certificate as c').select((count) => count.fn.countAll().as('n')).whereRef('c.template_version_id', '=', 'v.id').as('certificate_count'))
    .where('v.template_id', '=', templateId)
    .orderBy('v.version', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    version: row.version,
    layout: parseLayout(row.layout),
    certificateCount: Number(row.certificate_count),
    createBy: row.create_by,
    createTime: formatDateTime(row.create_time),
  }));
}

/** Every background a template version names (templates are few, and their versions fewer than their certificates). */
export async function findBackgroundKeys(db: Kysely<Database>): Promise<Set<string>> {
  const rows = await db.selectFrom('edu_cert_template_version').select('layout').execute();
  return new Set(rows.map((row) => parseLayout(row.layout).backgroundImage).filter((key): key is string => key !== null));
}

export async function countCertificatesOfVersion(db: Kysely<Database>, versionId: number): Promise<number> {
  const { n } = await db.selectFrom('edu_certificate').select((eb) => eb.fn.countAll().as('n')).where('template_version_id', '=', versionId).executeTakeFirstOrThrow();
  return Number(n);
}

export async function findTemplateIds(db: Kysely<Database>, ids: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (const slice of slices(ids)) {
    for (const row of await db.selectFrom('edu_cert_template').select('id').where('id', 'in', slice).execute()) found.add(row.id);
  }
  return found;
}

/** The names of those templates that certificates were issued with. */
export async function findTemplatesInUse(db: Kysely<Database>, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('edu_cert_template as t')
    .select('t.name')
    .where('t.id', 'in', ids)
    .where((eb) => eb.exists(eb.selectFrom('edu_certificate as c').select('c.id').whereRef('c.template_id', '=', 't.id')))
    .orderBy('t.id')
    .execute();
  return rows.map((row) => row.name);
}

export async function deleteTemplates(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  // A template with no certificate may have rules; they go with it.
  await db.deleteFrom('edu_cert_rule').where('template_id', 'in', ids).execute();
  await db.deleteFrom('edu_cert_template_version').where('template_id', 'in', ids).execute();
  await db.deleteFrom('edu_cert_template').where('id', 'in', ids).execute();
}

// ---- What a certificate is issued from ----------------------------------------------------------

export type Person = { id: number; username: string; nickName: string; deptId: number | null };

export async function findPeople(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, Person>> {
  const found = new Map<number, Person>();
  for (const slice of slices(ids)) {
    const rows = await db.selectFrom('sys_user').select(['id', 'username', 'nick_name', 'dept_id']).where('id', 'in', slice).execute();
    for (const row of rows) found.set(row.id, { id: row.id, username: row.username, nickName: row.nick_name, deptId: row.dept_id });
  }
  return found;
}

export type ApplicantHead = { id: number; userId: number; termId: number; status: string };

export async function findApplicants(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, ApplicantHead>> {
  const found = new Map<number, ApplicantHead>();
  for (const slice of slices(ids)) {
    const rows = await db.selectFrom('edu_applicant').select(['id', 'user_id', 'term_id', 'status']).where('id', 'in', slice).execute();
    for (const row of rows) found.set(row.id, { id: row.id, userId: row.user_id, termId: row.term_id, status: row.status });
  }
  return found;
}

/** The people by username (an import names them so). */
export async function findPeopleByUsername(db: Kysely<Database>, usernames: readonly string[]): Promise<Map<string, Person>> {
  const found = new Map<string, Person>();
  for (const slice of slices(usernames)) {
    const rows = await db.selectFrom('sys_user').select(['id', 'username', 'nick_name', 'dept_id']).where('username', 'in', slice).execute();
    for (const row of rows) found.set(row.username, { id: row.id, username: row.username, nickName: row.nick_name, deptId: row.dept_id });
  }
  return found;
}

/** The templates by name, each name with every template bearing it (an import names them so; two of one name are ambiguous). */
export async function findTemplateHeadsByName(db: Kysely<Database>, names: readonly string[]): Promise<Map<string, TemplateHead[]>> {
  const found = new Map<string, TemplateHead[]>();
  for (const slice of slices(names)) {
    const rows = await db.selectFrom('edu_cert_template').selectAll().where('name', 'in', slice).execute();
    for (const row of rows) {
      const head = { id: row.id, name: row.name, numberPattern: row.number_pattern, validityMonths: row.validity_months, currentVersionId: row.current_version_id as number };
      found.set(row.name, [...(found.get(row.name) ?? []), head]);
    }
  }
  return found;
}

/** Those of the numbers some certificate holds. */
export async function findTakenNumbers(db: Kysely<Database>, numbers: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const slice of slices(numbers)) {
    for (const row of await db.selectFrom('edu_certificate').select('number').where('number', 'in', slice).execute()) found.add(row.number);
  }
  return found;
}

export async function findExamFacts(db: Kysely<Database>, examId: number): Promise<{ title: string; counts: string } | undefined> {
  return db.selectFrom('edu_exam').select(['title', 'counts']).where('id', '=', examId).executeTakeFirst();
}

export async function findTermFacts(db: Kysely<Database>, termId: number): Promise<{ courseTitle: string; termName: string } | undefined> {
  return db
    .selectFrom('edu_term as t')
    .innerJoin('edu_course as c', 'c.id', 't.course_id')
    .select(['c.title as courseTitle', 't.name as termName'])
    .where('t.id', '=', termId)
    .executeTakeFirst();
}

export type FinishedAttempt = { id: number; userId: number; startedAt: number; score: number | null };

/** The people's finished attempts of the exam, a score only on graded ones (as the attempts module counts them). */
export async function findFinishedAttempts(db: Kysely<Database>, examId: number, userIds: readonly number[]): Promise<FinishedAttempt[]> {
  const out: FinishedAttempt[] = [];
  for (const slice of slices(userIds)) {
    const rows = await db
      .selectFrom('edu_attempt')
      .select(['id', 'user_id', 'started_at', 'score', 'state'])
      .where('exam_id', '=', examId)
      .where('user_id', 'in', slice)
      .where('state', '!=', 'in_progress')
      .execute();
    for (const row of rows) out.push({ id: row.id, userId: row.user_id, startedAt: row.started_at, score: row.state === 'graded' ? row.score : null });
  }
  return out;
}

// ---- Numbers ------------------------------------------------------------------------------------

/**
 * The next number of the scope's sequence, counted by one statement that inserts or adds 1, so
 * concurrent issues never get the same value: PostgreSQL holds the row's lock until the issuing
 * transaction ends, and SQLite has one writer. A rolled-back issue gives its number back.
 */
export async function nextSequence(db: Kysely<Database>, scope: string): Promise<number> {
  const row = await db
    .insertInto('edu_cert_sequence')
    .values({ scope, value: 1 })
    .onConflict((conflict) => conflict.column('scope').doUpdateSet({ value: sql<number>`edu_cert_sequence.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

export async function numberTaken(db: Kysely<Database>, number: string): Promise<boolean> {
  return (await db.selectFrom('edu_certificate').select('id').where('number', '=', number).executeTakeFirst()) !== undefined;
}

// ---- Certificates -------------------------------------------------------------------------------

export type CertificateValues = {
  templateId: number;
  templateVersionId: number;
  userId: number;
  number: string;
  code: string;
  snapshot: CertificateSnapshot;
  source: CertificateSource;
  examId: number | null;
  termId: number | null;
  issuedAt: number;
  expiresAt: number | null;
  supersedes: number | null;
  /** The rule issuing it, if one is. */
  ruleId?: number | null;
};

export async function insertCertificate(db: Kysely<Database>, values: CertificateValues, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('edu_certificate')
    .values({
      template_id: values.templateId,
      template_version_id: values.templateVersionId,
      user_id: values.userId,
      number: values.number,
      code: values.code,
      snapshot: JSON.stringify(values.snapshot),
      holder_name: values.snapshot.holderName,
      title: values.snapshot.title,
      source: values.source,
      exam_id: values.examId,
      term_id: values.termId,
      issued_at: values.issuedAt,
      expires_at: values.expiresAt,
      revoked_at: null,
      revoked_by: null,
      revoke_reason: null,
      superseded_by: null,
      superseded_at: null,
      supersedes: values.supersedes,
      rule_id: values.ruleId ?? null,
      create_by: by,
      create_time: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export type CertificateFilter = {
  q?: string | undefined;
  templateId?: number | undefined;
  userId?: number | undefined;
  examId?: number | undefined;
  termId?: number | undefined;
  status?: CertificateStatus | undefined;
  ids?: readonly number[] | undefined;
  /** Department ids whose people's certificates are listed; empty: everyone's. */
  scope?: readonly number[] | undefined;
};

const CERTIFICATE_ORDERING: Ordering<(typeof CERTIFICATE_SORT_FIELDS)[number]> = {
  sortable: {
    id: 'c.id',
    number: 'c.number',
    holderName: 'c.holder_name',
    issuedAt: 'c.issued_at',
    expiresAt: 'c.expires_at',
    revokedAt: 'c.revoked_at',
  },
  nullable: ['expiresAt', 'revokedAt'],
  tiebreak: [['c.id', 'desc']],
};

type CertificateTables = Database & { c: Database['edu_certificate'] };

/** The rows whose status at `now` is `status`, in the order certificateStatusAt decides it. */
function statusIs(eb: ExpressionBuilder<CertificateTables, 'c'>, status: CertificateStatus, now: number) {
  const revoked = eb.and([eb('c.revoked_at', 'is not', null), eb('c.revoked_at', '<=', now)]);
  const notRevoked = eb.or([eb('c.revoked_at', 'is', null), eb('c.revoked_at', '>', now)]);
  const superseded = eb.and([eb('c.superseded_at', 'is not', null), eb('c.superseded_at', '<=', now)]);
  const notSuperseded = eb.or([eb('c.superseded_at', 'is', null), eb('c.superseded_at', '>', now)]);
  const expired = eb.and([eb('c.expires_at', 'is not', null), eb('c.expires_at', '<=', now)]);
  const notExpired = eb.or([eb('c.expires_at', 'is', null), eb('c.expires_at', '>', now)]);
  switch (status) {
    case 'revoked':
      return revoked;
    case 'superseded':
      return eb.and([notRevoked, superseded]);
    case 'expired':
      return eb.and([notRevoked, notSuperseded, expired]);
    default:
      return eb.and([notRevoked, notSuperseded, notExpired]);
  }
}

export type CertificateRow = Certificate & { deptId: number | null; templateVersionId: number; snapshot: CertificateSnapshot; issuedAtMs: number };

export async function findCertificates(db: Kysely<Database>, filter: CertificateFilter, now: number, page: PageRequest = {}): Promise<Page<CertificateRow>> {
  let filtered = db.selectFrom('edu_certificate as c').leftJoin('sys_user as u', 'u.id', 'c.user_id');
  if (filter.q) filtered = filtered.where(contains(['c.number', 'c.holder_name', 'u.username'], filter.q));
  if (filter.templateId !== undefined) filtered = filtered.where('c.template_id', '=', filter.templateId);
  if (filter.userId !== undefined) filtered = filtered.where('c.user_id', '=', filter.userId);
  if (filter.examId !== undefined) filtered = filtered.where('c.exam_id', '=', filter.examId);
  if (filter.termId !== undefined) filtered = filtered.where('c.term_id', '=', filter.termId);
  if (filter.ids) filtered = filtered.where('c.id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  const status = filter.status;
  if (status !== undefined) filtered = filtered.where((eb) => statusIs(eb as unknown as ExpressionBuilder<CertificateTables, 'c'>, status, now));
  if (filter.scope && filter.scope.length > 0) filtered = filtered.where('u.dept_id', 'in', filter.scope);
  const { content, totalElements } = await paginate(
    filtered,
    (query) =>
      query
        .innerJoin('edu_cert_template as t', 't.id', 'c.template_id')
        .innerJoin('edu_cert_template_version as v', 'v.id', 'c.template_version_id')
        .selectAll('c')
        .select(['u.username', 'u.dept_id', 't.name as template_name', 'v.version as template_version']),
    CERTIFICATE_ORDERING,
    page,
  );
  return {
    totalElements,
    content: content.map((row) => {
      const snapshot = parseSnapshot(row.snapshot);
      return {
        id: row.id,
        number: row.number,
        code: row.code,
        userId: row.user_id,
        username: row.username,
        deptId: row.dept_id,
        holderName: snapshot.holderName,
        title: snapshot.title,
        score: snapshot.score,
        issuedOn: snapshot.issuedOn,
        expiresOn: snapshot.expiresOn,
        snapshot,
        status: certificateStatusAt({ expiresAt: row.expires_at, revokedAt: row.revoked_at, supersededAt: row.superseded_at }, now),
        source: row.source as CertificateSource,
        templateId: row.template_id,
        templateName: row.template_name,
        templateVersion: row.template_version,
        templateVersionId: row.template_version_id,
        examId: row.exam_id,
        termId: row.term_id,
        issuedAt: formatDateTime(row.issued_at),
        issuedAtMs: row.issued_at,
        expiresAt: time(row.expires_at),
        revokedAt: time(row.revoked_at),
        revokedBy: row.revoked_by,
        revokeReason: row.revoke_reason,
        supersededBy: row.superseded_by,
        supersedes: row.supersedes,
        createBy: row.create_by,
        createTime: formatDateTime(row.create_time),
      };
    }),
  };
}

/** The valid certificates of the template for the exam or term that these people hold, newest first. */
export async function findValidHeld(
  db: Kysely<Database>,
  what: { templateId: number; examId: number | null; termId: number | null; userIds: readonly number[] },
  now: number,
): Promise<{ id: number; userId: number }[]> {
  if (what.userIds.length === 0) return [];
  let query = db
    .selectFrom('edu_certificate as c')
    .select(['c.id', 'c.user_id as userId'])
    .where('c.template_id', '=', what.templateId)
    .where('c.user_id', 'in', what.userIds)
    .where((eb) => statusIs(eb as unknown as ExpressionBuilder<CertificateTables, 'c'>, 'valid', now));
  query = what.examId !== null ? query.where('c.exam_id', '=', what.examId) : query.where('c.term_id', '=', what.termId);
  return query.orderBy('c.id', 'desc').execute();
}

/** Revokes those not revoked yet; answers how many were. */
export async function revokeCertificates(db: Kysely<Database>, ids: readonly number[], reason: string, by: string, now: number): Promise<number> {
  const result = await db
    .updateTable('edu_certificate')
    .set({ revoked_at: now, revoked_by: by, revoke_reason: reason })
    .where('id', 'in', ids)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Marks the certificate superseded by `byId`, unless something superseded it first; answers whether it did. */
export async function supersede(db: Kysely<Database>, id: number, byId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('edu_certificate')
    .set({ superseded_by: byId, superseded_at: now })
    .where('id', '=', id)
    .where('superseded_by', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findMyCertificates(db: Kysely<Database>, userId: number, now: number): Promise<MyCertificate[]> {
  const { content } = await findCertificates(db, { userId }, now, { sort: [{ field: 'issuedAt', direction: 'desc' }] });
  return content.map((row) => ({
    id: row.id,
    number: row.number,
    code: row.code,
    holderName: row.holderName,
    title: row.title,
    score: row.score,
    issuedOn: row.issuedOn,
    expiresOn: row.expiresOn,
    status: row.status,
    issuedAt: row.issuedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    revokeReason: row.revokeReason,
    supersededBy: row.supersededBy,
    examId: row.examId,
    termId: row.termId,
  }));
}

export type VerifiableRow = {
  number: string;
  code: string;
  holderName: string;
  title: string;
  issuedAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  supersededAt: number | null;
};

export async function findByNumber(db: Kysely<Database>, number: string): Promise<VerifiableRow | undefined> {
  const row = await db
    .selectFrom('edu_certificate')
    .select(['number', 'code', 'holder_name', 'title', 'issued_at', 'expires_at', 'revoked_at', 'superseded_at'])
    .where('number', '=', number)
    .executeTakeFirst();
  return (
    row && {
      number: row.number,
      code: row.code,
      holderName: row.holder_name,
      title: row.title,
      issuedAt: row.issued_at,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
      supersededAt: row.superseded_at,
    }
  );
}

// ---- Issuing rules ------------------------------------------------------------------------------

const RULE_ORDERING: Ordering<'id' | 'createTime'> = {
  sortable: { id: 'r.id', createTime: 'r.create_time' },
  tiebreak: [['r.id', 'desc']],
};

export async function findRules(
  db: Kysely<Database>,
  filter: { ids?: readonly number[]; templateId?: number | undefined; examId?: number | undefined; termId?: number | undefined },
  page: PageRequest = {},
): Promise<Page<CertRule>> {
  let filtered = db.selectFrom('edu_cert_rule as r');
  if (filter.ids) filtered = filtered.where('r.id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  if (filter.templateId !== undefined) filtered = filtered.where('r.template_id', '=', filter.templateId);
  if (filter.examId !== undefined) filtered = filtered.where('r.exam_id', '=', filter.examId);
  if (filter.termId !== undefined) filtered = filtered.where('r.term_id', '=', filter.termId);
  const { content, totalElements } = await paginate(
    filtered,
    (query) =>
      query
        .innerJoin('edu_cert_template as t', 't.id', 'r.template_id')
        .leftJoin('edu_exam as e', 'e.id', 'r.exam_id')
        .leftJoin('edu_term as m', 'm.id', 'r.term_id')
        .leftJoin('edu_course as c', 'c.id', 'm.course_id')
        .selectAll('r')
        .select(['t.name as template_name', 'e.title as exam_title', 'm.name as term_name', 'c.title as course_title'])
        .select((eb) => eb.selectFrom('edu_certificate as x').select((count) => count.fn.countAll().as('n')).whereRef('x.rule_id', '=', 'r.id').as('issued_count')),
    RULE_ORDERING,
    page,
  );
  return {
    totalElements,
    content: content.map((row) => ({
      id: row.id,
      templateId: row.template_id,
      templateName: row.template_name,
      examId: row.exam_id,
      termId: row.term_id,
      targetName: row.exam_id !== null ? (row.exam_title ?? '') : `${row.course_title ?? ''} ${row.term_name ?? ''}`.trim(),
      issuedCount: Number(row.issued_count),
      createBy: row.create_by,
      updateBy: row.update_by,
      createTime: formatDateTime(row.create_time),
      updateTime: formatDateTime(row.update_time),
    })),
  };
}

export type RuleHead = { id: number; templateId: number; examId: number | null; termId: number | null };

/** The rules of an exam or of a term. */
export async function findRulesOf(db: Kysely<Database>, target: { examId: number } | { termId: number }): Promise<RuleHead[]> {
  let query = db.selectFrom('edu_cert_rule').select(['id', 'template_id', 'exam_id', 'term_id']);
  query = 'examId' in target ? query.where('exam_id', '=', target.examId) : query.where('term_id', '=', target.termId);
  const rows = await query.orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, templateId: row.template_id, examId: row.exam_id, termId: row.term_id }));
}

export async function insertRule(db: Kysely<Database>, values: { templateId: number; examId: number | null; termId: number | null }, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('edu_cert_rule')
    .values({ ...created(by, now), template_id: values.templateId, exam_id: values.examId, term_id: values.termId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function deleteRules(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('edu_cert_rule').where('id', 'in', ids).execute();
}

/** Those of the people the rule issued a certificate to already. */
export async function findRuleHolders(db: Kysely<Database>, ruleId: number, userIds: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (const slice of slices(userIds)) {
    const rows = await db.selectFrom('edu_certificate').select('user_id').where('rule_id', '=', ruleId).where('user_id', 'in', slice).execute();
    for (const row of rows) found.add(row.user_id);
  }
  return found;
}

/** Those of the people with a graded, passed attempt of the exam. */
export async function findPassers(db: Kysely<Database>, examId: number, userIds?: readonly number[]): Promise<number[]> {
  let query = db.selectFrom('edu_attempt').select('user_id').distinct().where('exam_id', '=', examId).where('state', '=', 'graded').where('passed', '=', 1);
  if (userIds) query = query.where('user_id', 'in', userIds.length > 0 ? userIds : [-1]);
  return (await query.execute()).map((row) => row.user_id);
}

/** Those of the people whose enrolment in the term is completed. */
export async function findCompleters(db: Kysely<Database>, termId: number, userIds?: readonly number[]): Promise<number[]> {
  let query = db.selectFrom('edu_applicant').select('user_id').distinct().where('term_id', '=', termId).where('status', '=', 'completed');
  if (userIds) query = query.where('user_id', 'in', userIds.length > 0 ? userIds : [-1]);
  return (await query.execute()).map((row) => row.user_id);
}
