import { censusRowSchema, censusUserSchema, type CensusRow, type CensusUser } from '@cloud-classroom/shared/census';
import { pageOf, type Page } from '@cloud-classroom/shared/http';
import { PAGE_DWELL_SECONDS } from '@cloud-classroom/shared/progress-rules';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettableClock } from '../../clock.js';
import { deptId, insertPeople } from '../../test/applicant-fixtures.js';
import { createChapter, createCourse, createTerm, createTextLesson, created, db, userId } from '../../test/course-fixtures.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { insertExamWith } from '../../test/question-fixtures.js';
import { migrateUpTo } from '../../db/migrate.js';
import { reseed } from '../../db/seed/seed.js';
import { LocalFileStore } from '../../files/local-file-store.js';
import { buildTestApp, call, loginAs, openBlankTestDatabase, TEST_PASSWORD, testConfig } from '../../test/test-app.js';

// Wednesday 4 March 2026, 10:00 in Shanghai (the default TZ), 02:00 UTC.
const START = Date.UTC(2026, 2, 4, 2, 0, 0);
const DAY_MS = 86_400_000;

let sessions = 0;
const newSession = () => `census-${(sessions += 1).toString().padStart(4, '0')}`;

async function list(app: FastifyInstance, token: string, query = ''): Promise<Page<CensusRow>> {
  const response = await call(app, 'GET', `/api/census/users${query}`, token);
  expect(response.statusCode, response.body).toBe(200);
  const parsed = pageOf(censusRowSchema).parse(response.json());
  expect(response.json()).toEqual(parsed);
  return parsed;
}

async function record(app: FastifyInstance, token: string, id: number, query = ''): Promise<CensusUser> {
  const response = await call(app, 'GET', `/api/census/users/${id}${query}`, token);
  expect(response.statusCode, response.body).toBe(200);
  const parsed = censusUserSchema.parse(response.json());
  expect(response.json()).toEqual(parsed);
  return parsed;
}

async function workbookOf(payload: Buffer): Promise<Map<string, unknown[][]>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(payload as unknown as ArrayBuffer);
  const sheets = new Map<string, unknown[][]>();
  for (const sheet of workbook.worksheets) {
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    sheets.set(sheet.name, rows);
  }
  return sheets;
}

/** A published course of `lessons` text lessons (`optional` of them not required) and two terms. */
async function publishedCourse(app: FastifyInstance, token: string, title: string, lessons: number, optional = 0) {
  const course = await createCourse(app, token, { title, status: 'published' });
  const chapter = await createChapter(app, token, course);
  const lessonIds: number[] = [];
  for (let index = 0; index < lessons; index += 1) {
    lessonIds.push(await createTextLesson(app, token, chapter, `Lesson ${index + 1}`, index < optional ? { required: false } : {}));
  }
  const terms = [await createTerm(app, token, course), await createTerm(app, token, course, { name: '2026 autumn' })];
  return { course, lessonIds, terms };
}

async function enrol(app: FastifyInstance, token: string, termId: number, userIds: number[]): Promise<void> {
  const response = await call(app, 'POST', '/api/applicants', token, { termId, userIds });
  expect(response.statusCode, response.body).toBe(201);
}

/** Reads a text lesson's page through the dwell, so the lesson completes; answers the status of the reports. */
async function readLesson(app: FastifyInstance, clock: SettableClock, token: string, lessonId: number): Promise<number> {
  const sessionId = newSession();
  const first = await call(app, 'POST', `/api/site/lessons/${lessonId}/progress`, token, { sessionId, page: 1 });
  if (first.statusCode !== 200) return first.statusCode;
  clock.advance((PAGE_DWELL_SECONDS + 5) * 1000);
  const second = await call(app, 'POST', `/api/site/lessons/${lessonId}/progress`, token, { sessionId, page: 1 });
  expect(second.statusCode, second.body).toBe(200);
  return 200;
}

