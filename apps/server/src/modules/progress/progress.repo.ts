import { ENROLLED_STATUSES, type ApplicantSource, type ApplicantStatus } from '@cloud-classroom/shared/applicants';
import type { EnrolMode, LessonType } from '@cloud-classroom/shared/courses';
import type { Interval } from '@cloud-classroom/shared/progress-rules';
import type { Kysely, Selectable } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import { ReusableQuery, type Slots } from '../../db/reusable-query.js';
import type { Database, PlaybackTable } from '../../db/schema.js';

// The learner's progress: lessons studied (merged intervals, pages read), the playbacks that
// report them, and study time per day. It reads the catalogue and the enrolments (courses,
// chapters, lessons, media, terms, applicants) but writes only its own tables.

/**
 * A lesson with what a progress report needs of it, its course and media (the rules the report
 * is held to), and whether the user is enrolled in the course.
 */
export type ReportedLessonRow = {
  id: number;
  course_id: number;
  type: LessonType;
  completion_percent: number;
  preview: boolean;
  required: boolean;
  course_status: string;
  max_playback_rate: number;
  allow_skip: boolean;
  duration_seconds: number | null;
  pages: number | null;
  enrolled: boolean;
};

/** A lesson with what studying it needs: the report's rules and what the player shows. */
export type StudyLessonRow = ReportedLessonRow & {
  chapter_id: number;
  title: string;
  media_id: number | null;
  content: string;
  chapter_title: string;
  course_title: string;
};

const lessonQuery = (db: Kysely<Database>, lessonId: number, userId: number) =>
  db
    .selectFrom('edu_lesson as l')
    .innerJoin('edu_course as c', 'c.id', 'l.course_id')
    .innerJoin('edu_chapter as ch', 'ch.id', 'l.chapter_id')
    .leftJoin('edu_media as m', 'm.id', 'l.media_id')
    .select([
      'l.id',
      'l.course_id',
      'l.type',
      'l.completion_percent',
      'l.preview',
      'l.required',
      'c.status as course_status',
      'c.max_playback_rate',
      'c.allow_skip',
      'm.duration_seconds',
      'm.pages',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('edu_applicant as a')
            .innerJoin('edu_term as t', 't.id', 'a.term_id')
            .select('a.id')
            .whereRef('t.course_id', '=', 'l.course_id')
            .where('a.user_id', '=', userId)
            .where('a.status', 'in', ENROLLED_STATUSES),
        )
        .as('enrolled'),
    )
    .where('l.id', '=', lessonId);

// Every few seconds per player: without the texts (a text lesson's content may be long).
const reportedLesson = new ReusableQuery(2, (db, [lessonId, userId]) => lessonQuery(db, lessonId, userId));
const studyLesson = new ReusableQuery(2, (db, [lessonId, userId]) =>
  lessonQuery(db, lessonId, userId).select(['l.chapter_id', 'l.title', 'l.media_id', 'l.content', 'ch.title as chapter_title', 'c.title as course_title']),
);

type StoredLesson = Awaited<ReturnType<typeof reportedLesson.run>>[number];

function lessonOf<T extends StoredLesson>(row: T) {
  return {
    ...row,
    // Written only from LESSON_TYPES.
    type: row.type as LessonType,
    preview: row.preview === 1,
    required: row.required === 1,
    allow_skip: row.allow_skip === 1,
    max_playback_rate: Number(row.max_playback_rate),
    duration_seconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    // SQLite answers 0/1, PostgreSQL a boolean.
    enrolled: Boolean(row.enrolled),
  };
}

/** The lesson, its chapter, course and media, and whether `userId` holds a place in one of the course's terms: one statement. */
export async function findStudyLesson(db: Kysely<Database>, lessonId: number, userId: number): Promise<StudyLessonRow | undefined> {
  const [row] = await studyLesson.run(db, [lessonId, userId]);
  return row === undefined ? undefined : lessonOf(row);
}

/** What a progress report needs of the lesson (see `findStudyLesson`), in one statement. */
export async function findReportedLesson(db: Kysely<Database>, lessonId: number, userId: number): Promise<ReportedLessonRow | undefined> {
  const [row] = await reportedLesson.run(db, [lessonId, userId]);
  return row === undefined ? undefined : lessonOf(row);
}

