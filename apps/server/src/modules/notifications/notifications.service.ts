import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Page } from '@cloud-classroom/shared/http';
import {
  CERTIFICATE_EXPIRING_BEFORE_MS,
  DUE_SOON_BEFORE_MS,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationParams,
} from '@cloud-classroom/shared/notification-kinds';
import type {
  Notification,
  NotificationPage,
  NotificationPreferences,
  NotificationPreferencesUpdate,
  NotificationQuery,
} from '@cloud-classroom/shared/notifications';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { JobRunner } from '../../jobs/job-runner.js';
import type { NotificationPush } from './notification-push.js';
import {
  countUnread,
  deleteNotificationsOfPeople,
  findApplicantFacts,
  findAssigneeFacts,
  findAnnounceable,
  findAssigneeFactsById,
  findAttemptFacts,
  findCertificateFacts,
  findExamOpening,
  findNotifications,
  findPreferences,
  findTurnedOff,
  hasSubmitted,
  insertNotifications,
  markRead,
  savePreferences,
  type AssigneeFacts,
  type NotificationRow,
} from './notifications.repo.js';

export type NotificationsOptions = {
  db: Kysely<Database>;
  clock: Clock;
  jobs: JobRunner;
  push: Pick<NotificationPush, 'announce'>;
};

/** What an enrolment went through (applicants module's listener). */
export type EnrolmentChange = 'assigned' | 'approved' | 'rejected' | 'due_changed';

export const DUE_SOON_JOB = 'notifications.dueSoon';
export const EXAM_OPEN_JOB = 'notifications.examOpen';
export const RESULT_RELEASED_JOB = 'notifications.resultReleased';
export const CERTIFICATE_EXPIRING_JOB = 'notifications.certificateExpiring';

type DueSoonPayload = { applicantId?: number; assigneeId?: number; dueAt: number };
/** The exam's own opening, or (with `assigneeId`) one person's window of their own. */
type ExamOpenPayload = { examId: number; openAt: number; assigneeId?: number };
type ResultPayload = { attemptId: number };
type ExpiringPayload = { certificateId: number; expiresAt: number };

type Telling = { userId: number; kind: NotificationKind; params: NotificationParams; link: string | null; dedupeKey: string };

const ENROLLED = ['approved', 'in_progress'];
const courseLink = (courseId: number) => `/learning/${courseId}`;
const examLink = (examId: number) => `/answer-exam?exam=${examId}`;
const certificateLink = (id: number) => `/view-cert?id=${id}`;

/**
 * Tells each person what rows inserted directly hold (the demo seed's enrolments, exam
 * assignments, graded attempts and certificates), as the writers' events would have, with the
 * reminders queued: a fresh install's learners find their notifications waiting. Pushes nothing
 * (nobody is connected yet).
 */
export async function announceExisting(db: Kysely<Database>, now: number): Promise<void> {
  const clock = { now: () => now };
  // Only to queue the reminders in `db`: never started, it runs nothing.
  const jobs = new JobRunner({ db, clock, log: { warn: () => undefined, error: () => undefined } });
  const notifications = new NotificationsService({ db, clock, jobs, push: { announce: async () => undefined } });
  notifications.registerJobs();
  const existing = await findAnnounceable(db, now);
  await notifications.enrolmentsChanged('assigned', existing.assignedIds);
  await notifications.enrolmentsChanged('approved', existing.approvedIds);
  for (const exam of existing.exams) await notifications.examChanged({ examId: exam.examId, userIds: exam.userIds, assigned: true });
  for (const attemptId of existing.attemptIds) await notifications.attemptGraded(attemptId);
  await notifications.certificatesIssued(existing.certificateIds);
}

export function notificationOf(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    params: JSON.parse(row.params) as NotificationParams,
    link: row.link,
    createTime: formatDateTime(row.createTime),
    readTime: row.readTime === null ? null : formatDateTime(row.readTime),
  };
}

/**
 * In-app notifications (issue 15, part 4): the events of other modules, heard through their
 * listeners inside the write's transaction (so a rolled-back write tells no one), become rows of
 * `sys_notification`, each once by its dedupe key, pushed after commit to the person's open
 * sockets (`NotificationPush`). The ones due later (3 days before a due date, an exam's opening,
 * a result released when its window closes, 30 days before a certificate expires) are jobs
 * queued with the change, each checking when it runs that what it tells of still holds. A kind a
 * person turned off writes nothing for them: a preference is a choice not to be told, and a row
 * kept but not pushed would still count in the badge.
 */
