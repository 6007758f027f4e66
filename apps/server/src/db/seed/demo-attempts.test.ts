import { attemptScore, passes } from '@cloud-classroom/shared/attempt-rules';
import { examReportSchema, markingQueueSchema } from '@cloud-classroom/shared/attempts';
import { scoreResponse, type BlankRules, type MultiplePolicy, type QuestionType, type ScorableQuestion } from '@cloud-classroom/shared/question-scoring';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../../files/local-file-store.js';
import { saveAnswer, startAttempt, submitAttempt } from '../../test/attempt-fixtures.js';
import { buildTestApp, call, loginAs, TEST_PASSWORD } from '../../test/test-app.js';
import { DEMO_CANDIDATES } from './demo-candidates.js';
import { DEMO_MARKER, DEMO_SITTINGS } from './demo-attempts.js';
import { DEMO_EXAM } from './demo-exams.js';
import { reseed } from './seed.js';

// The demo's attempts as the server would have left them: seeded with the demo catalogue (as a
// first start does), then read back through the database and the real routes.

let app: FastifyInstance;
const db = () => app.services.database.db;

beforeAll(async () => {
  app = await buildTestApp();
  await reseed(db(), TEST_PASSWORD, new LocalFileStore(app.services.config.dataDir));
}, 90_000);
afterAll(async () => {
  await app?.close();
});

async function demoExam() {
  return db().selectFrom('edu_exam').selectAll().where('title', '=', DEMO_EXAM.title).executeTakeFirstOrThrow();
}

async function attemptsWithPeople() {
  return db()
    .selectFrom('edu_attempt as a')
    .innerJoin('sys_user as u', 'u.id', 'a.user_id')
    .selectAll('a')
    .select(['u.username'])
    .orderBy('a.started_at')
    .execute();
}

function scorableOf(row: { type: string; answer: string; blank_rules: string | null; policy: string | null }, score: number): ScorableQuestion {
  const type = row.type as QuestionType;
  if (type === 'short') return { type, score };
  if (type === 'multiple') return { type, answer: JSON.parse(row.answer) as string[], score, policy: row.policy as MultiplePolicy };
  if (type === 'blank') return { type, answer: JSON.parse(row.answer) as string[][], score, blankRules: JSON.parse(row.blank_rules as string) as BlankRules };
  return { type, answer: JSON.parse(row.answer) as string[], score };
}