/** One lesson of a course's outline, in outline order, with what the site shows of it. */
export type OutlineLessonRow = {
  id: number;
  chapter_id: number;
  chapter_title: string;
  title: string;
  type: LessonType;
  completion_percent: number;
  preview: boolean;
  required: boolean;
  duration_seconds: number | null;
  pages: number | null;
};

/**
 * The lessons of the courses in outline order (chapters by sort, lessons by sort within them, ids
 * breaking ties), with their chapter; a chapter with no lesson is answered by `findChapters`.
 */
export async function findOutlineLessons(db: Kysely<Database>, courseIds: readonly number[]): Promise<Map<number, OutlineLessonRow[]>> {
  const byCourse = new Map<number, OutlineLessonRow[]>();
  if (courseIds.length === 0) return byCourse;
  const rows = await db
    .selectFrom('edu_lesson as l')
    .innerJoin('edu_chapter as ch', 'ch.id', 'l.chapter_id')
    .leftJoin('edu_media as m', 'm.id', 'l.media_id')
    .select([
      'l.id',
      'l.course_id',
      'l.chapter_id',
      'ch.title as chapter_title',
      'l.title',
      'l.type',
      'l.completion_percent',
      'l.preview',
      'l.required',
      'm.duration_seconds',
      'm.pages',
    ])
    .where('l.course_id', 'in', courseIds)
    .orderBy('ch.sort')
    .orderBy('ch.id')
    .orderBy('l.sort')
    .orderBy('l.id')
    .execute();
  for (const row of rows) {
    const lesson: OutlineLessonRow = {
      id: row.id,
      chapter_id: row.chapter_id,
      chapter_title: row.chapter_title,
      title: row.title,
      type: row.type as LessonType,
      completion_percent: row.completion_percent,
      preview: row.preview === 1,
      required: row.required === 1,
      duration_seconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
      pages: row.pages,
    };
    byCourse.set(row.course_id, [...(byCourse.get(row.course_id) ?? []), lesson]);
  }
  return byCourse;
}

/** A course's chapters in outline order. */
export async function findChapters(db: Kysely<Database>, courseId: number): Promise<{ id: number; title: string }[]> {
  return db.selectFrom('edu_chapter').select(['id', 'title']).where('course_id', '=', courseId).orderBy('sort').orderBy('id').execute();
}

/** The lesson ids of a course in outline order (for the previous and next lesson). */
export async function findLessonOrder(db: Kysely<Database>, courseId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('edu_lesson as l')
    .innerJoin('edu_chapter as ch', 'ch.id', 'l.chapter_id')
    .select('l.id')
    .where('l.course_id', '=', courseId)
    .orderBy('ch.sort')
    .orderBy('ch.id')
    .orderBy('l.sort')
    .orderBy('l.id')
    .execute();
  return rows.map((row) => row.id);
}

// ---- Progress -----------------------------------------------------------------------------------

/** A lesson's progress row, its JSON columns read. */
export type ProgressRow = {
  id: number;
  lesson_id: number;
  course_id: number;
  intervals: Interval[];
  covered_seconds: number;
  pages_read: number[];
  percent: number;
  position: number;
  completed_at: number | null;
  updated_at: number;
};

type StoredProgress = Selectable<Database['edu_lesson_progress']>;

function progressOf(row: StoredProgress): ProgressRow {
  return {
    id: row.id,
    lesson_id: row.lesson_id,
    course_id: row.course_id,
    intervals: JSON.parse(row.intervals) as Interval[],
    covered_seconds: Number(row.covered_seconds),
    pages_read: JSON.parse(row.pages_read) as number[],
    percent: row.percent,
    position: Number(row.position),
    completed_at: row.completed_at === null ? null : Number(row.completed_at),
    updated_at: Number(row.updated_at),
  };
}

/**
 * The user's progress in the lesson. `lock`: inside a report's transaction on PostgreSQL, the row
 * is locked, so two playbacks reporting at once merge one after the other instead of one
 * overwriting the other (SQLite runs one transaction at a time anyway).
 */
export async function findProgress(db: Kysely<Database>, userId: number, lessonId: number, { lock = false } = {}): Promise<ProgressRow | undefined> {
  const [row] = await (lock ? lockedProgress : progress).run(db, [userId, lessonId]);
  return row === undefined ? undefined : progressOf(row);
}

