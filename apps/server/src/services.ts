import path from 'node:path';
import { checkPermission } from '@cloud-classroom/shared/permission';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { AppDatabase } from './db/database.js';
import { JobRunner } from './jobs/job-runner.js';
import { AccessService } from './modules/access/access.service.js';
import { AttemptsService } from './modules/attempts/attempts.service.js';
import { ApplicantsService } from './modules/applicants/applicants.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { CensusService } from './modules/census/census.service.js';
import { CloudStorageService } from './modules/cloud-storage/cloud-storage.service.js';
import { CertificatesService } from './modules/certificates/certificates.service.js';
import type { FileStore } from './files/file-store.js';
import { createFileStore } from './files/create-file-store.js';
import { ORPHAN_MIN_AGE_MS, removeOrphanFiles } from './files/orphan-files.js';
import { SessionService } from './modules/auth/session.service.js';
import { CoursesService } from './modules/courses/courses.service.js';
import { DatabaseService } from './modules/database/database.service.js';
import { DashboardService } from './modules/dashboard/dashboard.service.js';
import { DeployService } from './modules/deploy/deploy.service.js';
import { DeptService } from './modules/depts/depts.service.js';
import { ExamsService, type AttemptTally } from './modules/exams/exams.service.js';
import { ExamReportsService } from './modules/attempts/exam-report.service.js';
import { MarkingService } from './modules/attempts/marking.service.js';
import { MediaService } from './modules/media/media.service.js';
import { NotificationPush } from './modules/notifications/notification-push.js';
import { NotificationsService, notificationOf } from './modules/notifications/notifications.service.js';
import { ProgressService } from './modules/progress/progress.service.js';
import { QuestionsService } from './modules/questions/questions.service.js';
import type { MediaUsage } from './modules/media/media-usage.js';
import { RoleService } from './modules/roles/roles.service.js';
import { StorageService } from './modules/storage/storage.service.js';
import { UserService } from './modules/users/users.service.js';
import { SessionSockets } from './modules/websocket/websocket.service.js';
import { consoleLog, type ServiceLog } from './service-log.js';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** The app's services that other modules call too, built once and handed to each module's routes. */
export type Services = {
  config: Config;
  database: AppDatabase;
  /** Where every service takes the time from (a settable one in tests). */
  clock: Clock;
  /** Modules register their job handlers on it; main.ts starts it, closing the app stops it. */
  jobs: JobRunner;
  sessions: SessionService;
  access: AccessService;
  depts: DeptService;
  roles: RoleService;
  users: UserService;
  auth: AuthService;
  /** Where uploaded files live (local storage, avatars, media): folders under DATA_DIR, or the `STORAGE=s3` bucket. */
  files: FileStore;
  storage: StorageService;
  /** 云存储: the S3-compatible bucket of `/api/qiNiuContent`. */
  cloudStorage: CloudStorageService;
  media: MediaService;
  /** Installation media: the packages on the public `/download` page. */
  deploy: DeployService;
  /** The course catalogue; it also answers the media library's questions about a file's use. */
  courses: CoursesService;
  /** Enrolment: applicants and assignment rules; the progress module reports study through `recordProgress`. */
  applicants: ApplicantsService;
  /** The learner's courses, lessons, study time and trusted progress. */
  progress: ProgressService;
  /** The question bank; the exams draw from it (`matchingIds`) and read their papers' questions (`contentsOf`). */
  questions: QuestionsService;
  /** Exam design (papers drawn from the question bank), assignment and the learner's exam list. */
  exams: ExamsService;
  /** Taking exams: attempts, autosaved answers (group commit), submission and grading, the integrity timeline. */
  attempts: AttemptsService;
  /** Marking, overrides and regrades of submitted attempts. */
  marking: MarkingService;
  /** The exams' reports. */
  examReports: ExamReportsService;
  /** The back office home's training figures, within the caller's data scope. */
  dashboard: DashboardService;
  /** Certificate templates, issued certificates, their PDFs and the public check. */
  certificates: CertificatesService;
  /** People statistics: the census list and records, and the summary the writers keep through it. */
  census: CensusService;
  /** The open `/websocket` sockets of this process, by session and by person. */
  sockets: SessionSockets;
  /** In-app notifications: told on other modules' events, pushed to the sockets of any process. */
  notifications: NotificationsService;
  /** Gets notifications to sockets after commit (LISTEN on PostgreSQL); started and closed with the app. */
  notificationPush: NotificationPush;
  /** Backups of the running database (made now or on a schedule, uploaded for the offline restore). */
  backups: DatabaseService;
};