describe('the demo attempts', () => {
  it('are the candidates’ sittings, assigned the exam, while learner1..3 keep it untouched', async () => {
    const exam = await demoExam();
    const attempts = await attemptsWithPeople();
    expect(attempts.map((attempt) => attempt.username)).toEqual(DEMO_SITTINGS.map((sitting) => sitting.username));
    expect(attempts.every((attempt) => attempt.exam_id === exam.id)).toBe(true);
    expect(attempts.filter((attempt) => attempt.username === 'liuyang').map((attempt) => attempt.number)).toEqual([1, 2]);
    const assignees = await db()
      .selectFrom('edu_exam_assignee as a')
      .innerJoin('sys_user as u', 'u.id', 'a.user_id')
      .select(['u.username'])
      .where('a.exam_id', '=', exam.id)
      .execute();
    expect(assignees.map((row) => row.username).sort()).toEqual(['learner1', 'learner2', 'learner3', ...DEMO_CANDIDATES.map((user) => user.username)].sort());
    // Each inside the window and the time limit, and over before the seed.
    const now = Date.now();
    for (const attempt of attempts) {
      expect(attempt.started_at).toBeGreaterThanOrEqual(exam.open_at ?? 0);
      expect(attempt.deadline).toBe(attempt.started_at + (exam.limit_minutes ?? 0) * 60_000);
      expect(attempt.submitted_at).toBeLessThan(attempt.deadline ?? 0);
      expect(attempt.submitted_at).toBeLessThan(now);
    }
  });

  it('are scored as the server scores a submission, and add up', async () => {
    const exam = await demoExam();
    const questions = new Map((await db().selectFrom('edu_question').selectAll().execute()).map((question) => [question.id, question]));
    const attempts = await attemptsWithPeople();
    for (const attempt of attempts) {
      const answers = await db().selectFrom('edu_attempt_answer').selectAll().where('attempt_id', '=', attempt.id).orderBy('position').execute();
      expect(answers.map((answer) => answer.position)).toEqual(answers.map((_answer, index) => index));
      expect(answers).toHaveLength(exam.question_count);
      expect(answers.reduce((sum, answer) => sum + answer.max_score, 0)).toBe(exam.total_score);
      for (const answer of answers) {
        const question = questions.get(answer.question_id);
        if (question === undefined) throw new Error(`no question ${answer.question_id}`);
        const scored = scoreResponse(scorableOf(question, answer.max_score), JSON.parse(answer.response ?? 'null') as string | string[] | null);
        expect(answer.auto_score, `${attempt.username} #${answer.position}`).toBe(scored.score);
        expect(answer.score).toBe(answer.manual_score ?? answer.auto_score);
        expect(answer.revision).toBeGreaterThan(0);
        expect(answer.seconds).toBeGreaterThan(0);
      }
      const total = attemptScore(answers.map((answer) => answer.score));
      expect(attempt.score).toBe(total);
      expect(attempt.state).toBe(total === null ? 'marking' : 'graded');
      expect(attempt.passed).toBe(total === null ? null : passes(total, exam.pass_score) ? 1 : 0);
    }
  });

  it('spread: some pass, some fail, some await the marker', async () => {
    const attempts = await attemptsWithPeople();
    const graded = attempts.filter((attempt) => attempt.state === 'graded');
    expect(graded.filter((attempt) => attempt.passed === 1).length).toBeGreaterThanOrEqual(2);
    expect(graded.filter((attempt) => attempt.passed === 0).length).toBeGreaterThanOrEqual(2);
    expect(attempts.filter((attempt) => attempt.state === 'marking').length).toBeGreaterThanOrEqual(2);
  });

  it('marks are the teacher’s, with comments, each with its score change', async () => {
    const marked = await db().selectFrom('edu_attempt_answer').selectAll().where('manual_score', 'is not', null).execute();
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.every((answer) => answer.marked_by === DEMO_MARKER && answer.marked_at !== null && (answer.comment ?? '') !== '')).toBe(true);
    const changes = await db().selectFrom('edu_score_change').selectAll().execute();
    expect(changes.map((change) => [change.answer_id, change.kind, change.old_score, change.new_score, change.create_by]).sort()).toEqual(
      marked.map((answer) => [answer.id, 'mark', null, answer.manual_score, DEMO_MARKER]).sort(),
    );
    const pending = await db().selectFrom('edu_attempt_answer').select('id').where('score', 'is', null).execute();
    expect(pending.length).toBeGreaterThan(0);
    const signals = await db().selectFrom('edu_attempt_event').select('type').where('type', 'not in', ['start', 'submit']).execute();
    expect(new Set(signals.map((event) => event.type))).toEqual(new Set(['hidden', 'visible', 'blur', 'focus', 'paste', 'offline', 'online']));
  });

  it('read back by the attempts module as it reads its own: results, reviews, attempts left', async () => {
    const exam = await demoExam();
    const attempts = await attemptsWithPeople();
    for (const attempt of attempts) {
      const token = await loginAs(app, attempt.username);
      const result = await call(app, 'GET', `/api/site/attempts/${attempt.id}`, token);
      expect(result.statusCode, result.body).toBe(200);
      const body = result.json<{ state: string; score: number | null; released: boolean; keyLater: boolean; questions: { id: number; earned: number | null; comment: string | null }[]; answeredCount: number; questionCount: number }>();
      const graded = attempt.state === 'graded';
      // The exam is open still: the key, verdicts and comments only for those with no attempt left.
      const keyShown = attempts.filter((other) => other.username === attempt.username).length >= exam.attempts;
      expect(body).toMatchObject({ state: attempt.state, released: graded, score: graded ? attempt.score : null, keyLater: !keyShown, answeredCount: exam.question_count, questionCount: exam.question_count });
      // Reviewed after submission, as the exam allows: the questions in the frozen order.
      const answers = await db().selectFrom('edu_attempt_answer').select(['question_id', 'score', 'comment']).where('attempt_id', '=', attempt.id).orderBy('position').execute();
      expect(body.questions.map((question) => question.id)).toEqual(answers.map((answer) => answer.question_id));
      if (graded && keyShown) expect(body.questions.map((question) => [question.earned, question.comment])).toEqual(answers.map((answer) => [answer.score, answer.comment]));
      if (!keyShown) expect(body.questions.map((question) => [question.earned, question.comment]).flat().every((value) => value === null)).toBe(true);
    }

    const liuyang = await loginAs(app, 'liuyang');
    const mine = await call(app, 'GET', `/api/site/exams/${exam.id}/attempts`, liuyang);
    expect(mine.json<{ number: number; counts: boolean }[]>().map((attempt) => [attempt.number, attempt.counts])).toEqual([
      [2, true],
      [1, false],
    ]);

    // learner1 keeps the exam untouched: both attempts left, and a start draws a paper like the demo's.
    const learner1 = await loginAs(app, 'learner1');
    const exams = await call(app, 'GET', '/api/site/exams', learner1);
    expect(exams.json<{ id: number; attemptsLeft: number; state: string }[]>().find((one) => one.id === exam.id)).toMatchObject({ attemptsLeft: 2, state: 'open' });
    const started = await call(app, 'POST', `/api/site/exams/${exam.id}/attempts`, learner1);
    expect(started.statusCode, started.body).toBe(201);
    const paper = started.json<{ questions: { type: string; section: string; score: number }[]; totalScore: number }>();
    expect(paper.totalScore).toBe(exam.total_score);
    const sittingPaper = JSON.parse(attempts[0]?.paper ?? '{}') as { questions: { type: string; section: string; score: number }[] };
    // The same sections of the same points and types; the drawn ones in an order of their own.
    const shape = (questions: { type: string; section: string; score: number }[]) => questions.map((question) => `${question.section} ${question.type} ${question.score}`).sort();
    expect(shape(sittingPaper.questions)).toEqual(shape(paper.questions));
  });
});

