import type { Page } from '@cloud-classroom/shared/http';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

// The only SQL of the notifications: their rows and preferences, and what the events' checks read
// of the things told about (enrolments, assignments, attempts, certificates), which only ever
// reads those tables.

export type NotificationRow = {
  id: number;
  userId: number;
  kind: string;
  params: string;
  link: string | null;
  createTime: number;
  readTime: number | null;
};

export type NewNotification = { userId: number; kind: string; params: string; link: string | null; dedupeKey: string };

// A rule reaches thousands of people at once; one statement's parameters are limited (SQLite's to 32766).
const SLICE = 500;

async function inSlices<T, R>(items: readonly T[], work: (slice: readonly T[]) => Promise<R[]>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += SLICE) results.push(...(await work(items.slice(start, start + SLICE))));
  return results;
}

const columns = ['id', 'user_id as userId', 'kind', 'params', 'link', 'create_time as createTime', 'read_time as readTime'] as const;

/** Inserts the notifications whose dedupe key is new; answers those inserted (a key held already is skipped). */
export async function insertNotifications(db: Kysely<Database>, rows: readonly NewNotification[], now: number): Promise<{ id: number; userId: number }[]> {
  return inSlices(rows, (slice) =>
    db
      .insertInto('sys_notification')
      .values(slice.map((row) => ({ user_id: row.userId, kind: row.kind, params: row.params, link: row.link, dedupe_key: row.dedupeKey, create_time: now, read_time: null })))
      .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
      .returning(['id', 'user_id as userId'])
      .execute(),
  );
}