export async function createServices(
  config: Config,
  database: AppDatabase,
  { clock = systemClock, log = consoleLog }: { clock?: Clock | undefined; log?: ServiceLog } = {},
): Promise<Services> {
  const { db } = database;
  const files = createFileStore(config);
  const jobs = new JobRunner({ db, clock, log, leaseMs: config.jobLeaseMs });
  const sessions = await SessionService.create(database, clock);
  const access = new AccessService(db);
  const depts = new DeptService(db, access, clock);
  const roles = new RoleService(db, access, depts, clock);
  const users = new UserService({ db, sessions, files, access, roles, depts, clock });
  const census = new CensusService({ db, clock, access, timeZone: config.timeZone });
  const auth = new AuthService({ db, sessions, users, access, captchaEnabled: config.captchaEnabled, clock, onLogin: (userId, client) => census.loggedIn(userId, client) });
  const storage = new StorageService({ db, files, quotaBytes: config.uploadQuotaBytes, log, clock });
  const deploy = new DeployService({ db, files, clock, log });
  const cloudStorage = new CloudStorageService({ db, clock, log, secretKey: config.storageSecretKey, spoolDir: path.join(config.dataDir, 'cloud-spool') });
  const media = new MediaService({ db, files, clock, log, access, usage: (): MediaUsage => courses.mediaUsage });
  const courses = new CoursesService({ db, media, clock });
  const applicants = new ApplicantsService({ db, clock, jobs, access });
  applicants.registerJobs();
  // People who join a department or get a role are enrolled by the assignment rules covering them.
  users.onMembershipChange((userIds) => applicants.membershipChanged(userIds));
  const progress = new ProgressService({
    db,
    clock,
    timeZone: config.timeZone,
    courses,
    // Inside the report's transaction, so the enrolment moves (in progress, completed) with the progress.
    onCourseProgress: (userId, courseId, courseProgress, trx) => applicants.within(trx).recordProgress(userId, courseId, courseProgress),
    // The census counts the course's completed lessons again, in the same transaction.
    onLessonCompleted: (userId, courseId, trx) => census.within(trx).lessonCompleted(userId, courseId),
  });
  // Every enrolment written (made, moved, deleted) recounts its person's census row of the course, in the write's transaction.
  applicants.onWritten((enrolments, trx) => census.within(trx).enrolmentsChanged(enrolments));
  users.onRemoval((userIds, trx) => census.within(trx).forgetPeople(userIds));
  courses.onOutlineChanged((courseIds, trx) => census.within(trx).coursesChanged(courseIds));
  // A person deleted takes their enrolments (and seats) and their study records along.
  users.onRemoval((userIds, trx) => applicants.within(trx).forgetPeople(userIds));
  users.onRemoval((userIds, trx) => progress.within(trx).forgetPeople(userIds));
  const questions = new QuestionsService({
    db,
    clock,
    files,
    mayListQuestions: async (userId) => checkPermission(await access.permissionsOf(userId), ['question:list']),
  });
  // The learner's exam list counts attempts through the attempts module, built after this one.
  const exams: ExamsService = new ExamsService({ db, clock, jobs, access, questions, attempts: (): AttemptTally => (userId, examIds) => attempts.tally(userId, examIds) });
  exams.registerJobs();
  const attempts: AttemptsService = new AttemptsService({ db, clock, jobs, exams, questions });
  attempts.registerJobs();
  // People who join a department, get a role or are enrolled in a term get the exams whose rules cover them.
  users.onMembershipChange((userIds) => exams.peopleChanged(userIds));
  applicants.onEnrolled((userIds, trx) => exams.peopleChanged(userIds, trx));
  users.onRemoval((userIds, trx) => exams.within(trx).forgetPeople(userIds));
  const marking = new MarkingService({ db, clock, jobs, access, questions });
  marking.registerJobs();
  // A key fixed after people sat the exam rescores their answers (a job, queued with the fix).
  questions.onKeyChanged((questionIds, by, trx) => marking.queueRegrade(questionIds, by, trx));
  const examReports = new ExamReportsService({ db, access, questions });
  const dashboard = new DashboardService({ db, clock, access, timeZone: config.timeZone });
  const certificates = new CertificatesService({ db, clock, files, access, jobs, timeZone: config.timeZone, publicUrl: config.publicUrl });
  certificates.registerJobs();
  // Passing an exam or completing a term queues the certificates its rules issue (a job, in the grading's or completion's transaction).
  attempts.onPassed((examId, userIds, trx) => certificates.within(trx).examPassed(examId, userIds));
  marking.onPassed((examId, userIds, trx) => certificates.within(trx).examPassed(examId, userIds));
  applicants.onCompleted((termId, userIds, trx) => certificates.within(trx).termCompleted(termId, userIds));
  const sockets = new SessionSockets(config.sockets);
  const notificationPush = new NotificationPush({ database, sockets, log, toWire: notificationOf });
  const notifications = new NotificationsService({ db, clock, jobs, push: notificationPush });
  notifications.registerJobs();
  // What staff, rules and graders do tells the people concerned, inside the write's transaction.
  applicants.onEnrolmentChanged((change, applicantIds, trx) => notifications.within(trx).enrolmentsChanged(change, applicantIds));
  exams.onAssigneesChanged((change, trx) => notifications.within(trx).examChanged(change));
  attempts.onGraded((attemptId, trx) => notifications.within(trx).attemptGraded(attemptId));
  marking.onGraded((attemptId, trx) => notifications.within(trx).attemptGraded(attemptId));
  certificates.onIssued((certificateIds, trx) => notifications.within(trx).certificatesIssued(certificateIds));
  users.onRemoval((userIds, trx) => notifications.within(trx).forgetPeople(userIds));
  const backups = new DatabaseService({ db, database, dataDir: config.dataDir, clock, jobs, timeZone: config.timeZone, log });
  backups.registerJobs();
  return { backups, config, database, clock, jobs, sessions, access, depts, roles, users, auth, files, storage, cloudStorage, media, deploy, courses, applicants, progress, questions, exams, attempts, marking, examReports, dashboard, certificates, census, sockets, notifications, notificationPush };
}

/**
 * Run at start: removes the files that uploads killed mid-way left with no row (see
 * ORPHAN_MIN_AGE_MS for why only old ones). Answers how many went.
 */
export async function removeLeftoverFiles({ files, storage, users, media, deploy, questions, certificates, clock, backups }: Services): Promise<number> {
  await backups.removeUnfinished();
  return removeOrphanFiles(files, [storage.storedFiles, users.avatarFiles, media.mediaFiles, questions.imageFiles, certificates.backgroundFiles, deploy.packageFiles], clock.now() - ORPHAN_MIN_AGE_MS);
}
