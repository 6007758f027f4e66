import {
  myCoursesSchema,
  myStudySchema,
  progressResultSchema,
  siteCourseDetailSchema,
  siteLessonSchema,
  type ProgressResult,
} from '@cloud-classroom/shared/progress';
import { CLOCK_TOLERANCE_SECONDS, MAX_STORED_PIECES, MAX_STUDY_SECONDS_PER_REPORT, PAGE_DWELL_SECONDS } from '@cloud-classroom/shared/progress-rules';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettableClock } from '../../clock.js';
import {
  createChapter,
  createCourse,
  createDocumentLesson,
  createTerm,
  createTextLesson,
  createVideoLesson,
  db,
  expectRefusal,
  insertApplicant,
  userId,
} from '../../test/course-fixtures.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';
import { ProgressService, type CourseProgressListener } from './progress.service.js';

// A Wednesday morning in the server's zone: the week began on Monday the 2nd.
const START = new Date(2026, 2, 4, 10, 0, 0).getTime();
const ID_MAX = 2_147_483_647;

let sessions = 0;
/** A fresh playback id, as each load of the player makes one. */
const newSession = () => `playback-${(sessions += 1).toString().padStart(4, '0')}`;

type Report = { sessionId: string; intervals: [number, number][]; position: number } | { sessionId: string; page: number };

async function report(app: FastifyInstance, token: string, lessonId: number, body: Report): Promise<ProgressResult> {
  const response = await call(app, 'POST', `/api/site/lessons/${lessonId}/progress`, token, body);
  expect(response.statusCode, response.body).toBe(200);
  const parsed = progressResultSchema.parse(response.json());
  expect(response.json()).toEqual(parsed);
  return parsed;
}

async function lesson(app: FastifyInstance, token: string, lessonId: number) {
  const response = await call(app, 'GET', `/api/site/lessons/${lessonId}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return siteLessonSchema.parse(response.json());
}

async function courseDetail(app: FastifyInstance, token: string, courseId: number) {
  const response = await call(app, 'GET', `/api/site/courses/${courseId}`, token);
  expect(response.statusCode, response.body).toBe(200);
  const parsed = siteCourseDetailSchema.parse(response.json());
  expect(response.json()).toEqual(parsed);
  return parsed;
}

async function study(app: FastifyInstance, token: string, days = 14) {
  const response = await call(app, 'GET', `/api/site/my/study?days=${days}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return myStudySchema.parse(response.json());
}

/** A published course with one chapter and a term, and the term's id. */
async function publishedCourse(app: FastifyInstance, teacher: string, body: Record<string, unknown> = {}) {
  const course = await createCourse(app, teacher, { status: 'published', ...body });
  const chapter = await createChapter(app, teacher, course);
  const term = await createTerm(app, teacher, course);
  return { course, chapter, term };
}

const progressRows = async (app: FastifyInstance, username: string) =>
  db(app).selectFrom('edu_lesson_progress').selectAll().where('user_id', '=', await userId(app, username)).execute();
const playbackRows = async (app: FastifyInstance, username: string) =>
  db(app).selectFrom('edu_playback').selectAll().where('user_id', '=', await userId(app, username)).execute();

describe('progress: who may call', () => {
  let app: FastifyInstance;
  let teacher: string;
  let learner: string;
  let course: number;
  let lessonId: number;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    learner = await loginAs(app, 'learner1');
    const made = await publishedCourse(app, teacher);
    course = made.course;
    lessonId = await createTextLesson(app, teacher, made.chapter);
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['GET', '/api/site/courses/1'],
    ['GET', '/api/site/my/courses'],
    ['GET', '/api/site/my/study'],
    ['GET', '/api/site/lessons/1'],
    ['POST', '/api/site/lessons/1/progress', { sessionId: 'abcdefgh', page: 1 }],
  ] as const)('%s %s answers 401 without a session', async (method, url, payload?: unknown) => {
    const response = await call(app, method, url, undefined, payload);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ status: 401 });
  });

  it('refuses bad ids with a 400 naming the id, ids above the column’s range included, and unknown ones with a 404', async () => {
    for (const id of ['0', 'x', '1.5', '2147483648', '3000000000', '99999999999999999999']) {
      expectRefusal(await call(app, 'GET', `/api/site/courses/${id}`, learner), 400, 'id');
      expectRefusal(await call(app, 'GET', `/api/site/lessons/${id}`, learner), 400, 'id');
      expectRefusal(await call(app, 'POST', `/api/site/lessons/${id}/progress`, learner, { sessionId: 'abcdefgh', page: 1 }), 400, 'id');
    }
    expectRefusal(await call(app, 'GET', `/api/site/courses/${ID_MAX}`, learner), 404, 'id');
    expectRefusal(await call(app, 'GET', `/api/site/lessons/${ID_MAX}`, learner), 404, 'id');
    expectRefusal(await call(app, 'POST', `/api/site/lessons/${ID_MAX}/progress`, learner, { sessionId: 'abcdefgh', page: 1 }), 404, 'id');
  });

  it('refuses a bad report with a 400 naming the field, and a report of the wrong kind for the lesson', async () => {
    await insertApplicant(app, (await createTerm(app, teacher, course)), 'learner1', 'approved');
    const url = `/api/site/lessons/${lessonId}/progress`;
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'short', page: 1 }), 400, 'sessionId');
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'has spaces in it', page: 1 }), 400, 'sessionId');
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'abcdefgh', page: 0 }), 400, 'page');
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'abcdefgh', intervals: [[5, 1]], position: 0 }), 400, 'intervals.0');
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'abcdefgh', intervals: [[-1, 1]], position: 0 }), 400, 'intervals.0.0');
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'abcdefgh', intervals: Array(201).fill([0, 1]), position: 0 }), 400, 'intervals');
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'abcdefgh', intervals: [], position: -1 }), 400, 'position');
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'abcdefgh', position: 3 }), 400, 'intervals');
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'abcdefgh', intervals: [] }), 400, 'position');
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'abcdefgh', intervals: [], position: 0, page: 1 }), 400, 'page');
    expectRefusal(await call(app, 'POST', url, learner, {}), 400, 'sessionId');
    // A text lesson is one page, read, not played.
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'abcdefgh', intervals: [], position: 0 }), 400, 'intervals');
    expectRefusal(await call(app, 'POST', url, learner, { sessionId: 'abcdefgh', page: 2 }), 400, 'page');
    expectRefusal(await call(app, 'GET', '/api/site/my/study?days=0', learner), 400, 'days');
    expectRefusal(await call(app, 'GET', '/api/site/my/study?days=367', learner), 400, 'days');
    expect(await progressRows(app, 'learner1')).toEqual([]);
    expect(await playbackRows(app, 'learner1')).toEqual([]);
  });

  it('hides unpublished courses and their lessons from learners', async () => {
    const draft = await createCourse(app, teacher);
    const chapter = await createChapter(app, teacher, draft);
    const hidden = await createTextLesson(app, teacher, chapter, 'Hidden', { preview: true });
    expectRefusal(await call(app, 'GET', `/api/site/courses/${draft}`, learner), 404, 'id');
    expectRefusal(await call(app, 'GET', `/api/site/lessons/${hidden}`, learner), 404, 'id');
    expectRefusal(await call(app, 'POST', `/api/site/lessons/${hidden}/progress`, learner, { sessionId: 'abcdefgh', page: 1 }), 404, 'id');
  });
});

