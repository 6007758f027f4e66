import { formatDateTime } from '@cloud-classroom/shared/display';
import type {
  CourseProgress,
  LessonProgress,
  MyCourse,
  MyEnrolment,
  MyStudy,
  ProgressReport,
  ProgressResult,
  SiteCourseDetail,
  SiteLesson,
} from '@cloud-classroom/shared/progress';
import {
  acceptCoverage,
  allowedSeconds,
  coveredSeconds,
  furthestFromStart,
  MAX_STUDY_SECONDS_PER_REPORT,
  PAGE_DWELL_SECONDS,
  percentOf,
  startingTolerance,
} from '@cloud-classroom/shared/progress-rules';
import { addDays, dayInZone, mondayOf } from '@cloud-classroom/shared/calendar-day';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { forbidden, invalidInput, notFound } from '../../domain-error.js';
import type { CoursesService } from '../courses/courses.service.js';
import {
  addStudySeconds,
  findChapters,
  findCourseCompletion,
  findLastReportAt,
  findLessonOrder,
  findMyEnrolments,
  findOutlineLessons,
  findPlayback,
  findProgress,
  findProgressOfCourses,
  findReportedLesson,
  findStudyDays,
  findStudyLesson,
  findTermsOfCourse,
  insertBlankProgress,
  startPlayback,
  updatePlayback,
  updateProgress,
  type EnrolmentRow,
  type OutlineLessonRow,
  type ProgressRow,
  type ReportedLessonRow,
  deleteStudyOfPeople,
} from './progress.repo.js';

/**
 * Told when a report studied a course the learner is enrolled in, with whether the course is now
 * complete; it runs inside the report's transaction, `db` being that transaction (a service
 * answers it through `within(db)`), so the enrolment and the progress change together.
 */
export type CourseProgressListener = (userId: number, courseId: number, progress: { completed: boolean }, db: Kysely<Database>) => Promise<void>;

/**
 * Told when a report completed a lesson of a course the learner is enrolled in, inside the
 * report's transaction (the census counts the course's completed lessons).
 */
export type LessonCompletedListener = (userId: number, courseId: number, db: Kysely<Database>) => Promise<void>;

export type ProgressOptions = {
  db: Kysely<Database>;
  clock: Clock;
  /** The organisation's zone (config `TZ`): study time is counted in its calendar days. */
  timeZone: string;
  /** The catalogue answers the course itself. */
  courses: CoursesService;
  onCourseProgress: CourseProgressListener;
  onLessonCompleted?: LessonCompletedListener;
};

/** A page counts once it has been on screen this long, less timer jitter between two reports. */
const DWELL_MS = PAGE_DWELL_SECONDS * 1000 - 250;

/**
 * The learner's side of the catalogue (DESIGN §7, §10): a course with my enrolment and progress,
 * my courses and study time, the lessons I may study, and the progress reports their player sends,
 * trusted only as far as the wall clock allows (`shared/progress-rules.ts`). Who "I" am is always
 * the session's user, passed in by the route.
 */
export class ProgressService {
  constructor(private readonly options: ProgressOptions) {}

  /** The same service on a transaction's handle, for a caller inside one (a deletion of people). */
  within(db: Kysely<Database>): ProgressService {
    return db === this.options.db ? this : new ProgressService({ ...this.options, db });
  }

  /** People being deleted: their progress and study time go with them. */
  async forgetPeople(userIds: readonly number[]): Promise<void> {
    await deleteStudyOfPeople(this.db, userIds);
  }

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  /** A published course with its outline and my progress in it, its terms with their seats, and my enrolment. */
  async courseDetail(userId: number, courseId: number): Promise<SiteCourseDetail> {
    const course = await this.options.courses.course(courseId);
    if (course.status !== 'published') throw notFound(`id: no course ${courseId}`);
    const [chapters, lessons, terms, [enrolment], progress] = await Promise.all([
      findChapters(this.db, courseId),
      findOutlineLessons(this.db, [courseId]).then((byCourse) => byCourse.get(courseId) ?? []),
      findTermsOfCourse(this.db, courseId),
      findMyEnrolments(this.db, userId, courseId),
      findProgressOfCourses(this.db, userId, [courseId]),
    ]);
    const mine = new Map(progress.map((row) => [row.lesson_id, row]));
    return {
      ...course,
      outline: chapters.map((chapter) => ({
        id: chapter.id,
        title: chapter.title,
        lessons: lessons
          .filter((lesson) => lesson.chapter_id === chapter.id)
          .map((lesson) => {
            const row = mine.get(lesson.id);
            return {
              id: lesson.id,
              title: lesson.title,
              type: lesson.type,
              durationSeconds: lesson.duration_seconds,
              pages: lesson.pages,
              completionPercent: lesson.completion_percent,
              preview: lesson.preview,
              required: lesson.required,
              progress: row === undefined ? null : { percent: row.percent, completed: row.completed_at !== null },
            };
          }),
      })),
      terms: terms.map((term) => ({
        id: term.id,
        name: term.name,
        startAt: formatDateTime(term.start_at),
        endAt: formatDateTime(term.end_at),
        capacity: term.capacity,
        seatsLeft: term.capacity === null ? null : Math.max(0, term.capacity - term.enrolled),
        enrolMode: term.enrol_mode,
      })),
      enrolment: enrolment === undefined ? null : this.enrolmentOf(enrolment),
      mayStudy: enrolment?.enrolled ?? false,
      progress: courseProgressOf(lessons, completedLessons(progress)),
    };
  }