/** The person's notifications, unread first, newest first within each. */
export async function findNotifications(db: Kysely<Database>, userId: number, { page, size, unread }: { page: number; size: number; unread: boolean }): Promise<Page<NotificationRow>> {
  let filtered = db.selectFrom('sys_notification').where('user_id', '=', userId);
  if (unread) filtered = filtered.where('read_time', 'is', null);
  const [content, count] = await Promise.all([
    filtered
      .select(columns)
      .orderBy(sql`case when read_time is null then 0 else 1 end`)
      .orderBy('id', 'desc')
      .limit(size)
      .offset(page * size)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { content, totalElements: Number(count.count) };
}

export async function findNotificationsByIds(db: Kysely<Database>, ids: readonly number[]): Promise<NotificationRow[]> {
  return inSlices(ids, (slice) => db.selectFrom('sys_notification').select(columns).where('id', 'in', slice).execute());
}

export async function countUnread(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('sys_notification')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('read_time', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Marks the person's own unread notifications among `ids` read (anyone else's stay as they are). */
export async function markRead(db: Kysely<Database>, userId: number, ids: readonly number[] | 'all', now: number): Promise<void> {
  let query = db.updateTable('sys_notification').set({ read_time: now }).where('user_id', '=', userId).where('read_time', 'is', null);
  if (ids !== 'all') query = query.where('id', 'in', ids);
  await query.execute();
}

export async function deleteNotificationsOfPeople(db: Kysely<Database>, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.deleteFrom('sys_notification').where('user_id', 'in', userIds).execute();
  await db.deleteFrom('sys_notification_pref').where('user_id', 'in', userIds).execute();
}

// ---- Preferences ------------------------------------------------------------------------------

export async function findPreferences(db: Kysely<Database>, userId: number): Promise<Map<string, boolean>> {
  const rows = await db.selectFrom('sys_notification_pref').select(['kind', 'enabled']).where('user_id', '=', userId).execute();
  return new Map(rows.map((row) => [row.kind, row.enabled === 1]));
}

/** Among the people, those who turned the kind off. */
export async function findTurnedOff(db: Kysely<Database>, userIds: readonly number[], kind: string): Promise<Set<number>> {
  const rows = await inSlices(userIds, (slice) =>
    db.selectFrom('sys_notification_pref').select('user_id').where('kind', '=', kind).where('enabled', '=', 0).where('user_id', 'in', slice).execute(),
  );
  return new Set(rows.map((row) => row.user_id));
}

export async function savePreferences(db: Kysely<Database>, userId: number, changes: readonly { kind: string; enabled: boolean }[]): Promise<void> {
  if (changes.length === 0) return;
  await db
    .insertInto('sys_notification_pref')
    .values(changes.map((change) => ({ user_id: userId, kind: change.kind, enabled: change.enabled ? 1 : 0 })))
    .onConflict((conflict) => conflict.columns(['user_id', 'kind']).doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled') })))
    .execute();
}

// ---- What the events tell about ---------------------------------------------------------------

export type ApplicantFacts = { id: number; userId: number; status: string; dueAt: number | null; courseId: number; courseTitle: string };

export async function findApplicantFacts(db: Kysely<Database>, ids: readonly number[]): Promise<ApplicantFacts[]> {
  return inSlices(ids, (slice) =>
    db
      .selectFrom('edu_applicant as a')
      .innerJoin('edu_term as t', 't.id', 'a.term_id')
      .innerJoin('edu_course as c', 'c.id', 't.course_id')
      .select(['a.id', 'a.user_id as userId', 'a.status', 'a.due_at as dueAt', 'c.id as courseId', 'c.title as courseTitle'])
      .where('a.id', 'in', slice)
      .execute(),
  );
}

export type AssigneeFacts = {
  id: number;
  userId: number;
  examId: number;
  dueAt: number | null;
  ownOpenAt: number | null;
  examTitle: string;
  examStatus: string;
  openAt: number | null;
};

const assigneeFacts = (db: Kysely<Database>) =>
  db
    .selectFrom('edu_exam_assignee as a')
    .innerJoin('edu_exam as e', 'e.id', 'a.exam_id')
    .select(['a.id', 'a.user_id as userId', 'a.exam_id as examId', 'a.due_at as dueAt', 'a.open_at as ownOpenAt', 'e.title as examTitle', 'e.status as examStatus', 'e.open_at as openAt']);

export async function findAssigneeFacts(db: Kysely<Database>, examId: number, userIds?: readonly number[]): Promise<AssigneeFacts[]> {
  const ofExam = assigneeFacts(db).where('a.exam_id', '=', examId);
  if (userIds === undefined) return ofExam.execute();
  return inSlices(userIds, (slice) => ofExam.where('a.user_id', 'in', slice).execute());
}

export async function findAssigneeFactsById(db: Kysely<Database>, id: number): Promise<AssigneeFacts | undefined> {
  return assigneeFacts(db).where('a.id', '=', id).executeTakeFirst();
}

/** Whether the person has submitted an attempt of the exam (a due date met). */
export async function hasSubmitted(db: Kysely<Database>, examId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('edu_attempt')
    .select('id')
    .where('exam_id', '=', examId)
    .where('user_id', '=', userId)
    .where('submitted_at', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findExamOpening(db: Kysely<Database>, examId: number): Promise<{ title: string; status: string; openAt: number | null } | undefined> {
  return db.selectFrom('edu_exam').select(['title', 'status', 'open_at as openAt']).where('id', '=', examId).executeTakeFirst();
}

export type AttemptFacts = { id: number; userId: number; examId: number; state: string; submittedAt: number | null; examTitle: string; review: string; closeAt: number | null };

/** An attempt with its exam's review policy and the window's close that applies to its person. */
export async function findAttemptFacts(db: Kysely<Database>, attemptId: number): Promise<AttemptFacts | undefined> {
  return db
    .selectFrom('edu_attempt as t')
    .innerJoin('edu_exam as e', 'e.id', 't.exam_id')
    .leftJoin('edu_exam_assignee as a', (join) => join.onRef('a.exam_id', '=', 't.exam_id').onRef('a.user_id', '=', 't.user_id'))
    .select((eb) => [
      't.id',
      't.user_id as userId',
      't.exam_id as examId',
      't.state',
      't.submitted_at as submittedAt',
      'e.title as examTitle',
      'e.review',
      eb.fn.coalesce('a.close_at', 'e.close_at').as('closeAt'),
    ])
    .where('t.id', '=', attemptId)
    .executeTakeFirst();
}

export type CertificateFacts = { id: number; userId: number; title: string; expiresAt: number | null; revokedAt: number | null; supersededBy: number | null };

export async function findCertificateFacts(db: Kysely<Database>, ids: readonly number[]): Promise<CertificateFacts[]> {
  return inSlices(ids, (slice) =>
    db
      .selectFrom('edu_certificate')
      .select(['id', 'user_id as userId', 'title', 'expires_at as expiresAt', 'revoked_at as revokedAt', 'superseded_by as supersededBy'])
      .where('id', 'in', slice)
      .execute(),
  );
}

/** `select pg_notify(…)` inside the caller's transaction: PostgreSQL delivers it on commit, and never on a rollback. */
/** What rows inserted directly (the demo seed's) hold that their people would have been told of. */
export async function findAnnounceable(db: Kysely<Database>, now: number) {
  const applicants = await db.selectFrom('edu_applicant').select(['id', 'source']).where('status', 'in', ['approved', 'in_progress', 'completed']).orderBy('id').execute();
  const assignees = await db.selectFrom('edu_exam_assignee').select(['exam_id as examId', 'user_id as userId']).orderBy('id').execute();
  const attempts = await db.selectFrom('edu_attempt').select('id').where('state', '=', 'graded').orderBy('id').execute();
  const certificates = await db
    .selectFrom('edu_certificate')
    .select('id')
    .where('revoked_at', 'is', null)
    .where('superseded_by', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id')
    .execute();
  const exams = new Map<number, number[]>();
  for (const { examId, userId } of assignees) exams.set(examId, [...(exams.get(examId) ?? []), userId]);
  return {
    /** Enrolments staff, a rule or an import made (assigned), and those asked for and approved. */
    assignedIds: applicants.filter((row) => row.source !== 'self').map((row) => row.id),
    approvedIds: applicants.filter((row) => row.source === 'self').map((row) => row.id),
    exams: [...exams].map(([examId, userIds]) => ({ examId, userIds })),
    attemptIds: attempts.map((row) => row.id),
    certificateIds: certificates.map((row) => row.id),
  };
}