const progressQuery = (db: Kysely<Database>, [userId, lessonId]: Slots, lock: boolean) =>
  db
    .selectFrom('edu_lesson_progress')
    .selectAll()
    .where('user_id', '=', userId)
    .where('lesson_id', '=', lessonId)
    .$if(lock && isPostgres(db), (query) => query.forUpdate());
const progress = new ReusableQuery(2, (db, slots) => progressQuery(db, slots, false));
const lockedProgress = new ReusableQuery(2, (db, slots) => progressQuery(db, slots, true));

/** The user's progress in the lessons of the courses. */
export async function findProgressOfCourses(db: Kysely<Database>, userId: number, courseIds: readonly number[]): Promise<ProgressRow[]> {
  if (courseIds.length === 0) return [];
  const rows = await db.selectFrom('edu_lesson_progress').selectAll().where('user_id', '=', userId).where('course_id', 'in', courseIds).execute();
  return rows.map(progressOf);
}

/** A row made for a first report, so a concurrent first report of another playback waits for this one's lock. */
export async function insertBlankProgress(db: Kysely<Database>, userId: number, lesson: { id: number; course_id: number }, now: number): Promise<void> {
  await db
    .insertInto('edu_lesson_progress')
    .values({
      user_id: userId,
      lesson_id: lesson.id,
      course_id: lesson.course_id,
      intervals: '[]',
      covered_seconds: 0,
      pages_read: '[]',
      percent: 0,
      position: 0,
      completed_at: null,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.columns(['user_id', 'lesson_id']).doNothing())
    .execute();
}

export type ProgressValues = {
  intervals: readonly Interval[];
  coveredSeconds: number;
  pagesRead: readonly number[];
  percent: number;
  position: number;
  completedAt: number | null;
};

const progressUpdate = new ReusableQuery(8, (db, [id, intervals, covered, pagesRead, percent, position, completedAt, now]) =>
  db
    .updateTable('edu_lesson_progress')
    .set({
      intervals: intervals,
      covered_seconds: covered,
      pages_read: pagesRead,
      percent: percent,
      position: position,
      completed_at: completedAt,
      updated_at: now,
    })
    .where('id', '=', id),
);

export async function updateProgress(db: Kysely<Database>, id: number, values: ProgressValues, now: number): Promise<void> {
  await progressUpdate.run(db, [
    id,
    JSON.stringify(values.intervals),
    values.coveredSeconds,
    JSON.stringify(values.pagesRead),
    values.percent,
    values.position,
    values.completedAt,
    now,
  ]);
}

const courseCompletion = new ReusableQuery(2, (db, [userId, courseId]) =>
  db
    .selectFrom('edu_lesson as l')
    .leftJoin('edu_lesson_progress as p', (join) => join.onRef('p.lesson_id', '=', 'l.id').on('p.user_id', '=', userId).on('p.completed_at', 'is not', null))
    .select((eb) => [eb.fn.countAll().as('required'), eb.fn.count('p.id').as('completed')])
    .where('l.course_id', '=', courseId)
    .where('l.required', '=', 1),
);

/** How many of the course's lessons are required, and how many of those the user has completed. */
export async function findCourseCompletion(db: Kysely<Database>, userId: number, courseId: number): Promise<{ required: number; completed: number }> {
  const [row] = await courseCompletion.run(db, [userId, courseId]);
  return { required: Number(row?.required ?? 0), completed: Number(row?.completed ?? 0) };
}

/** Which of the lessons the user has completed. */
export async function findCompletedLessons(db: Kysely<Database>, userId: number, lessonIds: readonly number[]): Promise<Set<number>> {
  if (lessonIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('edu_lesson_progress')
    .select('lesson_id')
    .where('user_id', '=', userId)
    .where('lesson_id', 'in', lessonIds)
    .where('completed_at', 'is not', null)
    .execute();
  return new Set(rows.map((row) => row.lesson_id));
}

// ---- Playbacks ----------------------------------------------------------------------------------

export type PlaybackRow = Omit<Selectable<PlaybackTable>, 'superseded'> & { superseded: boolean };

/**
 * One of the user's playbacks. Locked on PostgreSQL, as the progress row is (see `findProgress`):
 * two reports of one playback sent at once would otherwise both be allowed the time since the
 * previous one.
 */
export async function findPlayback(db: Kysely<Database>, userId: number, sessionKey: string): Promise<PlaybackRow | undefined> {
  const [row] = await playback.run(db, [userId, sessionKey]);
  return row === undefined ? undefined : playbackOf(row);
}

const playback = new ReusableQuery(2, (db, [userId, sessionKey]) =>
  db
    .selectFrom('edu_playback')
    .selectAll()
    .where('user_id', '=', userId)
    .where('session_key', '=', sessionKey)
    .$if(isPostgres(db), (query) => query.forUpdate()),
);

function playbackOf(row: Selectable<PlaybackTable>): PlaybackRow {
  return {
    ...row,
    started_at: Number(row.started_at),
    credited_seconds: Number(row.credited_seconds),
    tolerance_seconds: Number(row.tolerance_seconds),
    last_report_at: Number(row.last_report_at),
    page_since: row.page_since === null ? null : Number(row.page_since),
    superseded: row.superseded === 1,
  };
}

/**
 * A new playback of the user's, which supersedes all their others. Two first reports of one
 * session racing each other make one row: the loser finds the winner's.
 */
export async function startPlayback(
  db: Kysely<Database>,
  playback: { userId: number; sessionKey: string; lessonId: number; page: number | null; toleranceSeconds: number },
  now: number,
): Promise<PlaybackRow> {
  await db
    .insertInto('edu_playback')
    .values({
      session_key: playback.sessionKey,
      user_id: playback.userId,
      lesson_id: playback.lessonId,
      started_at: now,
      last_report_at: now,
      page: playback.page,
      page_since: playback.page === null ? null : now,
      superseded: 0,
      tolerance_seconds: playback.toleranceSeconds,
    })
    .onConflict((conflict) => conflict.columns(['user_id', 'session_key']).doNothing())
    .execute();
  await db
    .updateTable('edu_playback')
    .set({ superseded: 1 })
    .where('user_id', '=', playback.userId)
    .where('session_key', '<>', playback.sessionKey)
    .where('superseded', '=', 0)
    .execute();
  const row = await findPlayback(db, playback.userId, playback.sessionKey);
  if (row === undefined) throw new Error('the playback just made is missing');
  return row;
}

/** When the user's playbacks last reported, the newest of them (undefined before any). */
export async function findLastReportAt(db: Kysely<Database>, userId: number): Promise<number | undefined> {
  const row = await db.selectFrom('edu_playback').select((eb) => eb.fn.max('last_report_at').as('last')).where('user_id', '=', userId).executeTakeFirst();
  return row?.last === null || row?.last === undefined ? undefined : Number(row.last);
}

const playbackUpdate = new ReusableQuery(6, (db, [id, lessonId, lastReportAt, page, pageSince, credited]) =>
  db
    .updateTable('edu_playback')
    .set((eb) => ({
      lesson_id: lessonId,
      last_report_at: lastReportAt,
      page: page,
      page_since: pageSince,
      credited_seconds: eb('credited_seconds', '+', credited),
    }))
    .where('id', '=', id),
);

export async function updatePlayback(
  db: Kysely<Database>,
  id: number,
  values: { lessonId: number; lastReportAt: number; page: number | null; pageSince: number | null; creditedSeconds: number },
): Promise<void> {
  await playbackUpdate.run(db, [id, values.lessonId, values.lastReportAt, values.page, values.pageSince, values.creditedSeconds]);
}

// ---- Study days ---------------------------------------------------------------------------------

const studySeconds = new ReusableQuery(3, (db, [userId, day, seconds]) =>
  db
    .insertInto('edu_study_day')
    .values({ user_id: userId, day, seconds })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'day']).doUpdateSet((eb) => ({ seconds: eb('edu_study_day.seconds', '+', eb.ref('excluded.seconds')) })),
    ),
);