// Issue 13's "done": on a fresh start learner1 can take the demo exam, a teacher can mark it by
// question, and the report shows it; which needs learner1 (研发部) within the demo teacher's data
// scope, while heqian (市场部), who sat it too, stays outside.
describe('the demo exam, taken on a fresh start', () => {
  let fresh: FastifyInstance;

  beforeAll(async () => {
    fresh = await buildTestApp();
    await reseed(fresh.services.database.db, TEST_PASSWORD, new LocalFileStore(fresh.services.config.dataDir));
  }, 90_000);
  afterAll(async () => {
    await fresh?.close();
  });

  it('is sat by learner1, marked by the teacher question by question, and in the teacher’s report', async () => {
    const exam = await fresh.services.database.db.selectFrom('edu_exam').select('id').where('title', '=', DEMO_EXAM.title).executeTakeFirstOrThrow();
    const learner1 = await loginAs(fresh, 'learner1');
    const attempt = await startAttempt(fresh, learner1, exam.id);
    const shorts = attempt.questions.filter((question) => question.type === 'short');
    expect(shorts).toHaveLength(2);
    for (const question of shorts) {
      const saved = await saveAnswer(fresh, learner1, attempt.id, question.id, { response: `李明的回答 ${question.id}`, revision: 1 });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    expect(await submitAttempt(fresh, learner1, attempt.id)).toMatchObject({ state: 'marking' });

    const teacher = await loginAs(fresh, 'teacher');
    for (const question of shorts) {
      const response = await call(fresh, 'GET', `/api/marking/exams/${exam.id}/queue?questionId=${question.id}&reveal=true`, teacher);
      expect(response.statusCode, response.body).toBe(200);
      const { items } = markingQueueSchema.parse(response.json());
      const mine = items.find((item) => item.attemptId === attempt.id);
      expect(mine).toMatchObject({ candidate: '李明 (learner1)', response: `李明的回答 ${question.id}`, pending: true });
      // heqian's answers await a marker too, but not this one.
      expect(items.map((item) => item.candidate)).not.toContain('何倩 (heqian)');
      const marked = await call(fresh, 'PUT', `/api/marking/answers/${mine?.answerId}`, teacher, { score: 3, comment: '要点基本写到了。' });
      expect(marked.statusCode, marked.body).toBe(204);
    }
    // The administrator's queue holds heqian's answers: out of the teacher's scope, not missing.
    const everyone = await call(fresh, 'GET', `/api/marking/exams/${exam.id}/queue?questionId=${shorts[0]?.id}&reveal=true`, await loginAs(fresh, 'admin'));
    expect(markingQueueSchema.parse(everyone.json()).items.map((item) => item.candidate)).toContain('何倩 (heqian)');

    const response = await call(fresh, 'GET', `/api/exams/${exam.id}/report`, teacher);
    expect(response.statusCode, response.body).toBe(200);
    const { candidates } = examReportSchema.parse(response.json());
    expect(candidates.find((candidate) => candidate.username === 'learner1')).toMatchObject({ attemptId: attempt.id, deptName: '研发部', state: 'graded' });
    expect(candidates.map((candidate) => candidate.username)).not.toContain('heqian');
  });
});