  /** Every course I have applied to, been enrolled in or assigned, the most recently active first. */
  async myCourses(userId: number): Promise<MyCourse[]> {
    const enrolments = await findMyEnrolments(this.db, userId);
    const courseIds = enrolments.map((enrolment) => enrolment.course_id);
    const [lessons, progress] = await Promise.all([findOutlineLessons(this.db, courseIds), findProgressOfCourses(this.db, userId, courseIds)]);
    const completed = completedLessons(progress);
    const lastStudied = new Map<number, number>();
    for (const row of progress) lastStudied.set(row.course_id, Math.max(lastStudied.get(row.course_id) ?? 0, row.updated_at));
    const activity = (enrolment: EnrolmentRow) => Math.max(enrolment.update_time, lastStudied.get(enrolment.course_id) ?? 0);
    return [...enrolments]
      .sort((a, b) => activity(b) - activity(a) || b.id - a.id)
      .map((enrolment) => {
        const studied = lastStudied.get(enrolment.course_id);
        return {
          ...this.enrolmentOf(enrolment),
          applicantId: enrolment.id,
          courseId: enrolment.course_id,
          title: enrolment.course_title,
          cover: enrolment.cover_media_id,
          required: enrolment.course_required,
          termName: enrolment.term_name,
          progress: courseProgressOf(lessons.get(enrolment.course_id) ?? [], completed),
          lastStudiedAt: studied === undefined ? null : formatDateTime(studied),
        };
      });
  }

  /** My study time per day for the last `days` days (today last, days with none as 0), this week's (from Monday) and all of it, in the organisation's days. */
  async myStudy(userId: number, days: number): Promise<MyStudy> {
    const today = this.dayOf(this.options.clock.now());
    const monday = mondayOf(today);
    const range = Array.from({ length: days }, (_, index) => addDays(today, index - (days - 1)));
    const first = range[0] ?? today;
    const studied = await findStudyDays(this.db, userId, first < monday ? first : monday);
    let weekSeconds = 0;
    for (const [day, seconds] of studied.days) if (day >= monday && day <= today) weekSeconds += seconds;
    return {
      todaySeconds: studied.days.get(today) ?? 0,
      weekSeconds,
      totalSeconds: studied.total,
      days: range.map((date) => ({ date, seconds: studied.days.get(date) ?? 0 })),
    };
  }

  /** yyyy-MM-dd of the instant in the organisation's zone. */
  private dayOf(ms: number): string {
    return dayInZone(ms, this.options.timeZone);
  }

  /** A lesson I may study, with its neighbours in the outline and where I stopped. */
  async lesson(userId: number, lessonId: number): Promise<SiteLesson> {
    const lesson = mayStudy(await findStudyLesson(this.db, lessonId, userId), lessonId);
    const [order, progress] = await Promise.all([findLessonOrder(this.db, lesson.course_id), findProgress(this.db, userId, lessonId)]);
    const place = order.indexOf(lessonId);
    return {
      id: lesson.id,
      title: lesson.title,
      type: lesson.type,
      courseId: lesson.course_id,
      courseTitle: lesson.course_title,
      chapterTitle: lesson.chapter_title,
      mediaId: lesson.type === 'text' ? null : lesson.media_id,
      durationSeconds: lesson.type === 'video' ? lesson.duration_seconds : null,
      pages: pagesOf(lesson),
      content: lesson.content,
      completionPercent: lesson.completion_percent,
      preview: lesson.preview,
      required: lesson.required,
      maxPlaybackRate: lesson.max_playback_rate,
      allowSkip: lesson.allow_skip,
      pageDwellSeconds: PAGE_DWELL_SECONDS,
      previousLessonId: order[place - 1] ?? null,
      nextLessonId: place < 0 ? null : (order[place + 1] ?? null),
      progress: lessonProgressOf(lesson, progress),
    };
  }