let certificates = 0;
async function insertCertificate(app: FastifyInstance, userId: number, issuedAt: number, state: 'held' | 'revoked' | 'superseded' = 'held'): Promise<number> {
  certificates += 1;
  const { id } = await db(app)
    .insertInto('edu_certificate')
    .values({
      template_id: 1,
      template_version_id: 1,
      user_id: userId,
      number: `CC-TEST-${certificates}`,
      code: `code${String(certificates).padStart(8, '0')}`,
      snapshot: '{}',
      holder_name: 'Holder',
      title: `Certificate ${certificates}`,
      source: 'staff',
      exam_id: null,
      term_id: null,
      issued_at: issuedAt,
      expires_at: null,
      revoked_at: state === 'revoked' ? issuedAt + 1000 : null,
      revoked_by: state === 'revoked' ? 'admin' : null,
      revoke_reason: state === 'revoked' ? 'test' : null,
      superseded_by: state === 'superseded' ? 999_999 : null,
      superseded_at: state === 'superseded' ? issuedAt + 1000 : null,
      supersedes: null,
      create_by: 'admin',
      create_time: issuedAt,
      rule_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

async function insertAttemptRow(app: FastifyInstance, examId: number, userId: number, startedAt: number, outcome: 'passed' | 'failed' | 'marking' | 'in_progress'): Promise<void> {
  const previous = await db(app).selectFrom('edu_attempt').select('number').where('exam_id', '=', examId).where('user_id', '=', userId).orderBy('number', 'desc').executeTakeFirst();
  const graded = outcome === 'passed' || outcome === 'failed';
  await db(app)
    .insertInto('edu_attempt')
    .values({
      exam_id: examId,
      user_id: userId,
      number: (previous?.number ?? 0) + 1,
      state: graded ? 'graded' : outcome,
      started_at: startedAt,
      deadline: null,
      submitted_at: outcome === 'in_progress' ? null : startedAt + 60_000,
      submitted_by: outcome === 'in_progress' ? null : 'learner',
      score: graded ? (outcome === 'passed' ? 90 : 20) : null,
      passed: graded ? (outcome === 'passed' ? 1 : 0) : null,
      paper: '{}',
      ip: '127.0.0.1',
      agent: 'test',
      update_time: startedAt,
    })
    .execute();
}

// ---- Who may call ---------------------------------------------------------------------------------

describe('census: who may call', () => {
  const { app } = itRefusesOutsiders([
    ['GET', '/api/census/users'],
    ['GET', '/api/census/users/download'],
    ['GET', '/api/census/users/1'],
    ['GET', '/api/census/users/1/download'],
  ]);

  it.each([
    ['/api/census/users?from=2026-13-01', 'from'],
    ['/api/census/users?from=2026-03-10&to=2026-03-01', 'to'],
    ['/api/census/users?sort=password,asc', 'sort'],
    ['/api/census/users?deptId=x', 'deptId'],
    ['/api/census/users?courseId=0', 'courseId'],
    ['/api/census/users/download?to=yesterday', 'to'],
    ['/api/census/users/abc', 'id'],
    ['/api/census/users/1?from=2026-02-30', 'from'],
    ['/api/census/users/1/download?from=2026-03-10&to=2026-03-01', 'to'],
    ['/api/census/users/1?from=2000-01-01&to=2026-01-01', 'to'],
  ])('GET %s is a 400 naming %s', async (url, field) => {
    const admin = await loginAs(app(), 'admin');
    const response = await call(app(), 'GET', url, admin);
    expect(response.statusCode, response.body).toBe(400);
    expect((response.json() as { message: string }).message.startsWith(`${field}: `)).toBe(true);
  });

  it('answers a person who does not exist as 404', async () => {
    const admin = await loginAs(app(), 'admin');
    expect((await call(app(), 'GET', '/api/census/users/999999', admin)).statusCode).toBe(404);
    expect((await call(app(), 'GET', '/api/census/users/999999/download', admin)).statusCode).toBe(404);
  });
});

// ---- Figures, scope and workbooks ------------------------------------------------------------------

describe('census: figures', () => {
  let app: FastifyInstance;
  let clock: SettableClock;
  let admin: string;
  let teacher: string;
  let learner1: number;
  let learner2: number;
  let courseA: Awaited<ReturnType<typeof publishedCourse>>;

  beforeAll(async () => {
    clock = new SettableClock(START);
    app = await buildTestApp({}, { clock });
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');
    learner1 = await userId(app, 'learner1');
    learner2 = await userId(app, 'learner2');
    courseA = await publishedCourse(app, admin, 'Fire safety', 3, 1);
    const courseB = await publishedCourse(app, admin, 'First aid', 1);
    await enrol(app, admin, courseA.terms[0] as number, [learner1, learner2]);
    await enrol(app, admin, courseB.terms[0] as number, [learner1]);
    const token = await loginAs(app, 'learner1');
    // Two required lessons of three: the first completes half the course; the optional one counts for nothing.
    expect(await readLesson(app, clock, token, courseA.lessonIds[1] as number)).toBe(200);
    expect(await readLesson(app, clock, token, courseA.lessonIds[0] as number)).toBe(200);
    // The other course completes, the next day (on a new session: the first ended after four idle hours).
    clock.advance(DAY_MS);
    expect(await readLesson(app, clock, await loginAs(app, 'learner1'), courseB.lessonIds[0] as number)).toBe(200);
    const exam = await insertExamWith(app, 'Safety exam', []);
    await insertAttemptRow(app, exam, learner1, START + 3_600_000, 'failed');
    await insertAttemptRow(app, exam, learner1, START + 7_200_000, 'passed');
    // Outside the days asked below.
    await insertAttemptRow(app, await insertExamWith(app, 'Old exam', []), learner1, START - 40 * DAY_MS, 'passed');
    await insertCertificate(app, learner1, START);
    await insertCertificate(app, learner1, START, 'revoked');
    // Sessions end after four idle hours of the clock, which moved a day.
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');
  });

  afterAll(async () => {
    await app.close();
  });

  it('keeps a summary row per person and course as the enrolments and progress are written', async () => {
    const rows = await db(app).selectFrom('edu_census_course').selectAll().where('user_id', '=', learner1).orderBy('course_id').execute();
    expect(rows.map((row) => [row.status, Number(row.completed_lessons), row.completed_at === null])).toEqual([
      ['in_progress', 1, true],
      ['completed', 1, false],
    ]);
  });

  it("shows a person's record: study per day, courses, attempts in the days asked, certificates, logins", async () => {
    const found = await record(app, admin, learner1, '?from=2026-03-01&to=2026-03-07');
    expect(found.days).toHaveLength(7);
    expect(found.days.find((day) => day.day === '2026-03-04')?.seconds).toBeGreaterThan(0);
    expect(found.days.find((day) => day.day === '2026-03-05')?.seconds).toBeGreaterThan(0);
    expect(found.person.studySeconds).toBe(found.days.reduce((sum, day) => sum + day.seconds, 0));
    expect(found.courses.map((course) => [course.title, course.status, course.percent, course.completedLessons, course.requiredLessons])).toEqual([
      ['First aid', 'completed', 100, 1, 1],
      ['Fire safety', 'in_progress', 50, 1, 2],
    ]);
    expect(found.attempts.map((attempt) => [attempt.examTitle, attempt.number, attempt.passed])).toEqual([
      ['Safety exam', 2, true],
      ['Safety exam', 1, false],
    ]);
    expect(found.certificates.map((certificate) => certificate.status).sort()).toEqual(['revoked', 'valid']);
    expect(found.logins.length).toBeGreaterThan(0);
    expect(found.person).toMatchObject({ username: 'learner1', coursesEnrolled: 2, coursesCompleted: 1, examsAttempted: 1, examsPassed: 1, certificates: 1 });
    expect(found.person.lastLoginAt).not.toBeNull();
  });

  it('covers the last 30 days up to today by default', async () => {
    const found = await record(app, admin, learner1);
    expect(found.days).toHaveLength(30);
    expect(found.to).toBe('2026-03-05');
    expect(found.from).toBe('2026-02-04');
  });

  it('lists people with the same figures, filtered by course and department, sorted by a figure', async () => {
    const everyone = await list(app, admin, '?size=100&from=2026-03-01&to=2026-03-07');
    const row = everyone.content.find((person) => person.userId === learner1);
    const found = await record(app, admin, learner1, '?from=2026-03-01&to=2026-03-07');
    expect(row).toEqual(found.person);
    const ofCourse = await list(app, admin, `?courseId=${courseA.course}`);
    expect(ofCourse.content.map((person) => person.username).sort()).toEqual(['learner1', 'learner2']);
    expect(ofCourse.content.find((person) => person.userId === learner1)).toMatchObject({ coursesEnrolled: 1, coursesCompleted: 0 });
    const market = await list(app, admin, `?deptId=${await deptId(app, '市场部')}`);
    expect(market.content.map((person) => person.username)).toEqual(['learner2']);
    const sorted = await list(app, admin, '?sort=studySeconds,desc&size=1');
    expect(sorted.content[0]?.username).toBe('learner1');
    expect(sorted.totalElements).toBe(everyone.totalElements);
  });

  it("hides other departments' people from a teacher scoped to a subtree", async () => {
    const seen = await list(app, teacher, '?size=100');
    const names = seen.content.map((person) => person.username);
    expect(names).toContain('learner1');
    expect(names).not.toContain('learner2');
    expect(seen.totalElements).toBe(seen.content.length);
    const market = await list(app, teacher, `?deptId=${await deptId(app, '市场部')}`);
    expect(market.totalElements).toBe(0);
    // Counted, not shown: the page says someone is there outside the teacher's departments.
    expect(market.outsideScope).toBeGreaterThanOrEqual(1);
    expect((await call(app, 'GET', `/api/census/users/${learner2}`, teacher)).statusCode).toBe(404);
    expect((await call(app, 'GET', `/api/census/users/${learner2}/download`, teacher)).statusCode).toBe(404);
    const download = await call(app, 'GET', '/api/census/users/download', teacher);
    const rows = (await workbookOf(download.rawPayload)).get('学员统计') ?? [];
    expect(rows.map((cells) => cells[1])).not.toContain('learner2');
  });

  it("downloads the person's record as a workbook holding the figures shown, a sheet per section", async () => {
    const query = '?from=2026-03-01&to=2026-03-07';
    const found = await record(app, admin, learner1, query);
    const response = await call(app, 'GET', `/api/census/users/${learner1}/download${query}`, admin);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const sheets = await workbookOf(response.rawPayload);
    expect([...sheets.keys()]).toEqual(['概览', '每日学习', '课程', '考试', '证书', '登录']);
    const summary = sheets.get('概览')?.[1] ?? [];
    expect(summary.slice(0, 11)).toEqual([
      learner1,
      'learner1',
      found.person.nickName,
      found.person.deptName,
      found.person.studySeconds,
      2,
      1,
      1,
      1,
      1,
      found.person.lastLoginAt,
    ]);
    expect(sheets.get('每日学习')?.slice(1)).toEqual(found.days.map((day) => [day.day, day.seconds]));
    expect(sheets.get('课程')?.slice(1).map((cells) => [cells[1], cells[5]])).toEqual(found.courses.map((course) => [course.title, course.percent]));
    expect(sheets.get('考试')?.slice(1).map((cells) => [cells[1], cells[6]])).toEqual(found.attempts.map((attempt) => [attempt.examTitle, attempt.score]));
    expect(sheets.get('证书')?.slice(1).map((cells) => cells[0])).toEqual(found.certificates.map((certificate) => certificate.number));
    expect(sheets.get('登录')?.length).toBe(found.logins.length + 1);
  });

  it('downloads the list as a workbook with the rows the list shows', async () => {
    const query = '?from=2026-03-01&to=2026-03-07&sort=username,asc';
    const shown = await list(app, admin, `${query}&size=100`);
    const response = await call(app, 'GET', `/api/census/users/download${query}`, admin);
    expect(response.statusCode).toBe(200);
    const rows = (await workbookOf(response.rawPayload)).get('学员统计') ?? [];
    expect(rows[0]?.[1]).toBe('用户名');
    expect(rows.slice(1).map((cells) => cells.slice(0, 10))).toEqual(
      shown.content.map((person) => [
        person.userId,
        person.username,
        person.nickName,
        person.deptName ?? undefined,
        person.studySeconds,
        person.coursesEnrolled,
        person.coursesCompleted,
        person.examsAttempted,
        person.examsPassed,
        person.certificates,
      ]),
    );
  });
});

// ---- The summary equals a recount ------------------------------------------------------------------

/** A small seeded generator, so a failing sequence can be run again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Expected = { user_id: number; course_id: number; status: string; enrolled_at: number; completed_at: number | null; completed_lessons: number };

/** The census rows as they should be, counted in the test from the enrolments and lesson progress. */
async function recount(app: FastifyInstance): Promise<Expected[]> {
  const applicants = await db(app).selectFrom('edu_applicant as a').innerJoin('edu_term as t', 't.id', 'a.term_id').select(['a.user_id', 't.course_id', 'a.status', 'a.create_time', 'a.completed_at']).execute();
  const progress = await db(app)
    .selectFrom('edu_lesson_progress as p')
    .innerJoin('edu_lesson as l', 'l.id', 'p.lesson_id')
    .select(['p.user_id', 'p.course_id', 'l.required', 'p.completed_at'])
    .execute();
  const rank = { approved: 0, in_progress: 1, completed: 2 } as Record<string, number>;
  const rows = new Map<string, Expected>();
  for (const applicant of applicants) {
    if (rank[applicant.status] === undefined) continue;
    const key = `${applicant.user_id}:${applicant.course_id}`;
    const row = rows.get(key) ?? { user_id: applicant.user_id, course_id: applicant.course_id, status: 'approved', enrolled_at: Infinity, completed_at: null, completed_lessons: 0 };
    if ((rank[applicant.status] as number) > (rank[row.status] as number)) row.status = applicant.status;
    row.enrolled_at = Math.min(row.enrolled_at, Number(applicant.create_time));
    if (applicant.status === 'completed' && applicant.completed_at !== null) {
      row.completed_at = row.completed_at === null ? Number(applicant.completed_at) : Math.min(row.completed_at, Number(applicant.completed_at));
    }
    rows.set(key, row);
  }
  for (const lesson of progress) {
    const row = rows.get(`${lesson.user_id}:${lesson.course_id}`);
    if (row !== undefined && lesson.required === 1 && lesson.completed_at !== null) row.completed_lessons += 1;
  }
  return [...rows.values()].sort((a, b) => a.user_id - b.user_id || a.course_id - b.course_id);
}

describe('census: the summary after any sequence of writes', () => {
  let app: FastifyInstance;
  let clock: SettableClock;

  beforeAll(async () => {
    clock = new SettableClock(START);
    app = await buildTestApp({}, { clock });
  });

  afterAll(async () => {
    await app.close();
  });

  it('counts a course again when its outline changes what completing it takes', async () => {
    const admin = await loginAs(app, 'admin');
    const course = await publishedCourse(app, admin, 'Outline', 3);
    const [person] = await insertPeople(app, 1);
    if (person === undefined) throw new Error('no person');
    await enrol(app, admin, course.terms[0] as number, [person.id]);
    const token = await loginAs(app, person.username);
    expect(await readLesson(app, clock, token, course.lessonIds[0] as number)).toBe(200);
    expect(await readLesson(app, clock, token, course.lessonIds[1] as number)).toBe(200);
    const kept = async () =>
      Number((await db(app).selectFrom('edu_census_course').select('completed_lessons').where('user_id', '=', person.id).where('course_id', '=', course.course).executeTakeFirstOrThrow()).completed_lessons);
    expect(await kept()).toBe(2);
    const lesson = (await call(app, 'GET', `/api/lessons/${course.lessonIds[0]}`, admin)).json() as { chapterId: number; title: string; type: string; content: string };
    const made = await call(app, 'PUT', '/api/lessons', admin, { id: course.lessonIds[0], chapterId: lesson.chapterId, title: lesson.title, type: lesson.type, content: lesson.content, required: false });
    expect(made.statusCode, made.body).toBeLessThan(300);
    expect(await kept()).toBe(1);
    expect((await call(app, 'DELETE', '/api/lessons', admin, [course.lessonIds[1]])).statusCode).toBeLessThan(300);
    expect(await kept()).toBe(0);
    const [row] = (await record(app, admin, person.id)).courses;
    expect(row).toMatchObject({ completedLessons: 0, requiredLessons: 1, percent: 0 });
  });

  it.each([1, 2, 3])('equals a recount from the raw rows (seed %i), and so do the list figures', async (seed) => {
    const next = random(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const admin = await loginAs(app, 'admin');
    const courses = [await publishedCourse(app, admin, `Course ${seed}a`, 3, 1), await publishedCourse(app, admin, `Course ${seed}b`, 2)];
    const people = await insertPeople(app, 4);
    const sessionsOf = new Map<string, { token: string; used: number }>([['admin', { token: admin, used: clock.now() }]]);
    // Sessions end after four idle hours of the clock: a token unused for three is replaced.
    const tokenOf = async (username: string): Promise<string> => {
      const known = sessionsOf.get(username);
      const token = known !== undefined && clock.now() - known.used < 3 * 3_600_000 ? known.token : await loginAs(app, username);
      sessionsOf.set(username, { token, used: clock.now() });
      return token;
    };
    const exams = [await insertExamWith(app, `Exam ${seed}a`, []), await insertExamWith(app, `Exam ${seed}b`, [])];
    const statuses = ['applied', 'approved', 'rejected', 'in_progress', 'completed'] as const;

    for (let step = 0; step < 60; step += 1) {
      clock.advance(Math.floor(next() * 6 * 3_600_000));
      const person = pick(people);
      const course = pick(courses);
      const action = next();
      if (action < 0.25) {
        await enrol(app, await tokenOf('admin'), pick(course.terms), [person.id]);
      } else if (action < 0.45) {
        await readLesson(app, clock, await tokenOf(person.username), pick(course.lessonIds));
      } else if (action < 0.7) {
        const rows = await db(app).selectFrom('edu_applicant').select('id').where('user_id', '=', person.id).execute();
        if (rows.length === 0) continue;
        const id = pick(rows).id;
        if (action < 0.6) {
          const response = await call(app, 'PUT', '/api/applicants', await tokenOf('admin'), { id, status: pick(statuses) });
          expect([204, 409, 200]).toContain(response.statusCode);
        } else {
          expect((await call(app, 'DELETE', '/api/applicants', await tokenOf('admin'), [id])).statusCode).toBeLessThan(300);
        }
      } else if (action < 0.78) {
        // The outline changes what completing the course takes: a lesson made optional or required, now and then one deleted.
        const lessonId = pick(course.lessonIds);
        const token = await tokenOf('admin');
        const found = await call(app, 'GET', `/api/lessons/${lessonId}`, token);
        if (found.statusCode === 404) continue;
        const lesson = found.json() as { chapterId: number; title: string; type: string; content: string; completionPercent: number; preview: boolean; required: boolean };
        if (next() < 0.15) {
          expect((await call(app, 'DELETE', '/api/lessons', token, [lessonId])).statusCode).toBeLessThan(300);
        } else {
          const { chapterId, title, type, content, completionPercent, preview, required } = lesson;
          const response = await call(app, 'PUT', '/api/lessons', token, { id: lessonId, chapterId, title, type, content, completionPercent, preview, required: !required });
          expect(response.statusCode, response.body).toBeLessThan(300);
        }
      } else if (action < 0.88) {
        await insertAttemptRow(app, pick(exams), person.id, clock.now(), pick(['passed', 'failed', 'marking', 'in_progress'] as const));
      } else {
        await insertCertificate(app, person.id, clock.now(), pick(['held', 'revoked', 'superseded'] as const));
      }
    }

    const kept = await db(app)
      .selectFrom('edu_census_course')
      .select(['user_id', 'course_id', 'status', 'enrolled_at', 'completed_at', 'completed_lessons'])
      .orderBy('user_id')
      .orderBy('course_id')
      .execute();
    expect(
      kept.map((row) => ({ ...row, enrolled_at: Number(row.enrolled_at), completed_at: row.completed_at === null ? null : Number(row.completed_at), completed_lessons: Number(row.completed_lessons) })),
    ).toEqual(await recount(app));

    // The list's figures, all time, against the raw rows of each person.
    const shown = await list(app, await tokenOf('admin'), `?size=100&blurry=person`);
    const expected = await recount(app);
    for (const person of people) {
      const row = shown.content.find((one) => one.userId === person.id);
      const mine = expected.filter((one) => one.user_id === person.id);
      const attempts = await db(app).selectFrom('edu_attempt').select(['exam_id', 'state', 'passed']).where('user_id', '=', person.id).execute();
      const held = await db(app).selectFrom('edu_certificate').select('id').where('user_id', '=', person.id).where('revoked_at', 'is', null).where('superseded_by', 'is', null).execute();
      const studied = await db(app).selectFrom('edu_study_day').select('seconds').where('user_id', '=', person.id).execute();
      expect(row).toMatchObject({
        coursesEnrolled: mine.length,
        coursesCompleted: mine.filter((one) => one.completed_at !== null).length,
        examsAttempted: new Set(attempts.map((attempt) => attempt.exam_id)).size,
        examsPassed: new Set(attempts.filter((attempt) => attempt.state === 'graded' && attempt.passed === 1).map((attempt) => attempt.exam_id)).size,
        certificates: held.length,
        studySeconds: studied.reduce((sum, day) => sum + Number(day.seconds), 0),
      });
    }
  });
});

describe('census: the demo', () => {
  it('fills the summary of the demo enrolments and progress as the writers would', async () => {
    const app = await buildTestApp();
    try {
      await reseed(db(app), TEST_PASSWORD, new LocalFileStore(app.services.config.dataDir));
      const kept = await db(app).selectFrom('edu_census_course').select(['user_id', 'course_id', 'status', 'enrolled_at', 'completed_at', 'completed_lessons']).orderBy('user_id').orderBy('course_id').execute();
      const expected = await recount(app);
      expect(expected.length).toBeGreaterThan(0);
      expect(
        kept.map((row) => ({ ...row, enrolled_at: Number(row.enrolled_at), completed_at: row.completed_at === null ? null : Number(row.completed_at), completed_lessons: Number(row.completed_lessons) })),
      ).toEqual(expected);
      const learner1 = (await list(app, await loginAs(app, 'admin'), '?blurry=learner1')).content[0];
      expect(learner1?.coursesEnrolled).toBeGreaterThan(0);
      expect(learner1?.studySeconds).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  }, 90_000);
});

// ---- The organisation's zone ------------------------------------------------------------------------

describe('census: days in the organisation’s zone', () => {
  it('buckets study time into the calendar day of TZ, not of the machine', async () => {
    // 23:30 UTC on 4 March is already 5 March in Shanghai and still 4 March in New York.
    const late = Date.UTC(2026, 2, 4, 23, 30, 0);
    for (const [timeZone, day] of [
      ['Asia/Shanghai', '2026-03-05'],
      ['America/New_York', '2026-03-04'],
    ] as const) {
      const clock = new SettableClock(late);
      const app = await buildTestApp({ timeZone }, { clock });
      try {
        const admin = await loginAs(app, 'admin');
        const course = await publishedCourse(app, admin, 'Zones', 1);
        const learner = await userId(app, 'learner1');
        await enrol(app, admin, course.terms[0] as number, [learner]);
        await readLesson(app, clock, await loginAs(app, 'learner1'), course.lessonIds[0] as number);
        const days = await db(app).selectFrom('edu_study_day').select(['day', 'seconds']).where('user_id', '=', learner).execute();
        expect(days).toEqual([{ day, seconds: PAGE_DWELL_SECONDS + 5 }]);
        const found = await record(app, admin, learner);
        expect(found.to).toBe(day);
        expect(found.days.at(-1)).toEqual({ day, seconds: PAGE_DWELL_SECONDS + 5 });
      } finally {
        await app.close();
      }
    }
  });

  it('shows a certificate valid until the day it prints, the one the certificate list and the public check name, in either zone', async () => {
    // 02:00 UTC on 7 December is 10:00 that day in Shanghai and 21:00 on the 6th in New York.
    const issuedAt = Date.UTC(2026, 11, 7, 2, 0, 0);
    for (const [timeZone, lastDay] of [
      ['Asia/Shanghai', '2028-12-07'],
      ['America/New_York', '2028-12-06'],
    ] as const) {
      const clock = new SettableClock(issuedAt);
      const app = await buildTestApp({ timeZone }, { clock });
      try {
        const admin = await loginAs(app, 'admin');
        const learner = await userId(app, 'learner1');
        const layout = { fields: [{ kind: 'holderName', x: 20, y: 70, width: 257, fontSize: 36, align: 'center' }] };
        const templateId = await created(app, admin, '/api/cert-templates', { name: 'Zones', layout, validityMonths: 24 });
        const issued = await call(app, 'POST', '/api/certificates/issue', admin, { templateId, userIds: [learner] });
        expect(issued.statusCode, issued.body).toBe(201);
        const [certificate] = (issued.json() as { certificates: { id: number }[] }).certificates;
        const read = await call(app, 'GET', `/api/certificates/${certificate?.id}`, admin);
        expect(read.json()).toMatchObject({ expiresOn: lastDay });
        const [held] = (await record(app, admin, learner)).certificates;
        expect(held).toMatchObject({ expiresOn: lastDay, status: 'valid' });
      } finally {
        await app.close();
      }
    }
  });
});

// ---- An upgraded install ----------------------------------------------------------------------------

describe('census: an upgraded install', () => {
  it('0019 counts the enrolments, lesson progress and logins the install already had', async () => {
    const database = await openBlankTestDatabase(testConfig());
    const { db: handle } = database;
    try {
      await migrateUpTo(database, '0018-certificate-rule-page');
      const audit = { create_by: 'admin', update_by: 'admin', create_time: 1_000, update_time: 1_000 };
      const { id: person } = await handle
        .insertInto('sys_user')
        .values({ ...audit, dept_id: null, username: 'old', nick_name: 'Old', gender: null, phone: null, email: null, avatar_name: null, password_hash: 'x', is_admin: 0, enabled: 1, pwd_reset_time: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const term = async (courseId: number) =>
        (await handle.insertInto('edu_term').values({ ...audit, course_id: courseId, name: 'T', start_at: 0, end_at: 1, capacity: null, enrol_mode: 'open' }).returning('id').executeTakeFirstOrThrow()).id;
      const [spring, autumn, other] = [await term(5), await term(5), await term(6)];
      const lesson = async (required: 0 | 1) =>
        (
          await handle
            .insertInto('edu_lesson')
            .values({ ...audit, course_id: 5, chapter_id: 1, title: 'L', type: 'text', media_id: null, content: '', completion_percent: 100, preview: 0, sort: 1, required })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const lessons = [await lesson(1), await lesson(1), await lesson(0)];
      const applicant = (termId: number, status: string, createTime: number, completedAt: number | null) => ({
        ...audit,
        create_time: createTime,
        term_id: termId,
        user_id: person,
        status,
        source: 'staff',
        due_at: null,
        reason: null,
        rule_id: null,
        completed_at: completedAt,
      });
      await handle
        .insertInto('edu_applicant')
        .values([applicant(spring as number, 'completed', 2_000, 9_000), applicant(autumn as number, 'approved', 1_500, null), applicant(other as number, 'rejected', 3_000, null)])
        .execute();
      for (const [index, lessonId] of lessons.entries()) {
        await handle
          .insertInto('edu_lesson_progress')
          .values({ user_id: person, lesson_id: lessonId, course_id: 5, intervals: '[]', covered_seconds: 0, pages_read: '[1]', percent: 100, position: 1, completed_at: index === 1 ? null : 5_000, updated_at: 5_000 })
          .execute();
      }
      const log = (status: number, time: number) => ({
        username: 'old',
        description: '用户登录',
        method: 'POST /auth/login',
        params: null,
        log_type: 'INFO' as const,
        status,
        request_ip: '10.1.1.1',
        browser: 'Firefox',
        time: 12,
        exception_detail: null,
        create_time: time,
      });
      await handle.insertInto('sys_log').values([log(200, 7_000), log(400, 8_000), log(200, 9_500)]).execute();

      expect(await migrateUpTo(database, '0019-census')).toEqual(['0019-census']);

      const rows = await handle.selectFrom('edu_census_course').select(['user_id', 'course_id', 'status', 'enrolled_at', 'completed_at', 'completed_lessons']).execute();
      expect(rows.map((row) => ({ ...row, enrolled_at: Number(row.enrolled_at), completed_at: Number(row.completed_at), completed_lessons: Number(row.completed_lessons) }))).toEqual([
        // The furthest status and the first enrolment of the course's two terms; one required lesson done, the optional one not counted.
        { user_id: person, course_id: 5, status: 'completed', enrolled_at: 1_500, completed_at: 9_000, completed_lessons: 1 },
      ]);
      const logins = await handle.selectFrom('edu_census_login').select(['user_id', 'at', 'ip', 'browser']).orderBy('at').execute();
      expect(logins.map((login) => ({ ...login, at: Number(login.at) }))).toEqual([
        { user_id: person, at: 7_000, ip: '10.1.1.1', browser: 'Firefox' },
        { user_id: person, at: 9_500, ip: '10.1.1.1', browser: 'Firefox' },
      ]);
    } finally {
      await handle.destroy();
      await database.dispose();
    }
  });
});