describe('progress: lessons only for those who may study them', () => {
  let app: FastifyInstance;
  let teacher: string;
  let learner1: string;
  let learner2: string;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    learner1 = await loginAs(app, 'learner1');
    learner2 = await loginAs(app, 'learner2');
  });
  afterAll(async () => {
    await app.close();
  });

  it('lets anyone study a free preview, and only people holding a place study the rest', async () => {
    const { course, chapter, term } = await publishedCourse(app, teacher);
    const preview = await createTextLesson(app, teacher, chapter, 'Free', { preview: true });
    const locked = await createTextLesson(app, teacher, chapter, 'Enrolled only');
    await insertApplicant(app, term, 'learner1', 'applied');

    expect((await lesson(app, learner1, preview)).title).toBe('Free');
    const refused = expectRefusal(await call(app, 'GET', `/api/site/lessons/${locked}`, learner1), 403, 'id');
    expect(refused).toBe(`id: enrol in course ${course} to study this lesson`);
    expectRefusal(await call(app, 'POST', `/api/site/lessons/${locked}/progress`, learner1, { sessionId: newSession(), page: 1 }), 403, 'id');
    expect(await progressRows(app, 'learner1')).toEqual([]);
    expect(await playbackRows(app, 'learner1')).toEqual([]);
    expect((await courseDetail(app, learner1, course)).mayStudy).toBe(false);

    // A rejected application opens nothing; an approved one (in another term) everything.
    await insertApplicant(app, term, 'learner2', 'rejected');
    expect((await call(app, 'GET', `/api/site/lessons/${locked}`, learner2)).statusCode).toBe(403);
    await insertApplicant(app, await createTerm(app, teacher, course, { name: 'Later' }), 'learner2', 'approved');
    expect((await lesson(app, learner2, locked)).title).toBe('Enrolled only');
    expect((await courseDetail(app, learner2, course)).mayStudy).toBe(true);
  });

  it('keys progress by the session’s user: nobody reads or moves another learner’s progress', async () => {
    const clock = new SettableClock(START);
    const timed = await buildTestApp({}, { clock });
    try {
      const [t, one, two] = [await loginAs(timed, 'teacher'), await loginAs(timed, 'learner1'), await loginAs(timed, 'learner2')];
      const { chapter, term } = await publishedCourse(timed, t);
      const video = await createVideoLesson(timed, t, chapter, 120);
      await insertApplicant(timed, term, 'learner1', 'approved');
      await insertApplicant(timed, term, 'learner2', 'approved');

      const mine = newSession();
      await report(timed, one, video, { sessionId: mine, intervals: [], position: 0 });
      clock.advance(10_000);
      expect((await report(timed, one, video, { sessionId: mine, intervals: [[0, 10]], position: 10 })).coveredSeconds).toBe(10);

      // The other learner sees nothing of it, and sending the same playback id makes their own playback.
      expect((await lesson(timed, two, video)).progress).toEqual({ coveredSeconds: 0, percent: 0, completed: false, position: 0, pagesRead: [] });
      const theirs = await report(timed, two, video, { sessionId: mine, intervals: [[10, 20]], position: 20 });
      expect(theirs).toMatchObject({ superseded: false, acceptedSeconds: 0, coveredSeconds: 0 });
      clock.advance(10_000);
      await report(timed, two, video, { sessionId: mine, intervals: [[0, 10]], position: 10 });
      expect((await lesson(timed, one, video)).progress).toMatchObject({ coveredSeconds: 10, position: 10 });
      // learner2's new playback did not supersede learner1's.
      expect(await report(timed, one, video, { sessionId: mine, intervals: [[10, 20]], position: 20 })).toMatchObject({ superseded: false, coveredSeconds: 20 });
      expect((await lesson(timed, two, video)).progress).toMatchObject({ coveredSeconds: 10, position: 10 });
    } finally {
      await timed.close();
    }
  });

  it('answers the lesson with its course, its neighbours across chapters and the dwell, and no draft’s notes', async () => {
    const { course, chapter, term } = await publishedCourse(app, teacher, { title: 'Ladders', maxPlaybackRate: 1.5, allowSkip: true });
    const second = await createChapter(app, teacher, course, 'Second');
    const a = await createTextLesson(app, teacher, chapter, 'A');
    const b = await createVideoLesson(app, teacher, second, 95, { title: 'B', content: '<p>Notes</p>', completionPercent: 80, required: false });
    const c = await createDocumentLesson(app, teacher, second, 4, { title: 'C' });
    await insertApplicant(app, term, 'learner1', 'in_progress');

    expect(await lesson(app, learner1, b)).toMatchObject({
      id: b,
      title: 'B',
      type: 'video',
      courseId: course,
      courseTitle: 'Ladders',
      chapterTitle: 'Second',
      durationSeconds: 95,
      pages: null,
      content: '<p>Notes</p>',
      completionPercent: 80,
      preview: false,
      required: false,
      maxPlaybackRate: 1.5,
      allowSkip: true,
      pageDwellSeconds: PAGE_DWELL_SECONDS,
      previousLessonId: a,
      nextLessonId: c,
    });
    expect(await lesson(app, learner1, a)).toMatchObject({ previousLessonId: null, nextLessonId: b, pages: 1, mediaId: null, progress: { position: 1 } });
    expect(await lesson(app, learner1, c)).toMatchObject({ previousLessonId: b, nextLessonId: null, pages: 4, durationSeconds: null });
  });
});