/** Adds seconds to the user's day. */
export async function addStudySeconds(db: Kysely<Database>, userId: number, day: string, seconds: number): Promise<void> {
  await studySeconds.run(db, [userId, day, seconds]);
}

/** The user's study seconds per day from `since` (yyyy-MM-dd) on, and in all. */
export async function findStudyDays(db: Kysely<Database>, userId: number, since: string): Promise<{ days: Map<string, number>; total: number }> {
  const [rows, total] = await Promise.all([
    db.selectFrom('edu_study_day').select(['day', 'seconds']).where('user_id', '=', userId).where('day', '>=', since).execute(),
    db
      .selectFrom('edu_study_day')
      .select((eb) => eb.fn.sum<number | string | null>('seconds').as('total'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { days: new Map(rows.map((row) => [row.day, Number(row.seconds)])), total: Number(total.total ?? 0) };
}

// ---- Enrolments ---------------------------------------------------------------------------------

export type TermRow = { id: number; name: string; start_at: number; end_at: number; capacity: number | null; enrol_mode: EnrolMode; enrolled: number };

/** The course's terms, earliest start first, each with how many people hold a place in it. */
export async function findTermsOfCourse(db: Kysely<Database>, courseId: number): Promise<TermRow[]> {
  const rows = await db
    .selectFrom('edu_term as t')
    .select(['t.id', 't.name', 't.start_at', 't.end_at', 't.capacity', 't.enrol_mode'])
    .select((eb) =>
      eb
        .selectFrom('edu_applicant as a')
        .select((count) => count.fn.countAll().as('n'))
        .whereRef('a.term_id', '=', 't.id')
        .where('a.status', 'in', ENROLLED_STATUSES)
        .as('enrolled'),
    )
    .where('t.course_id', '=', courseId)
    .orderBy('t.start_at')
    .orderBy('t.id')
    .execute();
  return rows.map((row) => ({
    ...row,
    start_at: Number(row.start_at),
    end_at: Number(row.end_at),
    // Written only from ENROL_MODES.
    enrol_mode: row.enrol_mode as EnrolMode,
    enrolled: Number(row.enrolled ?? 0),
  }));
}

/** One of the user's applicant rows, with its term and course. */
export type EnrolmentRow = {
  id: number;
  term_id: number;
  term_name: string;
  course_id: number;
  course_title: string;
  cover_media_id: number | null;
  course_required: boolean;
  status: ApplicantStatus;
  source: ApplicantSource;
  due_at: number | null;
  reason: string | null;
  update_time: number;
  /** Whether any of the user's rows of this course holds a place (the newest may be a later, rejected application). */
  enrolled: boolean;
};

/**
 * The user's newest applicant row of each course (of the given ones, or of every course): a
 * person applies again after a rejection, and the newest row is what stands.
 */
export async function findMyEnrolments(db: Kysely<Database>, userId: number, courseId?: number): Promise<EnrolmentRow[]> {
  const rows = await db
    .selectFrom('edu_applicant as a')
    .innerJoin('edu_term as t', 't.id', 'a.term_id')
    .innerJoin('edu_course as c', 'c.id', 't.course_id')
    .select([
      'a.id',
      'a.term_id',
      't.name as term_name',
      't.course_id',
      'c.title as course_title',
      'c.cover_media_id',
      'c.required as course_required',
      'a.status',
      'a.source',
      'a.due_at',
      'a.reason',
      'a.update_time',
    ])
    .where('a.user_id', '=', userId)
    .$if(courseId !== undefined, (query) => query.where('t.course_id', '=', courseId as number))
    .orderBy('a.id', 'desc')
    .execute();
  const newest = new Map<number, EnrolmentRow>();
  const holdsPlace = (status: string) => (ENROLLED_STATUSES as readonly string[]).includes(status);
  for (const row of rows) {
    const known = newest.get(row.course_id);
    if (known !== undefined) {
      if (holdsPlace(row.status)) known.enrolled = true;
      continue;
    }
    newest.set(row.course_id, {
      ...row,
      course_required: row.course_required === 1,
      // Written only from APPLICANT_STATUSES and APPLICANT_SOURCES.
      status: row.status as ApplicantStatus,
      source: row.source as ApplicantSource,
      due_at: row.due_at === null ? null : Number(row.due_at),
      update_time: Number(row.update_time),
      enrolled: holdsPlace(row.status),
    });
  }
  return [...newest.values()];
}

/** Everything kept of these people's study (they are being deleted): progress, playbacks, study days. */
export async function deleteStudyOfPeople(db: Kysely<Database>, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  for (const table of ['edu_lesson_progress', 'edu_playback', 'edu_study_day'] as const) {
    await db.deleteFrom(table).where('user_id', 'in', userIds).execute();
  }
}
