import { AUTO_SUBMIT_GRACE_MS } from '@cloud-classroom/shared/attempt-rules';
import type { AttemptStart } from '@cloud-classroom/shared/attempts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettableClock } from '../../clock.js';
import { publishedExam, readResult, saveAnswer, startAttempt } from '../../test/attempt-fixtures.js';
import { db } from '../../test/course-fixtures.js';
import { addQuestion } from '../../test/exam-fixtures.js';
import { buildTestAppPair, loginAs } from '../../test/test-app.js';

const MINUTE = 60_000;

/**
 * Both at once on PostgreSQL. On SQLite the two apps of a test share one thread: a transaction
 * holding the file's write lock across an await would wait, synchronously, for the other's busy
 * timeout, which blocks the thread the first one needs to finish (two real processes just wait
 * their turn). There they take turns, which still shows the second one does nothing.
 */
const together = <T>(work: (() => Promise<T>)[]): Promise<T[]> =>
  process.env.TEST_DATABASE_URL ? Promise.all(work.map((run) => run())) : work.reduce<Promise<T[]>>(async (done, run) => [...(await done), await run()], Promise.resolve([]));
const START = new Date(2026, 5, 1, 9, 0, 0).getTime();

/** Two apps on one database, as two server processes: each has its own job runner and answer writer. */
describe('attempts: submitted by the server, once, with two processes', () => {
  let clock: SettableClock;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let admin: string;
  let learner: string;
  let questions: number[];

  beforeAll(async () => {
    clock = new SettableClock(START);
    [first, second] = await buildTestAppPair({}, { clock });
    admin = await loginAs(first, 'admin');
    learner = await loginAs(first, 'learner1');
    questions = [await addQuestion(first, admin, { score: 2 }), await addQuestion(first, admin, { type: 'judge', score: 1 })];
  });
  afterAll(async () => {
    await first.close();
  });

  const events = (attemptId: number) => db(first).selectFrom('edu_attempt_event').select('type').where('attempt_id', '=', attemptId).where('type', 'in', ['submit', 'auto_submit']).execute();

  it('both runners at the deadline plus the grace: one submission, graded', async () => {
    clock.set(START);
    const examIds: number[] = [];
    for (let index = 0; index < 4; index += 1) examIds.push(await publishedExam(first, admin, questions, ['learner1'], { limitMinutes: 5 }));
    const attempts: AttemptStart[] = [];
    // Started on either process: each queues its job in the shared table.
    for (const [index, examId] of examIds.entries()) attempts.push(await startAttempt(index % 2 === 0 ? first : second, learner, examId));
    for (const attempt of attempts) {
      const saved = await saveAnswer(second, learner, attempt.id, questions[0] as number, { response: 'A', revision: 1 });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    clock.set(START + 5 * MINUTE + AUTO_SUBMIT_GRACE_MS - 1);
    expect(await first.services.jobs.runDue()).toBe(0);
    clock.set(START + 5 * MINUTE + AUTO_SUBMIT_GRACE_MS);
    const [byFirst = 0, bySecond = 0] = await together([() => first.services.jobs.runDue(), () => second.services.jobs.runDue()]);
    expect(byFirst + bySecond).toBe(attempts.length);
    for (const attempt of attempts) {
      expect(await readResult(second, learner, attempt.id)).toMatchObject({ state: 'graded', submittedBy: 'server', score: 2 });
      expect(await events(attempt.id)).toEqual([{ type: 'auto_submit' }]);
    }
  });

  it('the job of both processes and the learner at the same moment: one submission', async () => {
    clock.set(START);
    const examId = await publishedExam(first, admin, questions, ['learner1'], { limitMinutes: 5 });
    const attempt = await startAttempt(first, learner, examId);
    clock.set(START + 5 * MINUTE + AUTO_SUBMIT_GRACE_MS);
    const done = await together([() => first.services.attempts.autoSubmit(attempt.id), () => second.services.attempts.autoSubmit(attempt.id), () => first.services.attempts.autoSubmit(attempt.id)]);
    expect(done.filter(Boolean)).toHaveLength(1);
    expect(await events(attempt.id)).toEqual([{ type: 'auto_submit' }]);
    const row = await db(first).selectFrom('edu_attempt').select(['state', 'submitted_by', 'score']).where('id', '=', attempt.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'graded', submitted_by: 'server', score: 0 });
  });

  it('an answer saved on one process after the other submitted is refused', async () => {
    clock.set(START);
    const examId = await publishedExam(first, admin, questions, ['learner1'], { limitMinutes: 5 });
    const attempt = await startAttempt(first, learner, examId);
    // The second process knows the attempt (its facts are cached there) before the first submits it.
    expect((await saveAnswer(second, learner, attempt.id, questions[0] as number, { response: 'B', revision: 1 })).statusCode).toBe(200);
    const submitted = await first.inject({ method: 'POST', url: `/api/site/attempts/${attempt.id}/submit`, headers: { authorization: learner } });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const late = await saveAnswer(second, learner, attempt.id, questions[0] as number, { response: 'A', revision: 2 });
    expect(late.statusCode, late.body).toBe(409);
    const stored = await db(first).selectFrom('edu_attempt_answer').select(['response', 'revision']).where('attempt_id', '=', attempt.id).where('question_id', '=', questions[0] as number).executeTakeFirstOrThrow();
    expect(stored).toEqual({ response: '"B"', revision: 1 });
  });
});