  /**
   * A progress report of one playback of mine. A video's claimed intervals count only as far as
   * the wall clock since this playback started allows at the course's fastest rate, less what its
   * earlier reports were credited (`allowedSeconds`), and
   * (unless the course allows it) never past a skip; a document's page counts once it has stayed
   * on screen for the dwell. My newest playback alone counts: an older one's report changes
   * nothing. Everything the report changes is written in one transaction.
   */
  async report(userId: number, lessonId: number, report: ProgressReport): Promise<ProgressResult> {
    return this.db.transaction().execute(async (trx) => {
      const lesson = mayStudy(await findReportedLesson(trx, lessonId, userId), lessonId);
      const page = 'page' in report ? report.page : null;
      requireMatchingReport(lesson, report);
      const now = this.options.clock.now();
      const known = await findPlayback(trx, userId, report.sessionId);
      const playback = known ?? (await this.startPlayback(trx, { userId, sessionKey: report.sessionId, lessonId, page }, lesson, now));
      if (playback.superseded) {
        return { ...lessonProgressOf(lesson, await findProgress(trx, userId, lessonId)), acceptedSeconds: 0, superseded: true };
      }
      const current = await this.lockedProgress(trx, userId, lesson, now);
      const first = known === undefined;
      // A playback that moved on from another lesson starts this one afresh.
      const samePlace = playback.lesson_id === lessonId;
      const elapsedSeconds = first ? 0 : Math.max(0, now - playback.last_report_at) / 1000;

      let next: Omit<LessonProgress, 'completed'>;
      let intervals = current.intervals;
      let acceptedSeconds = 0;
      let active: boolean;
      let pageSince: number | null = null;
      if ('intervals' in report) {
        const duration = lesson.duration_seconds ?? 0;
        const accepted = acceptCoverage({
          covered: current.intervals,
          claimed: report.intervals,
          durationSeconds: duration,
          allowance: allowedSeconds({
            elapsedSeconds: (now - playback.started_at) / 1000,
            maxPlaybackRate: lesson.max_playback_rate,
            tolerance: playback.tolerance_seconds,
            credited: playback.credited_seconds,
          }),
          allowSkip: lesson.allow_skip,
          furthest: furthestFromStart(current.intervals),
        });
        intervals = accepted.covered;
        acceptedSeconds = accepted.accepted;
        // Whole seconds may run a fraction past a video's end.
        const covered = Math.min(coveredSeconds(intervals), duration);
        next = {
          coveredSeconds: covered,
          percent: percentOf(covered, duration),
          position: Math.min(Math.max(0, report.position), duration),
          pagesRead: current.pages_read,
        };
        active = report.intervals.length > 0;
      } else {
        const read = new Set(current.pages_read);
        const since = playback.page_since;
        if (!first && samePlace && playback.page !== null && since !== null && now - since >= DWELL_MS) read.add(playback.page);
        pageSince = samePlace && playback.page === report.page && since !== null ? since : now;
        const pagesRead = [...read].sort((a, b) => a - b);
        next = { coveredSeconds: 0, percent: percentOf(pagesRead.length, pagesOf(lesson) ?? 0), position: report.page, pagesRead };
        active = !first;
      }
      const completedAt = current.completed_at ?? (next.percent >= lesson.completion_percent ? now : null);
      await updateProgress(trx, current.id, { ...next, intervals, completedAt }, now);
      await updatePlayback(trx, playback.id, { lessonId, lastReportAt: now, page, pageSince, creditedSeconds: acceptedSeconds });
      if (lesson.enrolled && current.completed_at === null && completedAt !== null) await this.options.onLessonCompleted?.(userId, lesson.course_id, trx);
      if (active) {
        const studied = Math.round(Math.min(elapsedSeconds, MAX_STUDY_SECONDS_PER_REPORT));
        if (studied > 0) await addStudySeconds(trx, userId, this.dayOf(now), studied);
        if (lesson.enrolled) {
          const completed = await this.courseCompleted(trx, userId, lesson, completedAt !== null);
          await this.options.onCourseProgress(userId, lesson.course_id, { completed }, trx);
        }
      }
      return { ...next, completed: completedAt !== null, acceptedSeconds, superseded: false };
    });
  }

