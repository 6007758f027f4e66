import { AUTO_SUBMIT_GRACE_MS, MAX_CLIENT_VALUES, MAX_EVENTS_PER_ATTEMPT } from '@cloud-classroom/shared/attempt-rules';
import { markingAttemptSchema } from '@cloud-classroom/shared/attempts';
import { examAssigneeSchema } from '@cloud-classroom/shared/exams';
import { pageOf } from '@cloud-classroom/shared/http';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettableClock } from '../../clock.js';
import { publishedExam, readResult, saveAnswer, startAttempt, submitAttempt } from '../../test/attempt-fixtures.js';
import { created, db, expectRefusal, userId } from '../../test/course-fixtures.js';
import { addQuestion } from '../../test/exam-fixtures.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

const MINUTE = 60_000;
const START = new Date(2026, 5, 1, 9, 0, 0).getTime();

describe('attempts: access and input', () => {
  let app: FastifyInstance;
  let learner: string;
  beforeAll(async () => {
    app = await buildTestApp();
    learner = await loginAs(app, 'learner1');
  });
  afterAll(async () => {
    await app.close();
  });

  const routes = [
    ['POST', '/api/site/exams/1/attempts', undefined],
    ['GET', '/api/site/exams/1/attempts', undefined],
    ['PUT', '/api/site/attempts/1/answers/1', { response: 'A', revision: 1 }],
    ['POST', '/api/site/attempts/1/submit', undefined],
    ['GET', '/api/site/attempts/1', undefined],
    ['POST', '/api/site/attempts/1/events', { events: [{ type: 'blur' }] }],
  ] as const;

  it.each(routes)('%s %s answers 401 without a session', async (method, url, payload) => {
    const response = await call(app, method, url, undefined, payload);
    expect(response.statusCode).toBe(401);
  });

  // These routes need only a session (the person's own attempts): there is no 403; someone
  // else's attempt answers 404 (attempts.test.ts).
  it.each([
    ['POST', '/api/site/exams/x/attempts', undefined, 'id'],
    ['GET', '/api/site/exams/0/attempts', undefined, 'id'],
    ['PUT', '/api/site/attempts/1/answers/x', { response: 'A', revision: 1 }, 'questionId'],
    ['PUT', '/api/site/attempts/1/answers/1', { response: 'A', revision: 0 }, 'revision'],
    ['PUT', '/api/site/attempts/1/answers/1', { response: { a: 1 }, revision: 1 }, 'response'],
    ['PUT', '/api/site/attempts/1/answers/1', { response: 'A', revision: 1, seconds: -1 }, 'seconds'],
    ['POST', '/api/site/attempts/-1/submit', undefined, 'id'],
    ['GET', '/api/site/attempts/abc', undefined, 'id'],
    ['POST', '/api/site/attempts/1/events', { events: [] }, 'events'],
    ['POST', '/api/site/attempts/1/events', { events: [{ type: 'ip_change' }] }, 'events.0.type'],
  ] as const)('%s %s refuses bad input naming %s', async (method, url, payload, field) => {
    expectRefusal(await call(app, method, url, learner, payload), 400, field);
  });

  it('answers 404 for attempts and exams that are not there', async () => {
    for (const [method, url, payload] of routes) {
      const response = await call(app, method, url, learner, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
  });
});

describe('attempts: review, events and races', () => {
  let app: FastifyInstance;
  let clock: SettableClock;
  let admin: string;
  let learner: string;
  let single: number;
  let judge: number;

  beforeAll(async () => {
    clock = new SettableClock(START);
    app = await buildTestApp({}, { clock });
    admin = await loginAs(app, 'admin');
    learner = await loginAs(app, 'learner1');
    single = await addQuestion(app, admin, { score: 2 });
    judge = await addQuestion(app, admin, { type: 'judge', score: 1 });
  });
  afterAll(async () => {
    await app.close();
  });

  async function sat(review: 'never' | 'after_submit' | 'after_close', closeAt: number | null = null) {
    clock.set(START);
    const examId = await publishedExam(app, admin, [single, judge], ['learner1'], { review, limitMinutes: 20, closeAt: closeAt === null ? null : formatDateTime(closeAt) });
    const attempt = await startAttempt(app, learner, examId);
    await saveAnswer(app, learner, attempt.id, single, { response: 'A', revision: 1 });
    return submitAttempt(app, learner, attempt.id);
  }

  it('review never: the score once graded, never the questions, key or analysis', async () => {
    const result = await sat('never');
    expect(result).toMatchObject({ state: 'graded', released: true, score: 2, passed: true, questions: [], reviewFrom: null });
    clock.advance(365 * 24 * 60 * MINUTE);
    const later = await call(app, 'GET', `/api/site/attempts/${result.id}`, learner);
    expect(later.body).not.toMatch(/"answer"|"analysis"/);
  });

  it('review after submit: the questions with my answers, the key and the analysis', async () => {
    const result = await sat('after_submit');
    const first = result.questions.find((question) => question.id === single);
    expect(first).toMatchObject({ response: 'A', earned: 2, correct: true, answer: ['A'] });
    expect(first?.analysis).toMatch(/Because/);
    expect(result.questions.find((question) => question.id === judge)).toMatchObject({ response: null, earned: 0, correct: false, answer: ['T'] });
  });

  it('review after close: nothing until the window closes, then everything', async () => {
    const closeAt = START + 60 * MINUTE;
    const result = await sat('after_close', closeAt);
    expect(result.questions).toEqual([]);
    expect(result.reviewFrom).toBe(formatDateTime(closeAt));
    expect(JSON.stringify(result)).not.toMatch(/"answer"|"analysis"/);
    clock.set(closeAt);
    const after = await readResult(app, learner, result.id);
    expect(after.questions).toHaveLength(2);
    expect(after.reviewFrom).toBeNull();
  });

  // Issue 28: with attempts left, a review showing the key was the key to the next attempt.
  it('review after submit: my answers and score only while I have an attempt left, the key once I have none', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, [single, judge], ['learner1'], { review: 'after_submit', limitMinutes: 20, attempts: 2 });
    const blank = await startAttempt(app, learner, examId);
    const first = await submitAttempt(app, learner, blank.id);
    expect(first).toMatchObject({ state: 'graded', released: true, score: 0, keyLater: true });
    expect(first.questions.map((question) => [question.id, question.response, question.earned, question.correct])).toEqual([
      [single, null, null, null],
      [judge, null, null, null],
    ]);
    const raw = await call(app, 'GET', `/api/site/attempts/${blank.id}`, learner);
    expect(raw.body).not.toMatch(/"answer"|"analysis"/);

    // The last attempt running: still no key in the first one's review.
    const second = await startAttempt(app, learner, examId);
    expect((await call(app, 'GET', `/api/site/attempts/${blank.id}`, learner)).body).not.toMatch(/"answer"|"analysis"/);
    await saveAnswer(app, learner, second.id, single, { response: 'A', revision: 1 });
    const last = await submitAttempt(app, learner, second.id);
    expect(last.keyLater).toBe(false);
    expect(last.questions.find((question) => question.id === single)).toMatchObject({ response: 'A', earned: 2, correct: true, answer: ['A'] });
    const again = await readResult(app, learner, blank.id);
    expect(again.keyLater).toBe(false);
    expect(again.questions.find((question) => question.id === judge)).toMatchObject({ earned: 0, correct: false, answer: ['T'] });
  });

  it('review after submit with attempts left: the key once the exam has closed', async () => {
    const closeAt = START + 60 * MINUTE;
    clock.set(START);
    const examId = await publishedExam(app, admin, [single, judge], ['learner1'], { review: 'after_submit', limitMinutes: 20, attempts: 2, closeAt: formatDateTime(closeAt) });
    const attempt = await startAttempt(app, learner, examId);
    expect((await submitAttempt(app, learner, attempt.id)).keyLater).toBe(true);
    clock.set(closeAt);
    const closed = await readResult(app, learner, attempt.id);
    expect(closed.keyLater).toBe(false);
    expect(closed.questions.find((question) => question.id === single)?.answer).toEqual(['A']);
  });

  it('stores integrity events dated by the server, only while the attempt runs or within the grace', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, [single], ['learner1'], { limitMinutes: 10 });
    const attempt = await startAttempt(app, learner, examId);
    clock.advance(5 * MINUTE);
    const sent = await call(app, 'POST', `/api/site/attempts/${attempt.id}/events`, learner, {
      events: [
        { type: 'hidden', agoMs: 3000, questionId: single },
        { type: 'paste', agoMs: 0, questionId: 999_999, detail: '12 characters' },
      ],
    });
    expect(sent.statusCode, sent.body).toBe(204);
    const rows = await db(app).selectFrom('edu_attempt_event').select(['type', 'at', 'question_id', 'detail']).where('attempt_id', '=', attempt.id).orderBy('id').execute();
    expect(rows.slice(1).map((row) => ({ ...row, at: Number(row.at) }))).toEqual([
      { type: 'hidden', at: START + 5 * MINUTE - 3000, question_id: single, detail: '' },
      { type: 'paste', at: START + 5 * MINUTE, question_id: null, detail: '12 characters' },
    ]);
    clock.set(START + 10 * MINUTE + AUTO_SUBMIT_GRACE_MS - 1);
    expect((await call(app, 'POST', `/api/site/attempts/${attempt.id}/events`, learner, { events: [{ type: 'blur' }] })).statusCode).toBe(204);
    clock.set(START + 10 * MINUTE + AUTO_SUBMIT_GRACE_MS);
    expectRefusal(await call(app, 'POST', `/api/site/attempts/${attempt.id}/events`, learner, { events: [{ type: 'blur' }] }), 409, 'deadline');
  });

  it('notes an answer from another address once', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, [single], ['learner1'], { limitMinutes: 10 });
    const attempt = await startAttempt(app, learner, examId);
    for (const revision of [1, 2]) {
      const saved = await app.inject({
        method: 'PUT',
        url: `/api/site/attempts/${attempt.id}/answers/${single}`,
        headers: { authorization: learner },
        remoteAddress: '10.1.2.3',
        payload: { response: 'A', revision },
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const changes = await db(app).selectFrom('edu_attempt_event').select(['type', 'detail']).where('attempt_id', '=', attempt.id).where('type', '=', 'ip_change').execute();
    expect(changes).toEqual([{ type: 'ip_change', detail: '10.1.2.3' }]);
  });

  // Issue 28: 3,000 saves, each with another browser, stored 3,000 device_change events.
  it('notes a bounded number of browsers and addresses, then once that there were more', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, [single], ['learner1'], { limitMinutes: 10 });
    const attempt = await startAttempt(app, learner, examId);
    const flood = 3 * MAX_CLIENT_VALUES;
    for (let revision = 1; revision <= flood; revision++) {
      const saved = await app.inject({
        method: 'PUT',
        url: `/api/site/attempts/${attempt.id}/answers/${single}`,
        headers: { authorization: learner, 'user-agent': `Browser ${revision} ${'x'.repeat(240)}` },
        remoteAddress: `10.0.${Math.floor(revision / 250)}.${revision % 250}`,
        payload: { response: 'A', revision },
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const types = await db(app).selectFrom('edu_attempt_event').select('type').where('attempt_id', '=', attempt.id).execute();
    const count = (type: string) => types.filter((row) => row.type === type).length;
    expect([count('device_change'), count('too_many_devices'), count('ip_change'), count('too_many_addresses')]).toEqual([MAX_CLIENT_VALUES, 1, MAX_CLIENT_VALUES, 1]);

    const view = await call(app, 'GET', `/api/marking/attempts/${attempt.id}`, admin);
    expect(view.statusCode, view.body).toBe(200);
    expect(markingAttemptSchema.parse(view.json()).events).toHaveLength(types.length);
    expect(view.body.length).toBeLessThan(20_000);
  });

  it('counts the server\'s own events toward the cap, keeping the last place for the submission', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, [single], ['learner1'], { limitMinutes: 10 });
    const attempt = await startAttempt(app, learner, examId);
    for (let sent = 0; sent < MAX_EVENTS_PER_ATTEMPT; sent += 100) {
      const response = await call(app, 'POST', `/api/site/attempts/${attempt.id}/events`, learner, { events: Array.from({ length: 100 }, () => ({ type: 'blur' })) });
      expect(response.statusCode, response.body).toBe(204);
    }
    const resumed = await app.inject({ method: 'POST', url: `/api/site/exams/${examId}/attempts`, headers: { authorization: learner, 'user-agent': 'Another browser' } });
    expect(resumed.statusCode, resumed.body).toBe(200);
    await submitAttempt(app, learner, attempt.id);
    const rows = await db(app).selectFrom('edu_attempt_event').select('type').where('attempt_id', '=', attempt.id).orderBy('id').execute();
    expect(rows).toHaveLength(MAX_EVENTS_PER_ATTEMPT);
    expect(rows.filter((row) => row.type === 'resume' || row.type === 'device_change')).toEqual([]);
    expect(rows.at(-1)?.type).toBe('submit');
  });

  it('two starts at once make one attempt, both answering it', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, [single, judge], ['learner1'], { limitMinutes: 10, attempts: 3 });
    const [a, b] = await Promise.all([1, 2].map(() => call(app, 'POST', `/api/site/exams/${examId}/attempts`, learner)));
    expect([a?.statusCode, b?.statusCode].sort()).toEqual([200, 201]);
    expect((a?.json() as { id: number }).id).toBe((b?.json() as { id: number }).id);
    const rows = await db(app).selectFrom('edu_attempt').select('id').where('exam_id', '=', examId).execute();
    expect(rows).toHaveLength(1);
  });

  it('keeps a question answered in an attempt in the bank, and shows its image to the candidate', async () => {
    clock.set(START);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5e3d4a90000000049454e44ae426082', 'hex');
    const boundary = 'attempt-image';
    const upload = await app.inject({
      method: 'POST',
      url: '/api/questions/images',
      headers: { authorization: admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="dot.png"\r\nContent-Type: image/png\r\n\r\n`),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const { url } = upload.json() as { url: string };
    const pictured = await addQuestion(app, admin, { stem: `<p>Which sign? <img src="${url}"></p>`, tags: ['标志'] });
    const other = await loginAs(app, 'learner2');
    expect((await call(app, 'GET', url, learner)).statusCode).toBe(403);
    // Drawn by a rule, not a fixed question: only the attempt holds it.
    const examId = await created(app, admin, '/api/exams', {
      title: 'Signs',
      status: 'published',
      limitMinutes: 10,
      passScore: 0,
      paper: { sections: [{ title: 'Signs', draw: [{ tags: ['标志'], type: 'single', count: 1, score: 2 }] }] },
    });
    const assigned = await call(app, 'POST', `/api/exams/${examId}/assignees`, admin, { target: 'users', ids: [await userId(app, 'learner1')] });
    expect(assigned.statusCode, assigned.body).toBe(201);
    const attempt = await startAttempt(app, learner, examId);
    expect(attempt.questions[0]?.stem).toContain(url);
    const shown = await call(app, 'GET', url, learner);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/png');
    expect((await call(app, 'GET', url, other)).statusCode).toBe(403);
    expect((await call(app, 'GET', url, admin)).statusCode).toBe(200);

    expectRefusal(await call(app, 'DELETE', '/api/questions', admin, [pictured]), 409, 'ids');
    // Nor does the exam go, with its attempts' results.
    expectRefusal(await call(app, 'DELETE', '/api/exams', admin, [examId]), 409, 'ids');
  });
});

describe('attempts: review after close with personal windows', () => {
  let app: FastifyInstance;
  let clock: SettableClock;
  let admin: string;
  let learner: string;
  let single: number;
  let judge: number;

  beforeAll(async () => {
    clock = new SettableClock(START);
    app = await buildTestApp({}, { clock });
    admin = await loginAs(app, 'admin');
    learner = await loginAs(app, 'learner1');
    single = await addQuestion(app, admin, { score: 2 });
    judge = await addQuestion(app, admin, { type: 'judge', score: 1 });
  });
  afterAll(async () => {
    await app.close();
  });

  // Issue 28: the key opened at the exam's close while a classmate's personal window ran a day longer.
  it('review after close: the key once the latest personal window has closed too', async () => {
    const closeAt = START + 60 * MINUTE;
    const extended = closeAt + 24 * 60 * MINUTE;
    const examId = await publishedExam(app, admin, [single, judge], ['learner1', 'learner3'], { review: 'after_close', limitMinutes: 20, closeAt: formatDateTime(closeAt) });
    const rows = await call(app, 'GET', `/api/exams/${examId}/assignees?size=100`, admin);
    const learner3Row = pageOf(examAssigneeSchema).parse(rows.json()).content.find((row) => row.username === 'learner3');
    const override = await call(app, 'PUT', `/api/exams/${examId}/assignees`, admin, { ids: [learner3Row?.id], closeAt: formatDateTime(extended) });
    expect(override.statusCode, override.body).toBe(204);
    const attempt = await startAttempt(app, learner, examId);
    await saveAnswer(app, learner, attempt.id, single, { response: 'A', revision: 1 });
    await submitAttempt(app, learner, attempt.id);

    clock.set(closeAt);
    const atClose = await call(app, 'GET', `/api/site/attempts/${attempt.id}`, learner);
    expect(atClose.body).not.toMatch(/"answer"|"analysis"/);
    expect((atClose.json() as { reviewFrom: string }).reviewFrom).toBe(formatDateTime(extended));
    // learner3 can still sit it, and would draw the same questions.
    await startAttempt(app, await loginAs(app, 'learner3'), examId);

    clock.set(extended);
    // A day on, the morning's session has lapsed (which is why this test has an app of its own).
    const after = await readResult(app, await loginAs(app, 'learner1'), attempt.id);
    expect(after.reviewFrom).toBeNull();
    expect(after.questions.find((question) => question.id === single)).toMatchObject({ response: 'A', answer: ['A'] });
  });
});