export class NotificationsService {
  constructor(private readonly options: NotificationsOptions) {}

  within(db: Kysely<Database>): NotificationsService {
    return db === this.options.db ? this : new NotificationsService({ ...this.options, db });
  }

  registerJobs(): void {
    const { jobs } = this.options;
    jobs.register<DueSoonPayload>(DUE_SOON_JOB, (payload) => this.dueSoon(payload));
    jobs.register<ExamOpenPayload>(EXAM_OPEN_JOB, (payload) => this.examOpens(payload));
    jobs.register<ResultPayload>(RESULT_RELEASED_JOB, ({ attemptId }) => this.attemptGraded(attemptId));
    jobs.register<ExpiringPayload>(CERTIFICATE_EXPIRING_JOB, (payload) => this.certificateExpiring(payload));
  }

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  private now(): number {
    return this.options.clock.now();
  }

  private transaction<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? work(this.db) : this.db.transaction().execute(work);
  }

  // ---- The person's own -------------------------------------------------------------------------

  async list(userId: number, query: NotificationQuery): Promise<NotificationPage> {
    const [page, unreadCount] = await Promise.all([findNotifications(this.db, userId, query), countUnread(this.db, userId)]);
    return { ...mapRows(page), unreadCount };
  }

  /** Marks the person's notifications among `ids` read; ids of anyone else's are passed over. */
  async markRead(userId: number, ids: readonly number[] | 'all'): Promise<{ unreadCount: number }> {
    await markRead(this.db, userId, ids, this.now());
    return { unreadCount: await countUnread(this.db, userId) };
  }

  async preferences(userId: number): Promise<NotificationPreferences> {
    const saved = await findPreferences(this.db, userId);
    return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, saved.get(kind) ?? true])) as NotificationPreferences;
  }

  async savePreferences(userId: number, changes: NotificationPreferencesUpdate): Promise<NotificationPreferences> {
    const entries = Object.entries(changes).flatMap(([kind, enabled]) => (enabled === undefined ? [] : [{ kind, enabled }]));
    await savePreferences(this.db, userId, entries);
    return this.preferences(userId);
  }

  /** People being deleted: their notifications and preferences go with them (inside the deletion's transaction). */
  async forgetPeople(userIds: readonly number[]): Promise<void> {
    await deleteNotificationsOfPeople(this.db, userIds);
  }

  // ---- Telling ----------------------------------------------------------------------------------

  /** Writes what is new (by dedupe key) for those who have the kind on, and announces it for the push after commit. */
  private async tell(items: readonly Telling[]): Promise<number> {
    if (items.length === 0) return 0;
    const rows: Telling[] = [];
    for (const kind of new Set(items.map((item) => item.kind))) {
      const ofKind = items.filter((item) => item.kind === kind);
      const off = await findTurnedOff(this.db, [...new Set(ofKind.map((item) => item.userId))], kind);
      rows.push(...ofKind.filter((item) => !off.has(item.userId)));
    }
    const inserted = await insertNotifications(
      this.db,
      rows.map((row) => ({ userId: row.userId, kind: row.kind, params: JSON.stringify(row.params), link: row.link, dedupeKey: row.dedupeKey })),
      this.now(),
    );
    await this.options.push.announce(this.db, inserted);
    return inserted.length;
  }

  /** Queues a job for later, in the write's transaction; keyed by what it is for and when, so a changed date queues anew. */
  private async later(name: string, payload: object, runAt: number, dedupeKey: string): Promise<void> {
    await this.options.jobs.enqueue(name, payload, { runAt: Math.max(runAt, this.now()), dedupeKey, db: this.db });
  }

  // ---- Enrolment --------------------------------------------------------------------------------

  /**
   * Enrolments assigned by staff, an import or a rule (course assigned), approved, rejected, or
   * given a new due date: tells the person, and queues the reminder 3 days before a due date.
   */
  async enrolmentsChanged(change: EnrolmentChange, applicantIds: readonly number[]): Promise<void> {
    const facts = await findApplicantFacts(this.db, applicantIds);
    const now = this.now();
    const kind: NotificationKind | undefined =
      change === 'assigned' ? 'course_assigned' : change === 'approved' ? 'enrolment_approved' : change === 'rejected' ? 'enrolment_rejected' : undefined;
    if (kind !== undefined) {
      await this.tell(
        facts.map((applicant) => ({
          userId: applicant.userId,
          kind,
          params: { title: applicant.courseTitle },
          link: kind === 'enrolment_rejected' ? `/preview/${applicant.courseId}` : courseLink(applicant.courseId),
          // An assignment is told once per enrolment; an approval or a rejection each time it happens (one can apply again).
          dedupeKey: kind === 'course_assigned' ? `course_assigned:applicant:${applicant.id}` : `${kind}:applicant:${applicant.id}:${now}`,
        })),
      );
    }
    for (const applicant of facts) {
      if (applicant.dueAt === null || applicant.dueAt <= now || !ENROLLED.includes(applicant.status)) continue;
      await this.later(DUE_SOON_JOB, { applicantId: applicant.id, dueAt: applicant.dueAt } satisfies DueSoonPayload, applicant.dueAt - DUE_SOON_BEFORE_MS, `${DUE_SOON_JOB}:applicant:${applicant.id}:${applicant.dueAt}`);
    }
  }

  /** The job 3 days before a due date: told if the enrolment or assignment is still open with that due date. */
  async dueSoon({ applicantId, assigneeId, dueAt }: DueSoonPayload): Promise<void> {
    await this.transaction(async (trx) => {
      const now = this.now();
      if (dueAt <= now) return;
      const at = formatDateTime(dueAt);
      if (applicantId !== undefined) {
        const [applicant] = await findApplicantFacts(trx, [applicantId]);
        if (applicant === undefined || applicant.dueAt !== dueAt || !ENROLLED.includes(applicant.status)) return;
        await this.within(trx).tell([
          { userId: applicant.userId, kind: 'due_soon', params: { title: applicant.courseTitle, at }, link: courseLink(applicant.courseId), dedupeKey: `due_soon:applicant:${applicant.id}:${dueAt}` },
        ]);
      } else if (assigneeId !== undefined) {
        const assignee = await findAssigneeFactsById(trx, assigneeId);
        if (assignee === undefined || assignee.dueAt !== dueAt || assignee.examStatus !== 'published' || (await hasSubmitted(trx, assignee.examId, assignee.userId))) return;
        await this.within(trx).tell([
          { userId: assignee.userId, kind: 'due_soon', params: { title: assignee.examTitle, at }, link: examLink(assignee.examId), dedupeKey: `due_soon:assignee:${assignee.id}:${dueAt}` },
        ]);
      }
    });
  }

  // ---- Exams ------------------------------------------------------------------------------------

  /**
   * People newly assigned the exam are told, once it is published (learners see no drafts): an
   * exam saved tells its assignees not told yet, so publishing tells those assigned before.
   * Their due-date reminders are queued, and those of people whose terms were overridden; the
   * exam's opening is queued whenever it changed.
   */
  async examChanged({ examId, userIds, assigned }: { examId: number; userIds: readonly number[]; assigned: boolean }): Promise<void> {
    const saved = userIds.length === 0;
    const assignees = await findAssigneeFacts(this.db, examId, saved ? undefined : userIds);
    if (assigned || saved) {
      await this.tell(
        assignees
          .filter((assignee) => assignee.examStatus === 'published')
          .map((assignee) => ({
            userId: assignee.userId,
            kind: 'exam_assigned' as const,
            params: { title: assignee.examTitle },
            link: examLink(examId),
            dedupeKey: `exam_assigned:assignee:${assignee.id}`,
          })),
      );
    }
    const now = this.now();
    for (const assignee of assignees) {
      // A window of their own opens for them alone; the job checks the exam is published by then.
      if (assignee.ownOpenAt !== null && assignee.ownOpenAt > now) {
        const payload: ExamOpenPayload = { examId, openAt: assignee.ownOpenAt, assigneeId: assignee.id };
        await this.later(EXAM_OPEN_JOB, payload, assignee.ownOpenAt, `${EXAM_OPEN_JOB}:assignee:${assignee.id}:${assignee.ownOpenAt}`);
      }
      if (saved || assignee.dueAt === null || assignee.dueAt <= now) continue;
      await this.later(DUE_SOON_JOB, { assigneeId: assignee.id, dueAt: assignee.dueAt } satisfies DueSoonPayload, assignee.dueAt - DUE_SOON_BEFORE_MS, `${DUE_SOON_JOB}:assignee:${assignee.id}:${assignee.dueAt}`);
    }
    if (saved || assigned) await this.examSaved(examId);
  }

  /** An exam made or changed: its opening, if ahead, is queued (again, for a new time). */
  private async examSaved(examId: number): Promise<void> {
    const exam = await findExamOpening(this.db, examId);
    if (exam?.openAt === null || exam === undefined || exam.openAt <= this.now()) return;
    await this.later(EXAM_OPEN_JOB, { examId, openAt: exam.openAt } satisfies ExamOpenPayload, exam.openAt, `${EXAM_OPEN_JOB}:${examId}:${exam.openAt}`);
  }

  /**
   * The job at an exam's opening: tells its assignees without a window of their own, if it is
   * published and still opens then; at a personal window's opening, that person, if the window
   * still opens then and the exam is published.
   */
  async examOpens({ examId, openAt, assigneeId }: ExamOpenPayload): Promise<void> {
    await this.transaction(async (trx) => {
      let assignees: AssigneeFacts[];
      if (assigneeId === undefined) {
        const exam = await findExamOpening(trx, examId);
        if (exam === undefined || exam.openAt !== openAt || exam.status !== 'published') return;
        assignees = (await findAssigneeFacts(trx, examId)).filter((assignee) => assignee.ownOpenAt === null);
      } else {
        const assignee = await findAssigneeFactsById(trx, assigneeId);
        if (assignee === undefined || assignee.ownOpenAt !== openAt || assignee.examStatus !== 'published') return;
        assignees = [assignee];
      }
      await this.within(trx).tell(
        assignees.map((assignee) => ({
          userId: assignee.userId,
          kind: 'exam_open',
          params: { title: assignee.examTitle },
          link: examLink(examId),
          dedupeKey: `exam_open:assignee:${assignee.id}:${openAt}`,
        })),
      );
    });
  }

  /**
   * An attempt graded (on submission, by a marker): its result is released now, or, when the
   * exam's review waits for the window to close, at the close (a job, which comes back here).
   */
  async attemptGraded(attemptId: number): Promise<void> {
    const attempt = await findAttemptFacts(this.db, attemptId);
    if (attempt?.state !== 'graded') return;
    const releaseAt = attempt.review === 'after_close' && attempt.closeAt !== null ? attempt.closeAt : this.now();
    if (releaseAt > this.now()) {
      await this.later(RESULT_RELEASED_JOB, { attemptId } satisfies ResultPayload, releaseAt, `${RESULT_RELEASED_JOB}:${attemptId}`);
      return;
    }
    await this.tell([
      { userId: attempt.userId, kind: 'result_released', params: { title: attempt.examTitle }, link: examLink(attempt.examId), dedupeKey: `result_released:attempt:${attemptId}` },
    ]);
  }

  // ---- Certificates -----------------------------------------------------------------------------

  /** Certificates issued: their holders told, and each one's expiry reminder queued. */
  async certificatesIssued(ids: readonly number[]): Promise<void> {
    const certificates = await findCertificateFacts(this.db, ids);
    await this.tell(
      certificates.map((certificate) => ({
        userId: certificate.userId,
        kind: 'certificate_issued',
        params: { title: certificate.title },
        link: certificateLink(certificate.id),
        dedupeKey: `certificate_issued:certificate:${certificate.id}`,
      })),
    );
    const now = this.now();
    for (const certificate of certificates) {
      if (certificate.expiresAt === null || certificate.expiresAt <= now) continue;
      await this.later(
        CERTIFICATE_EXPIRING_JOB,
        { certificateId: certificate.id, expiresAt: certificate.expiresAt } satisfies ExpiringPayload,
        certificate.expiresAt - CERTIFICATE_EXPIRING_BEFORE_MS,
        `${CERTIFICATE_EXPIRING_JOB}:${certificate.id}`,
      );
    }
  }

  /** The job 30 days before expiry: told if the certificate still stands (not revoked, not re-issued) and still expires then. */
  async certificateExpiring({ certificateId, expiresAt }: ExpiringPayload): Promise<void> {
    await this.transaction(async (trx) => {
      const [certificate] = await findCertificateFacts(trx, [certificateId]);
      if (certificate === undefined || certificate.expiresAt !== expiresAt || certificate.revokedAt !== null || certificate.supersededBy !== null || expiresAt <= this.now()) return;
      await this.within(trx).tell([
        {
          userId: certificate.userId,
          kind: 'certificate_expiring',
          // The expiry moment is the start of the day after the printed date: the printed date is the day before.
          params: { title: certificate.title, at: formatDateTime(expiresAt - 1, '{y}-{m}-{d}') },
          link: certificateLink(certificate.id),
          dedupeKey: `certificate_expiring:certificate:${certificate.id}`,
        },
      ]);
    });
  }
}

function mapRows(page: Page<NotificationRow>): Page<Notification> {
  return { content: page.content.map(notificationOf), totalElements: page.totalElements };
}