  /** A new playback of mine, with the slack on the clock it may start with (`startingTolerance`). */
  private async startPlayback(
    trx: Kysely<Database>,
    playback: { userId: number; sessionKey: string; lessonId: number; page: number | null },
    lesson: ReportedLessonRow,
    now: number,
  ) {
    const lastReportAt = await findLastReportAt(trx, playback.userId);
    const toleranceSeconds = startingTolerance(lastReportAt === undefined ? null : (now - lastReportAt) / 1000, lesson.max_playback_rate);
    return startPlayback(trx, { ...playback, toleranceSeconds }, now);
  }

  /** My progress row of the lesson, made blank on a first report, locked for the rest of the transaction. */
  private async lockedProgress(trx: Kysely<Database>, userId: number, lesson: ReportedLessonRow, now: number): Promise<ProgressRow> {
    const found = await findProgress(trx, userId, lesson.id, { lock: true });
    if (found !== undefined) return found;
    await insertBlankProgress(trx, userId, lesson, now);
    const made = await findProgress(trx, userId, lesson.id, { lock: true });
    if (made === undefined) throw new Error(`the progress row of lesson ${lesson.id} is missing`);
    return made;
  }

  /** Whether every required lesson of the course is completed; a required lesson not yet completed answers without a query. */
  private async courseCompleted(trx: Kysely<Database>, userId: number, lesson: ReportedLessonRow, lessonCompleted: boolean): Promise<boolean> {
    if (lesson.required && !lessonCompleted) return false;
    const { required, completed } = await findCourseCompletion(trx, userId, lesson.course_id);
    return required > 0 && completed === required;
  }

  private enrolmentOf(row: EnrolmentRow): MyEnrolment {
    return {
      id: row.id,
      termId: row.term_id,
      status: row.status,
      source: row.source,
      dueAt: row.due_at === null ? null : formatDateTime(row.due_at),
      overdue: row.due_at !== null && row.due_at < this.options.clock.now() && row.status !== 'completed',
      reason: row.reason,
    };
  }
}

/**
 * The lesson if I may study it: its course is published and it is a free preview or I hold a
 * place in one of the course's terms. A lesson of an unpublished course does not exist for learners.
 */
function mayStudy<T extends ReportedLessonRow>(lesson: T | undefined, lessonId: number): T {
  if (lesson === undefined || lesson.course_status !== 'published') throw notFound(`id: no lesson ${lessonId}`);
  if (!lesson.preview && !lesson.enrolled) throw forbidden(`id: enrol in course ${lesson.course_id} to study this lesson`);
  return lesson;
}

/** A video reports intervals; a document or text lesson pages, of which a text lesson has one. */
function requireMatchingReport(lesson: ReportedLessonRow, report: ProgressReport): void {
  if ('intervals' in report) {
    if (lesson.type !== 'video') throw invalidInput(`intervals: lesson ${lesson.id} is a ${lesson.type}: report the page on screen`);
    return;
  }
  if (lesson.type === 'video') throw invalidInput(`page: lesson ${lesson.id} is a video: report intervals and position`);
  const pages = pagesOf(lesson);
  if (pages !== null && report.page > pages) throw invalidInput(`page: lesson ${lesson.id} has ${pages} page${pages === 1 ? '' : 's'}`);
}

/** A document's pages; a text lesson is one page. */
function pagesOf(lesson: { type: string; pages: number | null }): number | null {
  if (lesson.type === 'text') return 1;
  return lesson.type === 'document' ? lesson.pages : null;
}

function lessonProgressOf(lesson: ReportedLessonRow, row: ProgressRow | undefined): LessonProgress {
  if (row === undefined) return { coveredSeconds: 0, percent: 0, completed: false, position: lesson.type === 'video' ? 0 : 1, pagesRead: [] };
  return {
    coveredSeconds: row.covered_seconds,
    percent: row.percent,
    completed: row.completed_at !== null,
    position: row.position,
    pagesRead: row.pages_read,
  };
}

function completedLessons(rows: readonly ProgressRow[]): Set<number> {
  return new Set(rows.filter((row) => row.completed_at !== null).map((row) => row.lesson_id));
}

/** The course's total over its required lessons; the lesson to go on with is the first required one not completed, else the first. */
function courseProgressOf(lessons: readonly OutlineLessonRow[], completed: ReadonlySet<number>): CourseProgress {
  const required = lessons.filter((lesson) => lesson.required);
  const done = required.filter((lesson) => completed.has(lesson.id)).length;
  return {
    percent: percentOf(done, required.length),
    completedLessons: done,
    requiredLessons: required.length,
    completed: required.length > 0 && done === required.length,
    nextLessonId: required.find((lesson) => !completed.has(lesson.id))?.id ?? lessons[0]?.id ?? null,
  };
}