describe('progress: trusted video coverage', () => {
  let app: FastifyInstance;
  let clock: SettableClock;
  let teacher: string;
  let learner: string;
  beforeAll(async () => {
    clock = new SettableClock(START);
    app = await buildTestApp({}, { clock });
    teacher = await loginAs(app, 'teacher');
    learner = await loginAs(app, 'learner1');
  });
  afterAll(async () => {
    await app.close();
  });

  /** A video lesson of an enrolled course. */
  async function video(durationSeconds: number, course: Record<string, unknown> = {}, body: Record<string, unknown> = {}) {
    const { chapter, term } = await publishedCourse(app, teacher, course);
    const id = await createVideoLesson(app, teacher, chapter, durationSeconds, body);
    await insertApplicant(app, term, 'learner1', 'approved');
    return id;
  }

  it('cuts a forged hour of coverage after 10 s of wall clock to 10 s × the course’s rate + one tolerance for the playback', async () => {
    for (const rate of [2, 1]) {
      const id = await video(7200, { maxPlaybackRate: rate });
      // A while after the learner's previous playback reported, so this one starts with the full tolerance.
      clock.advance(10_000);
      const sessionId = newSession();
      // The opening report of a playback earns only the tolerance.
      expect(await report(app, learner, id, { sessionId, intervals: [[0, 3600]], position: 3600 })).toMatchObject({
        acceptedSeconds: CLOCK_TOLERANCE_SECONDS,
        coveredSeconds: CLOCK_TOLERANCE_SECONDS,
      });
      clock.advance(10_000);
      const forged = await report(app, learner, id, { sessionId, intervals: [[0, 3600]], position: 3600 });
      // The tolerance was spent on the opening report: it is not granted again.
      expect(forged.acceptedSeconds).toBe(10 * rate);
      expect(forged.coveredSeconds).toBe(10 * rate + CLOCK_TOLERANCE_SECONDS);
      expect(forged).toMatchObject({ completed: false, percent: 0, superseded: false });
      // The resume position is kept as sent, for the player, but earns nothing.
      expect(forged.position).toBe(3600);
    }
  });

  it('does not let a seek to the end complete a lesson; without skipping it adds nothing', async () => {
    for (const allowSkip of [false, true]) {
      const id = await video(600, { allowSkip });
      const sessionId = newSession();
      await report(app, learner, id, { sessionId, intervals: [], position: 0 });
      clock.advance(10_000);
      const seek = await report(app, learner, id, { sessionId, intervals: [[595, 600]], position: 600 });
      expect(seek).toMatchObject({ acceptedSeconds: allowSkip ? 5 : 0, coveredSeconds: allowSkip ? 5 : 0, completed: false, percent: 0 });
      const [row] = (await progressRows(app, 'learner1')).filter((progress) => progress.lesson_id === id);
      expect(row?.completed_at).toBeNull();
    }
  });

  it('completes a lesson watched normally in 10 s steps: the demo’s 8 s video and a longer one', async () => {
    const short = await video(8);
    const sessionId = newSession();
    await report(app, learner, short, { sessionId, intervals: [], position: 0 });
    clock.advance(10_000);
    expect(await report(app, learner, short, { sessionId, intervals: [[0, 8]], position: 8 })).toMatchObject({
      acceptedSeconds: 8,
      coveredSeconds: 8,
      percent: 100,
      completed: true,
    });

    const long = await video(95.5, {}, { completionPercent: 95 });
    const playback = newSession();
    await report(app, learner, long, { sessionId: playback, intervals: [], position: 0 });
    const results: ProgressResult[] = [];
    for (let from = 0; from < 95.5; from += 10) {
      clock.advance(10_000);
      const to = Math.min(from + 10, 95.5);
      results.push(await report(app, learner, long, { sessionId: playback, intervals: [[from, to]], position: to }));
    }
    expect(results.map((result) => result.completed)).toEqual([...Array(9).fill(false), true]);
    expect(results.at(-1)).toMatchObject({ coveredSeconds: 95.5, percent: 100, position: 95.5 });
    // Once completed, always completed: the row keeps its first completion time.
    const completedAt = (await progressRows(app, 'learner1')).find((row) => row.lesson_id === long)?.completed_at;
    clock.advance(10_000);
    expect((await report(app, learner, long, { sessionId: playback, intervals: [], position: 0 })).completed).toBe(true);
    expect((await progressRows(app, 'learner1')).find((row) => row.lesson_id === long)?.completed_at).toBe(completedAt);
  });

  it('lets the newest playback alone count: the older one is superseded, and study time counts once', async () => {
    clock.set(START + 2 * 86_400_000);
    teacher = await loginAs(app, 'teacher');
    learner = await loginAs(app, 'learner1');
    const id = await video(300);
    const before = (await study(app, learner)).todaySeconds;
    const older = newSession();
    const newer = newSession();
    await report(app, learner, id, { sessionId: older, intervals: [], position: 0 });
    clock.advance(10_000);
    expect(await report(app, learner, id, { sessionId: older, intervals: [[0, 10]], position: 10 })).toMatchObject({ acceptedSeconds: 10, superseded: false });
    // The same lesson opened in a second tab.
    expect(await report(app, learner, id, { sessionId: newer, intervals: [], position: 10 })).toMatchObject({ superseded: false });
    clock.advance(10_000);
    const stale = await report(app, learner, id, { sessionId: older, intervals: [[10, 20]], position: 20 });
    expect(stale).toMatchObject({ acceptedSeconds: 0, superseded: true, coveredSeconds: 10, position: 10 });
    expect(await report(app, learner, id, { sessionId: newer, intervals: [[10, 20]], position: 20 })).toMatchObject({
      acceptedSeconds: 10,
      coveredSeconds: 20,
      superseded: false,
    });
    expect((await study(app, learner)).todaySeconds - before).toBe(20);
    expect((await playbackRows(app, 'learner1')).filter((row) => row.superseded === 0).map((row) => row.session_key)).toEqual([newer]);
  });

  it('merges reports sent at once, a playback’s first ones included, into one row without losing either', async () => {
    const id = await video(300, { allowSkip: true, maxPlaybackRate: 1 });
    const [a, b] = [newSession(), newSession()];
    const opened = await Promise.all([a, a, b].map((sessionId) => call(app, 'POST', `/api/site/lessons/${id}/progress`, learner, { sessionId, intervals: [], position: 0 })));
    expect(opened.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    const live = (await playbackRows(app, 'learner1')).filter((row) => row.session_key === a || row.session_key === b);
    expect(live).toHaveLength(2);
    const current = live.find((row) => row.superseded === 0)?.session_key ?? a;
    clock.advance(10_000);
    await Promise.all([
      report(app, learner, id, { sessionId: current, intervals: [[0, 10]], position: 10 }),
      report(app, learner, id, { sessionId: current, intervals: [[100, 110]], position: 110 }),
    ]);
    const rows = (await progressRows(app, 'learner1')).filter((row) => row.lesson_id === id);
    expect(rows).toHaveLength(1);
    // The second report of the pair saw the first one's credit: it had no clock left but the
    // playback's tolerance, and a playback opened the instant another reported starts with none.
    expect((await playbackRows(app, 'learner1')).find((row) => row.session_key === current)).toMatchObject({ tolerance_seconds: 0, credited_seconds: 10 });
    expect(Number(rows[0]?.covered_seconds)).toBe(10);
  });

  it('resumes where the player stopped, within the video', async () => {
    const id = await video(120);
    const sessionId = newSession();
    expect((await lesson(app, learner, id)).progress).toEqual({ coveredSeconds: 0, percent: 0, completed: false, position: 0, pagesRead: [] });
    await report(app, learner, id, { sessionId, intervals: [], position: 0 });
    clock.advance(10_000);
    await report(app, learner, id, { sessionId, intervals: [[0, 10]], position: 42.5 });
    expect((await lesson(app, learner, id)).progress).toEqual({ coveredSeconds: 10, percent: 8, completed: false, position: 42.5, pagesRead: [] });
    clock.advance(10_000);
    await report(app, learner, id, { sessionId, intervals: [], position: 500 });
    expect((await lesson(app, learner, id)).progress.position).toBe(120);
  });

  it('writes no audit entry for reports', async () => {
    const id = await video(60);
    // Entries of the set-up's writes land after their answers.
    await app.auditLogSettled();
    const count = async () => Number((await db(app).selectFrom('sys_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    await report(app, learner, id, { sessionId: newSession(), intervals: [], position: 0 });
    await app.auditLogSettled();
    expect(await count()).toBe(before);
    expect(await db(app).selectFrom('sys_log').select('id').where('description', 'like', '%progress%').execute()).toEqual([]);
  });
});

// The attacks of issue 28 (items 1 and 2), replayed through the API as a hostile learner would.
describe('progress: forged and flooding reports', () => {
  let app: FastifyInstance;
  let clock: SettableClock;
  let teacher: string;
  let learner: string;
  beforeAll(async () => {
    clock = new SettableClock(START);
    app = await buildTestApp({}, { clock });
    teacher = await loginAs(app, 'teacher');
    learner = await loginAs(app, 'learner1');
  });
  afterAll(async () => {
    await app.close();
  });

  /** A video lesson of a course learner1 is enrolled in, and the enrolment's term. */
  async function video(durationSeconds: number, course: Record<string, unknown> = {}) {
    const { chapter, term } = await publishedCourse(app, teacher, { maxPlaybackRate: 2, ...course });
    const id = await createVideoLesson(app, teacher, chapter, durationSeconds);
    await insertApplicant(app, term, 'learner1', 'approved');
    return { id, term };
  }

  const enrolmentStatus = async (term: number) =>
    (await db(app).selectFrom('edu_applicant').select('status').where('term_id', '=', term).where('user_id', '=', await userId(app, 'learner1')).executeTakeFirstOrThrow()).status;

  it('credits 300 reports sent back to back in 2.1 s no more than 2.1 s of clock × the rate + one tolerance', async () => {
    clock.advance(60_000);
    const { id, term } = await video(600);
    const sessionId = newSession();
    let last: ProgressResult | undefined;
    for (let index = 0; index < 300; index += 1) {
      const from = Math.min(index * 2, 595);
      last = await report(app, learner, id, { sessionId, intervals: [[from, from + 5]], position: from + 5 });
      clock.advance(7);
    }
    expect(last?.coveredSeconds).toBeLessThanOrEqual(Math.floor(2.1 * 2 + CLOCK_TOLERANCE_SECONDS));
    expect(last).toMatchObject({ completed: false });
    expect(await enrolmentStatus(term)).toBe('in_progress');
  });

  it('gives a playback made for each report no tolerance of its own', async () => {
    clock.advance(60_000);
    const { id, term } = await video(600);
    let last: ProgressResult | undefined;
    for (let index = 0; index < 300; index += 1) {
      const from = Math.min(index * 2, 595);
      last = await report(app, learner, id, { sessionId: newSession(), intervals: [[from, from + 5]], position: from + 5 });
      clock.advance(7);
    }
    expect(last?.coveredSeconds).toBeLessThanOrEqual(Math.floor(2.1 * 2 + CLOCK_TOLERANCE_SECONDS));
    expect(await enrolmentStatus(term)).toBe('in_progress');
  });

  const storedPieces = async (lessonId: number) => {
    const rows = (await progressRows(app, 'learner1')).filter((row) => row.lesson_id === lessonId);
    return (JSON.parse(rows[0]?.intervals ?? '[]') as unknown[]).length;
  };

  it('keeps no pieces of a microsecond: 150 reports of 200 of them store nothing', async () => {
    clock.advance(60_000);
    const { id } = await video(600);
    const sessionId = newSession();
    await report(app, learner, id, { sessionId, intervals: [], position: 0 });
    for (let index = 0; index < 150; index += 1) {
      clock.advance(1000);
      const base = index * 0.002;
      const intervals = Array.from({ length: 200 }, (_, k): [number, number] => [base + k * 0.00001, base + k * 0.00001 + 0.000001]);
      await report(app, learner, id, { sessionId, intervals, position: 0 });
    }
    expect(await storedPieces(id)).toBe(0);
  });

  it('stores at most MAX_STORED_PIECES pieces of a lesson however it is reported, and coverage joining them still counts', async () => {
    clock.advance(60_000);
    const { id } = await video(100_000, { allowSkip: true });
    const sessionId = newSession();
    await report(app, learner, id, { sessionId, intervals: [], position: 0 });
    for (let index = 0; index < 150; index += 1) {
      // Enough clock for every second claimed: only the cap on pieces stands in the way.
      clock.advance(200_000);
      const intervals = Array.from({ length: 200 }, (_, k): [number, number] => [(index * 200 + k) * 3, (index * 200 + k) * 3 + 1]);
      await report(app, learner, id, { sessionId, intervals, position: 0 });
    }
    expect(await storedPieces(id)).toBe(MAX_STORED_PIECES);
    clock.advance(10_000);
    // Watching on from the end of a stored piece joins it: it counts, and makes no piece of its own.
    const on = await report(app, learner, id, { sessionId, intervals: [[1, 3]], position: 3 });
    expect(on.acceptedSeconds).toBe(2);
    expect(await storedPieces(id)).toBe(MAX_STORED_PIECES - 1);
  });
});

describe('progress: documents and text', () => {
  let app: FastifyInstance;
  let clock: SettableClock;
  let teacher: string;
  let learner: string;
  beforeAll(async () => {
    clock = new SettableClock(START);
    app = await buildTestApp({}, { clock });
    teacher = await loginAs(app, 'teacher');
    learner = await loginAs(app, 'learner1');
  });
  afterAll(async () => {
    await app.close();
  });

  it('counts a page only after it stayed on screen for the dwell; leafing through counts nothing', async () => {
    const { chapter, term } = await publishedCourse(app, teacher);
    const id = await createDocumentLesson(app, teacher, chapter, 3, { completionPercent: 100 });
    await insertApplicant(app, term, 'learner1', 'approved');
    const sessionId = newSession();
    const page = async (number: number, afterSeconds: number) => {
      clock.advance(afterSeconds * 1000);
      return report(app, learner, id, { sessionId, page: number });
    };

    expect(await page(1, 0)).toMatchObject({ pagesRead: [], percent: 0, position: 1, coveredSeconds: 0, acceptedSeconds: 0 });
    expect(await page(2, 2)).toMatchObject({ pagesRead: [], position: 2 });
    expect(await page(3, 1)).toMatchObject({ pagesRead: [], position: 3 });
    // Staying on page 3: its dwell counts from when it was opened, not from the last report.
    expect(await page(3, 3)).toMatchObject({ pagesRead: [] });
    expect(await page(3, PAGE_DWELL_SECONDS - 3)).toMatchObject({ pagesRead: [3], percent: 33, completed: false });
    expect(await page(1, 1)).toMatchObject({ pagesRead: [3] });
    expect(await page(2, PAGE_DWELL_SECONDS + 5)).toMatchObject({ pagesRead: [1, 3], percent: 66 });
    expect(await page(2, PAGE_DWELL_SECONDS)).toMatchObject({ pagesRead: [1, 2, 3], percent: 100, completed: true });
    expect((await lesson(app, learner, id)).progress).toEqual({ coveredSeconds: 0, percent: 100, completed: true, position: 2, pagesRead: [1, 2, 3] });
    expectRefusal(await call(app, 'POST', `/api/site/lessons/${id}/progress`, learner, { sessionId, page: 4 }), 400, 'page');
    expectRefusal(await call(app, 'POST', `/api/site/lessons/${id}/progress`, learner, { sessionId, intervals: [[0, 1]], position: 1 }), 400, 'intervals');
  });

  it('reads a text lesson as one page: open for the dwell, it is complete', async () => {
    const { chapter } = await publishedCourse(app, teacher);
    const id = await createTextLesson(app, teacher, chapter, 'Rules', { preview: true });
    const sessionId = newSession();
    expect(await report(app, learner, id, { sessionId, page: 1 })).toMatchObject({ completed: false, percent: 0 });
    clock.advance(PAGE_DWELL_SECONDS * 1000);
    expect(await report(app, learner, id, { sessionId, page: 1 })).toMatchObject({ completed: true, percent: 100, pagesRead: [1] });
  });

  it('refuses a page report on a video', async () => {
    const { chapter, term } = await publishedCourse(app, teacher);
    const id = await createVideoLesson(app, teacher, chapter, 30);
    await insertApplicant(app, term, 'learner1', 'approved');
    expectRefusal(await call(app, 'POST', `/api/site/lessons/${id}/progress`, learner, { sessionId: newSession(), page: 1 }), 400, 'page');
  });
});

describe('progress: study time', () => {
  let app: FastifyInstance;
  let clock: SettableClock;
  let teacher: string;
  let learner: string;
  let lessonId: number;
  beforeAll(async () => {
    clock = new SettableClock(START);
    app = await buildTestApp({}, { clock });
    teacher = await loginAs(app, 'teacher');
    learner = await loginAs(app, 'learner1');
    const { chapter, term } = await publishedCourse(app, teacher);
    lessonId = await createVideoLesson(app, teacher, chapter, 3600, {});
    await insertApplicant(app, term, 'learner1', 'approved');
  });
  afterAll(async () => {
    await app.close();
  });

  it('adds the time between reports that show watching to today, day after day, capped after a silence', async () => {
    let sessionId = newSession();
    let at = 0;
    const watch = async (afterSeconds: number, seconds = afterSeconds) => {
      clock.advance(afterSeconds * 1000);
      await report(app, learner, lessonId, { sessionId, intervals: [[at, at + seconds]], position: at + seconds });
      at += seconds;
    };
    const open = () => report(app, learner, lessonId, { sessionId, intervals: [], position: at });
    expect(await study(app, learner, 3)).toEqual({
      todaySeconds: 0,
      weekSeconds: 0,
      totalSeconds: 0,
      days: [
        { date: '2026-03-02', seconds: 0 },
        { date: '2026-03-03', seconds: 0 },
        { date: '2026-03-04', seconds: 0 },
      ],
    });

    await open();
    await watch(10);
    await watch(10);
    // Paused, nothing to report: no study time.
    clock.advance(10_000);
    await open();
    // A laptop asleep for ten minutes: at most a minute counts.
    await watch(600, 10);
    expect((await study(app, learner, 1)).todaySeconds).toBe(20 + MAX_STUDY_SECONDS_PER_REPORT);

    // Thursday, the same week: the player opened again (a new login too, the old one idled out).
    clock.set(new Date(2026, 2, 5, 9, 0, 0).getTime());
    learner = await loginAs(app, 'learner1');
    sessionId = newSession();
    await open();
    await watch(5);
    // Next Monday: a new week. The player left open all weekend reports first that it is paused.
    clock.set(new Date(2026, 2, 9, 9, 0, 0).getTime());
    learner = await loginAs(app, 'learner1');
    await open();
    await watch(10);
    expect(await study(app, learner, 8)).toEqual({
      todaySeconds: 10,
      weekSeconds: 10,
      totalSeconds: 20 + MAX_STUDY_SECONDS_PER_REPORT + 5 + 10,
      days: [
        { date: '2026-03-02', seconds: 0 },
        { date: '2026-03-03', seconds: 0 },
        { date: '2026-03-04', seconds: 20 + MAX_STUDY_SECONDS_PER_REPORT },
        { date: '2026-03-05', seconds: 5 },
        { date: '2026-03-06', seconds: 0 },
        { date: '2026-03-07', seconds: 0 },
        { date: '2026-03-08', seconds: 0 },
        { date: '2026-03-09', seconds: 10 },
      ],
    });
    const rows = await db(app).selectFrom('edu_study_day').select(['day', 'seconds']).where('user_id', '=', await userId(app, 'learner1')).orderBy('day').execute();
    expect(rows.map((row) => [row.day, Number(row.seconds)])).toEqual([
      ['2026-03-04', 20 + MAX_STUDY_SECONDS_PER_REPORT],
      ['2026-03-05', 5],
      ['2026-03-09', 10],
    ]);
  });

  it('keeps the week from Monday even when fewer days are asked for', async () => {
    clock.set(new Date(2026, 2, 11, 12, 0, 0).getTime());
    learner = await loginAs(app, 'learner1');
    expect(await study(app, learner, 1)).toMatchObject({ todaySeconds: 0, weekSeconds: 10, days: [{ date: '2026-03-11', seconds: 0 }] });
  });
});

describe('progress: courses, mine and in the catalogue', () => {
  let app: FastifyInstance;
  let clock: SettableClock;
  let teacher: string;
  let learner: string;
  beforeAll(async () => {
    clock = new SettableClock(START);
    app = await buildTestApp({}, { clock });
    teacher = await loginAs(app, 'teacher');
    learner = await loginAs(app, 'learner1');
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers a course with its outline and my progress, its terms with their seats, my enrolment, and where to go on', async () => {
    const { course, chapter, term } = await publishedCourse(app, teacher, { title: 'Forklifts', summary: 'Drive safely', description: '<p>All about it</p>' });
    const empty = await createChapter(app, teacher, course, 'Later');
    const full = await createTerm(app, teacher, course, { name: 'Full', capacity: 1 });
    const open = await createTerm(app, teacher, course, { name: 'Open', capacity: 5 });
    const intro = await createTextLesson(app, teacher, chapter, 'Intro', { required: false, preview: true });
    const rules = await createTextLesson(app, teacher, chapter, 'Rules');
    const drive = await createVideoLesson(app, teacher, chapter, 8, { title: 'Drive' });
    await insertApplicant(app, full, 'learner2', 'in_progress');
    await insertApplicant(app, open, 'learner3', 'applied');
    await insertApplicant(app, open, 'learner2', 'rejected');

    const before = await courseDetail(app, learner, course);
    expect(before).toMatchObject({
      id: course,
      title: 'Forklifts',
      summary: 'Drive safely',
      description: '<p>All about it</p>',
      maxPlaybackRate: 2,
      allowSkip: false,
      chapterCount: 2,
      lessonCount: 3,
      enrolment: null,
      mayStudy: false,
      progress: { percent: 0, completedLessons: 0, requiredLessons: 2, completed: false, nextLessonId: rules },
    });
    expect(before.outline).toEqual([
      {
        id: chapter,
        title: 'Chapter',
        lessons: [
          { id: intro, title: 'Intro', type: 'text', durationSeconds: null, pages: null, completionPercent: 90, preview: true, required: false, progress: null },
          { id: rules, title: 'Rules', type: 'text', durationSeconds: null, pages: null, completionPercent: 90, preview: false, required: true, progress: null },
          { id: drive, title: 'Drive', type: 'video', durationSeconds: 8, pages: null, completionPercent: 90, preview: false, required: true, progress: null },
        ],
      },
      { id: empty, title: 'Later', lessons: [] },
    ]);
    expect(before.terms.map((t) => [t.name, t.capacity, t.seatsLeft])).toEqual([
      ['2026 spring', null, null],
      ['Full', 1, 0],
      ['Open', 5, 5],
    ]);

    // Applied, turned down, applied again and enrolled: the newest application stands.
    await insertApplicant(app, term, 'learner1', 'rejected');
    await db(app).updateTable('edu_applicant').set({ reason: 'full' }).where('user_id', '=', await userId(app, 'learner1')).execute();
    expect((await courseDetail(app, learner, course)).enrolment).toMatchObject({ termId: term, status: 'rejected', reason: 'full', overdue: false });
    await insertApplicant(app, open, 'learner1', 'approved');
    await db(app)
      .updateTable('edu_applicant')
      .set({ due_at: START - 1000 })
      .where('user_id', '=', await userId(app, 'learner1'))
      .where('term_id', '=', open)
      .execute();
    const enrolled = await courseDetail(app, learner, course);
    expect(enrolled).toMatchObject({ mayStudy: true, enrolment: { termId: open, status: 'approved', source: 'staff', overdue: true, reason: null } });
    expect(enrolled.terms.find((t) => t.id === open)?.seatsLeft).toBe(4);

    // Studying: the optional lesson does not count, the required ones do.
    const text = newSession();
    await report(app, learner, intro, { sessionId: text, page: 1 });
    clock.advance(PAGE_DWELL_SECONDS * 1000);
    await report(app, learner, intro, { sessionId: text, page: 1 });
    await report(app, learner, rules, { sessionId: text, page: 1 });
    clock.advance(PAGE_DWELL_SECONDS * 1000);
    await report(app, learner, rules, { sessionId: text, page: 1 });
    const halfway = await courseDetail(app, learner, course);
    expect(halfway.progress).toEqual({ percent: 50, completedLessons: 1, requiredLessons: 2, completed: false, nextLessonId: drive });
    expect(halfway.outline[0]?.lessons.map((l) => l.progress)).toEqual([{ percent: 100, completed: true }, { percent: 100, completed: true }, null]);

    const watch = newSession();
    await report(app, learner, drive, { sessionId: watch, intervals: [], position: 0 });
    clock.advance(10_000);
    await report(app, learner, drive, { sessionId: watch, intervals: [[0, 8]], position: 8 });
    expect((await courseDetail(app, learner, course)).progress).toEqual({ percent: 100, completedLessons: 2, requiredLessons: 2, completed: true, nextLessonId: intro });

    const mine = await call(app, 'GET', '/api/site/my/courses', learner);
    expect(mine.statusCode, mine.body).toBe(200);
    const [first] = myCoursesSchema.parse(mine.json());
    expect(first).toMatchObject({
      courseId: course,
      title: 'Forklifts',
      termId: open,
      termName: 'Open',
      // Completing the course completed the enrolment (the applicants module listens).
      status: 'completed',
      progress: { completed: true, percent: 100 },
      lastStudiedAt: expect.stringMatching(/^2026-03-04 10:00:/),
    });
  });

  it('lists my courses, the most recently studied first, each once, and nobody else’s', async () => {
    const learner3 = await loginAs(app, 'learner3');
    const made = [await publishedCourse(app, teacher, { title: 'One' }), await publishedCourse(app, teacher, { title: 'Two' })];
    const lessons = [await createTextLesson(app, teacher, made[0]!.chapter, 'L1'), await createTextLesson(app, teacher, made[1]!.chapter, 'L2')];
    for (const { term } of made) await insertApplicant(app, term, 'learner3', 'approved');
    const titles = async () => myCoursesSchema.parse((await call(app, 'GET', '/api/site/my/courses', learner3)).json()).map((c) => c.title);
    const before = await titles();
    expect(before.filter((title) => title === 'One' || title === 'Two')).toHaveLength(2);

    clock.advance(60_000);
    await report(app, learner3, lessons[0]!, { sessionId: newSession(), page: 1 });
    expect((await titles())[0]).toBe('One');
    clock.advance(60_000);
    await report(app, learner3, lessons[1]!, { sessionId: newSession(), page: 1 });
    const after = myCoursesSchema.parse((await call(app, 'GET', '/api/site/my/courses', learner3)).json());
    expect(after.map((c) => c.title).slice(0, 2)).toEqual(['Two', 'One']);
    expect(new Set(after.map((c) => c.courseId)).size).toBe(after.length);
    expect(after.find((c) => c.title === 'Two')?.progress).toMatchObject({ percent: 0, requiredLessons: 1, nextLessonId: lessons[1] });

    const other = await loginAs(app, 'learner2');
    const theirs = myCoursesSchema.parse((await call(app, 'GET', '/api/site/my/courses', other)).json());
    expect(theirs.some((c) => c.title === 'One' || c.title === 'Two')).toBe(false);
  });
});

describe('progress: telling the enrolment', () => {
  let app: FastifyInstance;
  let clock: SettableClock;
  let teacher: string;
  beforeAll(async () => {
    clock = new SettableClock(START);
    app = await buildTestApp({}, { clock });
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
  });

  it('tells the listener inside the report’s transaction whenever an enrolled learner studies, and when the course completes', async () => {
    const { chapter, term } = await publishedCourse(app, teacher);
    const first = await createTextLesson(app, teacher, chapter, 'First');
    const second = await createTextLesson(app, teacher, chapter, 'Second');
    const optional = await createTextLesson(app, teacher, chapter, 'Optional', { required: false, preview: true });
    const learner = await userId(app, 'learner1');
    const heard: [number, number, boolean][] = [];
    let fail = false;
    const listener: CourseProgressListener = async (user, courseId, { completed }, trx) => {
      // The transaction sees the report's own writes.
      expect(await trx.selectFrom('edu_lesson_progress').select('id').where('user_id', '=', user).execute()).not.toEqual([]);
      heard.push([user, courseId, completed]);
      if (fail) throw new Error('the listener failed');
    };
    const progress = new ProgressService({ db: db(app), clock, timeZone: app.services.config.timeZone, courses: app.services.courses, onCourseProgress: listener });
    const courseId = (await db(app).selectFrom('edu_chapter').select('course_id').where('id', '=', chapter).executeTakeFirstOrThrow()).course_id;

    // A preview studied before enrolling tells nobody.
    await progress.report(learner, optional, { sessionId: 'tab-one-1', page: 1 });
    clock.advance(10_000);
    await progress.report(learner, optional, { sessionId: 'tab-one-1', page: 1 });
    expect(heard).toEqual([]);

    await insertApplicant(app, term, 'learner1', 'approved');
    const read = async (lessonId: number) => {
      await progress.report(learner, lessonId, { sessionId: `tab-${lessonId}-x`, page: 1 });
      clock.advance(10_000);
      return progress.report(learner, lessonId, { sessionId: `tab-${lessonId}-x`, page: 1 });
    };
    await read(first);
    expect(heard).toEqual([[learner, courseId, false]]);

    // A failing listener undoes the whole report.
    fail = true;
    await progress.report(learner, second, { sessionId: 'tab-two-22', page: 1 });
    clock.advance(10_000);
    await expect(progress.report(learner, second, { sessionId: 'tab-two-22', page: 1 })).rejects.toThrow('the listener failed');
    const row = await db(app).selectFrom('edu_lesson_progress').selectAll().where('user_id', '=', learner).where('lesson_id', '=', second).executeTakeFirstOrThrow();
    expect(row.completed_at).toBeNull();
    const playback = await db(app).selectFrom('edu_playback').selectAll().where('session_key', '=', 'tab-two-22').executeTakeFirstOrThrow();
    expect(Number(playback.last_report_at)).toBe(clock.now() - 10_000);
    fail = false;

    heard.length = 0;
    expect((await progress.report(learner, second, { sessionId: 'tab-two-22', page: 1 })).completed).toBe(true);
    expect(heard).toEqual([[learner, courseId, true]]);
  });
});
