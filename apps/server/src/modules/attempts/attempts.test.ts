import { AUTO_SUBMIT_GRACE_MS } from '@cloud-classroom/shared/attempt-rules';
import { myAttemptSchema } from '@cloud-classroom/shared/attempts';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { siteExamSchema } from '@cloud-classroom/shared/exams';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SettableClock } from '../../clock.js';
import { readResult, publishedExam, saveAnswer, startAttempt, submitAttempt } from '../../test/attempt-fixtures.js';
import { db, expectRefusal } from '../../test/course-fixtures.js';
import { addQuestion } from '../../test/exam-fixtures.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

const MINUTE = 60_000;
/** 2026-06-01 09:00 local time: the tests' clock starts here. */
const START = new Date(2026, 5, 1, 9, 0, 0).getTime();

describe('attempts', () => {
  let app: FastifyInstance;
  let clock: SettableClock;
  let admin: string;
  let learner: string;
  let other: string;
  /** single (key A, 2 points), multiple (A+B, 4), judge (T, 1), blank (two blanks, 3), short (5). */
  let single: number;
  let multiple: number;
  let judge: number;
  let blank: number;
  let short: number;

  beforeAll(async () => {
    clock = new SettableClock(START);
    app = await buildTestApp({}, { clock });
    admin = await loginAs(app, 'admin');
    learner = await loginAs(app, 'learner1');
    other = await loginAs(app, 'learner2');
    single = await addQuestion(app, admin, { score: 2 });
    multiple = await addQuestion(app, admin, { type: 'multiple', score: 4 });
    judge = await addQuestion(app, admin, { type: 'judge', score: 1 });
    blank = await addQuestion(app, admin, { type: 'blank', score: 3 });
    short = await addQuestion(app, admin, { type: 'short', score: 5 });
  });
  afterAll(async () => {
    await app.close();
  });

  const objective = () => [single, multiple, judge, blank];

  it('starts an attempt with a deadline fixed at start, no key or analysis, and resumes the same one', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, objective(), ['learner1'], { limitMinutes: 30, shuffleQuestions: true, shuffleOptions: true });
    const response = await call(app, 'POST', `/api/site/exams/${examId}/attempts`, learner, { deadline: '2099-01-01 00:00:00', remainingMs: 1e9 });
    expect(response.statusCode, response.body).toBe(201);
    const raw = response.body;
    expect(raw).not.toMatch(/"answer"|"analysis"|Because/);
    const started = await startAttempt(app, learner, examId, 200);
    expect(started.deadline).toBe(formatDateTime(START + 30 * MINUTE));
    expect(started.remainingMs).toBe(30 * MINUTE);
    expect(started.questions.map((question) => question.id).sort()).toEqual([...objective()].sort());
    const first = response.json() as { id: number; questions: { id: number; options: { key: string }[] }[] };
    expect(started.id).toBe(first.id);

    // Another device, ten minutes on: the same paper in the same order, the clock going on.
    clock.advance(10 * MINUTE);
    const elsewhere = await app.inject({
      method: 'POST',
      url: `/api/site/exams/${examId}/attempts`,
      headers: { authorization: learner, 'user-agent': 'Another browser' },
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    const resumed = elsewhere.json() as typeof started;
    expect(resumed.questions.map((question) => [question.id, question.options.map((option) => option.key)])).toEqual(
      first.questions.map((question) => [question.id, question.options.map((option) => option.key)]),
    );
    expect(resumed.deadline).toBe(started.deadline);
    expect(resumed.remainingMs).toBe(20 * MINUTE);
    const events = await db(app).selectFrom('edu_attempt_event').select(['type', 'detail']).where('attempt_id', '=', started.id).orderBy('id').execute();
    expect(events.map((event) => event.type)).toEqual(['start', 'resume', 'resume', 'device_change']);
    expect(events[3]?.detail).toBe('Another browser');
  });

  it('saves answers by revision, refuses a wrong shape, another person and a late answer', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, objective(), ['learner1', 'learner2'], { limitMinutes: 10 });
    const attempt = await startAttempt(app, learner, examId);

    const three = await saveAnswer(app, learner, attempt.id, single, { response: 'B', revision: 3 });
    expect(three.statusCode, three.body).toBe(200);
    expect(three.json()).toEqual({ revision: 3, savedAt: formatDateTime(START) });
    clock.advance(1000);
    const two = await saveAnswer(app, learner, attempt.id, single, { response: 'C', revision: 2 });
    expect(two.statusCode, two.body).toBe(200);
    expect(two.json()).toEqual({ revision: 3, savedAt: formatDateTime(START) });
    const stored = await db(app).selectFrom('edu_attempt_answer').select(['response', 'revision']).where('attempt_id', '=', attempt.id).where('question_id', '=', single).executeTakeFirstOrThrow();
    expect(stored).toEqual({ response: '"B"', revision: 3 });

    expectRefusal(await saveAnswer(app, learner, attempt.id, single, { response: 'Z', revision: 4 }), 400, 'response');
    expectRefusal(await saveAnswer(app, learner, attempt.id, multiple, { response: ['A', 'A'], revision: 1 }), 400, 'response');
    expectRefusal(await saveAnswer(app, learner, attempt.id, judge, { response: 'A', revision: 1 }), 400, 'response');
    expectRefusal(await saveAnswer(app, learner, attempt.id, blank, { response: ['only one'], revision: 1 }), 400, 'response');
    expectRefusal(await saveAnswer(app, learner, attempt.id, single, { response: 'A' }), 400, 'revision');
    expectRefusal(await saveAnswer(app, learner, attempt.id, short, { response: 'x', revision: 1 }), 404, 'questionId');

    // Another learner's attempt answers as one that does not exist.
    const forged = await saveAnswer(app, other, attempt.id, single, { response: 'A', revision: 9 });
    const missing = await saveAnswer(app, other, 999_999, single, { response: 'A', revision: 9 });
    expect(forged.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect((forged.json() as { message: string }).message).toBe(`id: no attempt ${attempt.id}`);
    expect((await call(app, 'GET', `/api/site/attempts/${attempt.id}`, other)).statusCode).toBe(404);
    expect((await call(app, 'POST', `/api/site/attempts/${attempt.id}/submit`, other)).statusCode).toBe(404);

    clock.set(START + 10 * MINUTE);
    expectRefusal(await saveAnswer(app, learner, attempt.id, judge, { response: 'T', revision: 1 }), 409, 'deadline');
    // Within the grace the learner may still submit.
    const result = await submitAttempt(app, learner, attempt.id);
    expect(result.submittedBy).toBe('learner');
    expect(result.state).toBe('graded');
    expect(result.score).toBe(0);
  });

  it('grades objective questions at submit, sends short answers to marking, and submits once', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, [...objective(), short], ['learner1'], { limitMinutes: 60, passScore: 5, review: 'after_submit' });
    const attempt = await startAttempt(app, learner, examId);
    for (const [questionId, response] of [
      [single, 'A'],
      [multiple, ['A', 'B']],
      [judge, 'F'],
      [blank, ['ONE', '2']],
      [short, 'Low, along the wall'],
    ] as const) {
      const saved = await saveAnswer(app, learner, attempt.id, questionId, { response, revision: 1, seconds: 5 });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const result = await submitAttempt(app, learner, attempt.id);
    expect(result).toMatchObject({ state: 'marking', submittedBy: 'learner', released: false, score: null, answeredCount: 5, questionCount: 5, totalScore: 15 });
    const again = await submitAttempt(app, learner, attempt.id);
    expect(again).toEqual(result);
    const rows = await db(app).selectFrom('edu_attempt_answer').select(['question_id', 'auto_score', 'score', 'correct']).where('attempt_id', '=', attempt.id).execute();
    const byQuestion = new Map(rows.map((row) => [row.question_id, row]));
    expect(byQuestion.get(single)).toMatchObject({ auto_score: 2, score: 2, correct: 1 });
    expect(byQuestion.get(multiple)).toMatchObject({ auto_score: 4, correct: 1 });
    expect(byQuestion.get(judge)).toMatchObject({ auto_score: 0, correct: 0 });
    expect(byQuestion.get(blank)).toMatchObject({ auto_score: 3, correct: 1 });
    expect(byQuestion.get(short)).toMatchObject({ auto_score: null, score: null, correct: null });
    // Reviewable after submit: the key and analysis are there now.
    expect(result.questions).toHaveLength(5);
    expect(result.questions[0]?.analysis).toMatch(/Because/);
    const submits = await db(app).selectFrom('edu_attempt_event').select('type').where('attempt_id', '=', attempt.id).where('type', '=', 'submit').execute();
    expect(submits).toHaveLength(1);
  });

  it('passes or fails a paper of objective questions, and counts attempts in the exam list', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, [single, judge], ['learner1'], { limitMinutes: 60, passScore: 3, attempts: 2, counts: 'best' });
    const first = await startAttempt(app, learner, examId);
    const listed = async () => z.array(siteExamSchema).parse((await call(app, 'GET', '/api/site/exams', learner)).json()).find((exam) => exam.id === examId);
    expect(await listed()).toMatchObject({ attemptsUsed: 1, attemptsLeft: 1, openAttemptId: first.id, state: 'open' });
    await saveAnswer(app, learner, first.id, single, { response: 'A', revision: 1 });
    expect(await submitAttempt(app, learner, first.id)).toMatchObject({ state: 'graded', score: 2, passed: false, released: true });
    const second = await startAttempt(app, learner, examId);
    await saveAnswer(app, learner, second.id, single, { response: 'A', revision: 1 });
    await saveAnswer(app, learner, second.id, judge, { response: 'T', revision: 1 });
    expect(await submitAttempt(app, learner, second.id)).toMatchObject({ state: 'graded', score: 3, passed: true });
    expect(await listed()).toMatchObject({ attemptsUsed: 2, attemptsLeft: 0, openAttemptId: null, state: 'closed' });
    expectRefusal(await call(app, 'POST', `/api/site/exams/${examId}/attempts`, learner), 409, 'attempts');
    const mine = z.array(myAttemptSchema).parse((await call(app, 'GET', `/api/site/exams/${examId}/attempts`, learner)).json());
    expect(mine.map((attempt) => [attempt.number, attempt.score, attempt.counts])).toEqual([
      [2, 3, true],
      [1, 2, false],
    ]);
  });

  it('submits an attempt left open at its deadline plus the grace, once', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, [single, judge], ['learner1'], { limitMinutes: 5 });
    const attempt = await startAttempt(app, learner, examId);
    await saveAnswer(app, learner, attempt.id, single, { response: 'A', revision: 1 });
    clock.set(START + 5 * MINUTE + AUTO_SUBMIT_GRACE_MS - 1);
    await app.services.jobs.runDue();
    expect((await readResult(app, learner, attempt.id)).state).toBe('in_progress');
    clock.set(START + 5 * MINUTE + AUTO_SUBMIT_GRACE_MS);
    await app.services.jobs.runDue();
    const result = await readResult(app, learner, attempt.id);
    expect(result).toMatchObject({ state: 'graded', submittedBy: 'server', score: 2 });
    expect(await app.services.attempts.autoSubmit(attempt.id)).toBe(false);
  });

  it('fixes the deadline from the person’s overrides: extra minutes, their own window, extra attempts', async () => {
    clock.set(START);
    const examId = await publishedExam(app, admin, [single], ['learner1', 'learner2'], { limitMinutes: 30, closeAt: formatDateTime(START + 40 * MINUTE) });
    const rows = (await call(app, 'GET', `/api/exams/${examId}/assignees`, admin)).json() as { content: { id: number; username: string }[] };
    const mine = rows.content.find((row) => row.username === 'learner1')?.id as number;
    const overridden = await call(app, 'PUT', `/api/exams/${examId}/assignees`, admin, {
      ids: [mine],
      extraMinutes: 20,
      extraAttempts: 1,
      closeAt: formatDateTime(START + 120 * MINUTE),
    });
    expect(overridden.statusCode, overridden.body).toBe(204);
    const first = await startAttempt(app, learner, examId);
    expect(first.deadline).toBe(formatDateTime(START + 50 * MINUTE));
    expect(first.attemptsAllowed).toBe(2);
    // The other learner has no override: the exam's limit.
    expect((await startAttempt(app, other, examId)).deadline).toBe(formatDateTime(START + 30 * MINUTE));
    await submitAttempt(app, learner, first.id);
    clock.set(START + 100 * MINUTE);
    const second = await startAttempt(app, learner, examId);
    expect(second).toMatchObject({ number: 2, deadline: formatDateTime(START + 120 * MINUTE), remainingMs: 20 * MINUTE });
  });

  it('refuses a start outside the window, or of an exam not assigned', async () => {
    clock.set(START);
    const later = await publishedExam(app, admin, [single], ['learner1'], { openAt: formatDateTime(START + 60 * MINUTE), closeAt: formatDateTime(START + 120 * MINUTE) });
    expectRefusal(await call(app, 'POST', `/api/site/exams/${later}/attempts`, learner), 409, 'openAt');
    clock.set(START + 120 * MINUTE);
    expectRefusal(await call(app, 'POST', `/api/site/exams/${later}/attempts`, learner), 409, 'closeAt');
    clock.set(START);
    expectRefusal(await call(app, 'POST', `/api/site/exams/${later}/attempts`, other), 404, 'id');
  });

  it('acknowledges many saves arriving together, all of them stored', async () => {
    clock.set(START);
    const ids: number[] = [];
    for (let index = 0; index < 30; index += 1) ids.push(await addQuestion(app, admin));
    const examId = await publishedExam(app, admin, ids, ['learner1'], { limitMinutes: 60 });
    const attempt = await startAttempt(app, learner, examId);
    const answers = await Promise.all(ids.flatMap((id) => [1, 2].map((revision) => saveAnswer(app, learner, attempt.id, id, { response: revision === 2 ? 'B' : 'A', revision }))));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const rows = await db(app).selectFrom('edu_attempt_answer').select(['response', 'revision']).where('attempt_id', '=', attempt.id).execute();
    expect(rows).toHaveLength(30);
    for (const row of rows) expect(row).toEqual({ response: '"B"', revision: 2 });
  });
});
