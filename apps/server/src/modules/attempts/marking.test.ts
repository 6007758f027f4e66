import { markingAttemptSchema, markingQueueSchema, regradeResultSchema, type MarkingQueue } from '@cloud-classroom/shared/attempts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedExam, readResult, saveAnswer, startAttempt, submitAttempt } from '../../test/attempt-fixtures.js';
import { insertAttempt } from '../../test/attempt-row-fixtures.js';
import { expectRefusal } from '../../test/course-fixtures.js';
import { addQuestion, createExam, fixedPaper } from '../../test/exam-fixtures.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { readQuestion } from '../../test/question-fixtures.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

describe('marking routes refuse outsiders', () => {
  itRefusesOutsiders([
    ['GET', '/api/marking/exams/1/queue'],
    ['GET', '/api/marking/attempts/1'],
    ['PUT', '/api/marking/answers/1', { score: 1 }],
    ['POST', '/api/exams/1/regrade'],
  ]);
});

describe('marking', () => {
  let app: FastifyInstance;
  let admin: string;
  let teacher: string;

  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
  });

  /**
   * An exam of a single choice (5 points, key A), a multiple choice (4, key A+B, proportional)
   * and a short answer (10); pass at 12. Four candidates submitted, in this order:
   * learner1 5 + 2 + ?, learner2 0 + 4 + ?, learner3 5 + 4 + ?, teacher 5 + 0 + ?.
   */
  async function sittings() {
    const single = await addQuestion(app, admin, { score: 5 });
    const multiple = await addQuestion(app, admin, { type: 'multiple', score: 4, policy: 'proportional' });
    const short = await addQuestion(app, admin, { type: 'short', score: 10, answer: ['Stay low'] });
    const examId = await createExam(app, admin, fixedPaper([single, multiple, short]), { passScore: 12 });
    const sit = (username: string, responses: [string, string[], string | null], events: ('hidden' | 'paste')[] = []) =>
      insertAttempt(app, {
        examId,
        username,
        events,
        answers: [
          { questionId: single, maxScore: 5, response: responses[0], seconds: 20 },
          { questionId: multiple, maxScore: 4, response: responses[1], seconds: 30 },
          { questionId: short, maxScore: 10, response: responses[2], seconds: 90 },
        ],
      });
    const learner1 = await sit('learner1', ['A', ['A'], 'Crawl out'], ['hidden']);
    const learner2 = await sit('learner2', ['B', ['A', 'B'], 'Run']);
    const learner3 = await sit('learner3', ['A', ['B', 'A'], 'Low, along the wall']);
    const teacherAttempt = await sit('teacher', ['A', ['A', 'C'], 'No idea']);
    return { examId, single, multiple, short, learner1, learner2, learner3, teacher: teacherAttempt };
  }

  async function queue(token: string, examId: number, query = ''): Promise<MarkingQueue> {
    const response = await call(app, 'GET', `/api/marking/exams/${examId}/queue${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return markingQueueSchema.parse(response.json());
  }

  const mark = (token: string, answerId: number, body: Record<string, unknown>) => call(app, 'PUT', `/api/marking/answers/${answerId}`, token, body);

  async function attemptRow(id: number) {
    const row = await app.services.database.db.selectFrom('edu_attempt').select(['state', 'score', 'passed']).where('id', '=', id).executeTakeFirstOrThrow();
    return { state: row.state, score: row.score === null ? null : Number(row.score), passed: row.passed };
  }

  async function changesOf(attemptId: number) {
    const rows = await app.services.database.db
      .selectFrom('edu_score_change')
      .select(['answer_id', 'kind', 'old_score', 'new_score', 'reason', 'create_by'])
      .where('attempt_id', '=', attemptId)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ ...row, old_score: row.old_score === null ? null : Number(row.old_score), new_score: row.new_score === null ? null : Number(row.new_score) }));
  }

  it('queues the answers by question across candidates, anonymously unless names are asked for', async () => {
    const s = await sittings();
    const groups = await queue(admin, s.examId);
    expect(groups).toMatchObject({ examId: s.examId, by: 'question', items: [], pendingTotal: 4, attemptCount: 4, gradedCount: 0 });
    expect(groups.groups.map(({ id, total, pending }) => ({ id, total, pending }))).toEqual([
      { id: s.single, total: 4, pending: 0 },
      { id: s.multiple, total: 4, pending: 0 },
      { id: s.short, total: 4, pending: 4 },
    ]);
    expect(groups.groups.map((group) => group.label)).toEqual([expect.stringMatching(/^Q1 · Question \d+$/), expect.stringMatching(/^Q2 · /), expect.stringMatching(/^Q3 · /)]);

    const shorts = await queue(admin, s.examId, `?questionId=${s.short}`);
    expect(shorts.items.map((item) => [item.candidate, item.response, item.pending, item.maxScore])).toEqual([
      ['Candidate 1', 'Crawl out', true, 10],
      ['Candidate 2', 'Run', true, 10],
      ['Candidate 3', 'Low, along the wall', true, 10],
      ['Candidate 4', 'No idea', true, 10],
    ]);
    expect(shorts.items[0]).toMatchObject({ type: 'short', answer: ['Stay low'], autoScore: null, score: null, attemptId: s.learner1.id, answerId: s.learner1.answerIds[2] });

    const named = await queue(admin, s.examId, `?questionId=${s.short}&reveal=true`);
    expect(named.items.map((item) => item.candidate)).toEqual(['李明 (learner1)', '王芳 (learner2)', '赵磊 (learner3)', '张老师 (teacher)']);

    // Nothing of the single choice awaits a marker; all of it, to revisit.
    expect((await queue(admin, s.examId, `?questionId=${s.single}`)).items).toEqual([]);
    const singles = await queue(admin, s.examId, `?questionId=${s.single}&pending=false`);
    expect(singles.items.map((item) => [item.response, item.autoScore, item.score, item.pending])).toEqual([
      ['A', 5, 5, false],
      ['B', 0, 0, false],
      ['A', 5, 5, false],
      ['A', 5, 5, false],
    ]);
  });

  it('queues by attempt, with each attempt\'s counters and its answers in paper order', async () => {
    const s = await sittings();
    const byAttempt = await queue(admin, s.examId, '?by=attempt');
    expect(byAttempt.groups).toEqual([
      { id: s.learner1.id, label: 'Candidate 1', total: 3, pending: 1 },
      { id: s.learner2.id, label: 'Candidate 2', total: 3, pending: 1 },
      { id: s.learner3.id, label: 'Candidate 3', total: 3, pending: 1 },
      { id: s.teacher.id, label: 'Candidate 4', total: 3, pending: 1 },
    ]);
    const items = (await queue(admin, s.examId, `?by=attempt&attemptId=${s.learner2.id}&pending=false`)).items;
    expect(items.map((item) => [item.questionId, item.score])).toEqual([
      [s.single, 0],
      [s.multiple, 4],
      [s.short, null],
    ]);
  });

  it('gives each answer the order its candidate saw the options in, the question\'s own where none was frozen', async () => {
    const single = await addQuestion(app, admin, { score: 5 });
    const examId = await createExam(app, admin, fixedPaper([single]));
    const shuffled = await insertAttempt(app, { examId, username: 'learner1', answers: [{ questionId: single, maxScore: 5, response: 'D', optionOrder: ['D', 'C', 'A', 'B'] }] });
    const plain = await insertAttempt(app, { examId, username: 'learner2', answers: [{ questionId: single, maxScore: 5, response: 'A' }] });
    const items = (await queue(admin, examId, `?questionId=${single}&pending=false`)).items;
    expect(items.map((item) => [item.attemptId, item.response, item.optionOrder])).toEqual([
      [shuffled.id, 'D', ['D', 'C', 'A', 'B']],
      [plain.id, 'A', ['A', 'B', 'C', 'D']],
    ]);
    expect((await queue(admin, examId, `?by=attempt&attemptId=${shuffled.id}&pending=false`)).items.map((item) => item.optionOrder)).toEqual([['D', 'C', 'A', 'B']]);
    const attempt = markingAttemptSchema.parse((await call(app, 'GET', `/api/marking/attempts/${shuffled.id}`, admin)).json());
    expect(attempt.items.map((item) => item.optionOrder)).toEqual([['D', 'C', 'A', 'B']]);
  });

  it('grades an attempt when its last answer is marked, and counts what is left', async () => {
    const s = await sittings();
    const shortOf = (attempt: { answerIds: number[] }) => attempt.answerIds[2] as number;
    expect((await mark(admin, shortOf(s.learner1), { score: 8, comment: 'Mostly right' })).statusCode).toBe(204);
    // 5 + 2 + 8 = 15 ≥ 12.
    expect(await attemptRow(s.learner1.id)).toEqual({ state: 'graded', score: 15, passed: 1 });
    expect((await mark(admin, shortOf(s.learner2), { score: 7 })).statusCode).toBe(204);
    expect(await attemptRow(s.learner2.id)).toEqual({ state: 'graded', score: 11, passed: 0 });
    expect(await attemptRow(s.learner3.id)).toEqual({ state: 'marking', score: null, passed: null });

    const after = await queue(admin, s.examId, `?questionId=${s.short}`);
    expect(after).toMatchObject({ pendingTotal: 2, attemptCount: 4, gradedCount: 2 });
    expect(after.items.map((item) => item.candidate)).toEqual(['Candidate 3', 'Candidate 4']);
    const all = await queue(admin, s.examId, `?questionId=${s.short}&pending=false`);
    expect(all.items[0]).toMatchObject({ score: 8, comment: 'Mostly right', markedBy: 'admin', pending: false, markedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d /) });
    expect(await changesOf(s.learner1.id)).toEqual([{ answer_id: shortOf(s.learner1), kind: 'mark', old_score: null, new_score: 8, reason: '', create_by: 'admin' }]);
  });

  it('refuses a score above the question\'s maximum, and an override without a reason', async () => {
    const s = await sittings();
    const short = s.learner1.answerIds[2] as number;
    const single = s.learner2.answerIds[0] as number;
    expectRefusal(await mark(admin, short, { score: 10.5 }), 400, 'score');
    expectRefusal(await mark(admin, short, { score: -1 }), 400, 'score');
    expectRefusal(await mark(admin, short, { score: 'ten' }), 400, 'score');
    expectRefusal(await mark(admin, short, {}), 400, 'score');
    expectRefusal(await mark(admin, short, { score: 1, comment: 'x'.repeat(2001) }), 400, 'comment');
    expect(expectRefusal(await mark(admin, single, { score: 5 }), 400, 'reason')).toMatch(/required/);
    expectRefusal(await call(app, 'PUT', '/api/marking/answers/abc', admin, { score: 1 }), 400, 'answerId');
    expect((await mark(admin, 999_999, { score: 1 })).statusCode).toBe(404);
    // Nothing was written.
    expect(await changesOf(s.learner1.id)).toEqual([]);
    expect(await changesOf(s.learner2.id)).toEqual([]);
  });

  it('overrides a score with a reason, audited with the old and new score, and sums the graded attempt again', async () => {
    const s = await sittings();
    const [single, , short] = s.learner2.answerIds as [number, number, number];
    expect((await mark(admin, short, { score: 7 })).statusCode).toBe(204);
    expect(await attemptRow(s.learner2.id)).toEqual({ state: 'graded', score: 11, passed: 0 });
    expect((await mark(admin, single, { score: 5, comment: 'B is right too', reason: 'The key missed B' })).statusCode).toBe(204);
    expect(await attemptRow(s.learner2.id)).toEqual({ state: 'graded', score: 16, passed: 1 });
    // A marker's own score overridden needs a reason as well.
    expectRefusal(await mark(admin, short, { score: 6 }), 400, 'reason');
    expect((await mark(admin, short, { score: 6, reason: 'Second marker' })).statusCode).toBe(204);
    expect(await attemptRow(s.learner2.id)).toEqual({ state: 'graded', score: 15, passed: 1 });
    expect(await changesOf(s.learner2.id)).toEqual([
      { answer_id: short, kind: 'mark', old_score: null, new_score: 7, reason: '', create_by: 'admin' },
      { answer_id: single, kind: 'override', old_score: 0, new_score: 5, reason: 'The key missed B', create_by: 'admin' },
      { answer_id: short, kind: 'override', old_score: 7, new_score: 6, reason: 'Second marker', create_by: 'admin' },
    ]);

    const response = await call(app, 'GET', `/api/marking/attempts/${s.learner2.id}`, admin);
    expect(response.statusCode, response.body).toBe(200);
    const attempt = markingAttemptSchema.parse(response.json());
    expect(attempt).toMatchObject({ id: s.learner2.id, examId: s.examId, candidate: 'Candidate 2', state: 'graded', score: 15, passed: true, submittedBy: 'learner' });
    expect(attempt.items.map((item) => [item.questionId, item.autoScore, item.score, item.comment])).toEqual([
      [s.single, 0, 5, 'B is right too'],
      [s.multiple, 4, 4, null],
      [s.short, null, 6, null],
    ]);
    expect(attempt.changes.map((change) => [change.kind, change.oldScore, change.newScore, change.reason, change.by])).toEqual([
      ['mark', null, 7, '', 'admin'],
      ['override', 0, 5, 'The key missed B', 'admin'],
      ['override', 7, 6, 'Second marker', 'admin'],
    ]);
  });

  it('shows an attempt\'s integrity timeline, and names the candidate only when asked', async () => {
    const s = await sittings();
    const response = await call(app, 'GET', `/api/marking/attempts/${s.learner1.id}`, admin);
    expect(response.statusCode, response.body).toBe(200);
    const attempt = markingAttemptSchema.parse(response.json());
    expect(attempt.events.map((event) => event.type)).toEqual(['start', 'hidden', 'submit']);
    expect(attempt.candidate).toBe('Candidate 1');
    const named = markingAttemptSchema.parse((await call(app, 'GET', `/api/marking/attempts/${s.learner1.id}?reveal=true`, admin)).json());
    expect(named.candidate).toBe('李明 (learner1)');
    expectRefusal(await call(app, 'GET', '/api/marking/attempts/0', admin), 400, 'id');
    expectRefusal(await call(app, 'GET', `/api/marking/attempts/${s.learner1.id}?reveal=maybe`, admin), 400, 'reveal');
    expect((await call(app, 'GET', '/api/marking/attempts/999999', admin)).statusCode).toBe(404);
  });

  it('leaves attempts in progress out of the queue and refuses to mark them', async () => {
    const s = await sittings();
    const open = await insertAttempt(app, {
      examId: s.examId,
      username: 'learner1',
      number: 2,
      submitted: false,
      answers: [{ questionId: s.short, maxScore: 10, response: 'Draft' }],
    });
    expect(await queue(admin, s.examId)).toMatchObject({ attemptCount: 4, pendingTotal: 4 });
    const refused = await mark(admin, open.answerIds[0] as number, { score: 3 });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(await changesOf(open.id)).toEqual([]);
  });

  it('answers 400 for a malformed queue query and 404 for an unknown exam', async () => {
    const s = await sittings();
    expectRefusal(await call(app, 'GET', `/api/marking/exams/${s.examId}/queue?by=candidate`, admin), 400, 'by');
    expectRefusal(await call(app, 'GET', `/api/marking/exams/${s.examId}/queue?questionId=x`, admin), 400, 'questionId');
    expectRefusal(await call(app, 'GET', `/api/marking/exams/${s.examId}/queue?pending=yes`, admin), 400, 'pending');
    expectRefusal(await call(app, 'GET', '/api/marking/exams/abc/queue', admin), 400, 'id');
    expect((await call(app, 'GET', '/api/marking/exams/999999/queue', admin)).statusCode).toBe(404);
  });

  it('shows and lets staff mark only the candidates within their data scope', async () => {
    const s = await sittings();
    // The teacher's scope is the training department and 研发部: 研发部 (learner1), 学员服务组
    // (learner3) and 讲师组 (the teacher); learner2 of 市场部 is outside.
    const seen = await queue(teacher, s.examId, '?by=attempt');
    expect(seen.groups.map((group) => [group.id, group.label])).toEqual([
      [s.learner1.id, 'Candidate 1'],
      [s.learner3.id, 'Candidate 3'],
      [s.teacher.id, 'Candidate 4'],
    ]);
    // learner2's submission is said to be there, not counted: a marker does not take 3 for everything that came in.
    expect(seen).toMatchObject({ attemptCount: 3, pendingTotal: 3, outsideScope: 1 });
    expect(await queue(admin, s.examId, '?by=attempt')).toMatchObject({ attemptCount: 4, outsideScope: 0 });
    expect((await queue(teacher, s.examId, `?questionId=${s.short}`)).items.map((item) => item.attemptId)).toEqual([s.learner1.id, s.learner3.id, s.teacher.id]);
    expect((await mark(teacher, s.learner2.answerIds[2] as number, { score: 3 })).statusCode).toBe(403);
    expect((await call(app, 'GET', `/api/marking/attempts/${s.learner2.id}`, teacher)).statusCode).toBe(403);
    expect((await mark(teacher, s.learner3.answerIds[2] as number, { score: 9 })).statusCode).toBe(204);
    expect(await attemptRow(s.learner3.id)).toEqual({ state: 'graded', score: 18, passed: 1 });
    expect(await changesOf(s.learner2.id)).toEqual([]);
  });

  it('marks an attempt sat through the learner\'s routes, which the learner then sees graded', async () => {
    const single = await addQuestion(app, admin, { score: 5 });
    const short = await addQuestion(app, admin, { type: 'short', score: 5, answer: ['Stay low'] });
    const examId = await publishedExam(app, admin, [single, short], ['learner1'], { passScore: 8, review: 'after_submit' });
    const learner = await loginAs(app, 'learner1');
    const attempt = await startAttempt(app, learner, examId);
    expect((await saveAnswer(app, learner, attempt.id, single, { response: 'A', revision: 1 })).statusCode).toBe(200);
    expect((await saveAnswer(app, learner, attempt.id, short, { response: 'Crawl along the wall', revision: 1 })).statusCode).toBe(200);
    expect(await submitAttempt(app, learner, attempt.id)).toMatchObject({ state: 'marking', released: false });

    const waiting = await queue(admin, examId, `?questionId=${short}`);
    expect(waiting).toMatchObject({ pendingTotal: 1, attemptCount: 1, gradedCount: 0 });
    expect(waiting.items.map((item) => [item.candidate, item.response])).toEqual([['Candidate 1', 'Crawl along the wall']]);
    expect((await mark(admin, waiting.items[0]?.answerId as number, { score: 4, comment: 'Good' })).statusCode).toBe(204);
    expect(await readResult(app, learner, attempt.id)).toMatchObject({ state: 'graded', released: true, score: 9, passed: true });
  });

  describe('regrading', () => {
    async function regrade(examId: number) {
      const response = await call(app, 'POST', `/api/exams/${examId}/regrade`, admin);
      expect(response.statusCode, response.body).toBe(200);
      return regradeResultSchema.parse(response.json());
    }

    it('rescores after a key fix through the question bank, keeping markers\' scores, with an audit row per changed answer', async () => {
      const s = await sittings();
      // Everyone's short answer marked 8: learner1 15 (pass), learner2 12 (pass), learner3 17, teacher 13.
      for (const attempt of [s.learner1, s.learner2, s.learner3, s.teacher]) expect((await mark(admin, attempt.answerIds[2] as number, { score: 8 })).statusCode).toBe(204);
      // learner3's single choice overridden to 4: stays in force whatever the key.
      expect((await mark(admin, s.learner3.answerIds[0] as number, { score: 4, reason: 'Half right' })).statusCode).toBe(204);
      expect(await attemptRow(s.learner1.id)).toEqual({ state: 'graded', score: 15, passed: 1 });

      // The key was wrong: B, not A.
      const question = await readQuestion(app, admin, s.single);
      const fix = await call(app, 'PUT', '/api/questions', admin, {
        id: question.id,
        type: question.type,
        stem: question.stem,
        options: question.options,
        answer: ['B'],
        analysis: question.analysis,
        difficulty: question.difficulty,
        tags: question.tags,
        score: question.score,
      });
      expect(fix.statusCode, fix.body).toBe(204);
      const jobs = await app.services.database.db.selectFrom('sys_job').select(['name', 'payload']).where('name', '=', 'attempts.regrade').execute();
      expect(jobs.map((job) => JSON.parse(job.payload) as unknown)).toEqual([{ questionIds: [s.single], by: 'admin' }]);
      await app.services.jobs.runDue();

      // learner1 5 → 0: 10, fails; learner2 0 → 5: 17; learner3 keeps the marker's 4; teacher 5 → 0: 8.
      expect(await attemptRow(s.learner1.id)).toEqual({ state: 'graded', score: 10, passed: 0 });
      expect(await attemptRow(s.learner2.id)).toEqual({ state: 'graded', score: 17, passed: 1 });
      expect(await attemptRow(s.learner3.id)).toEqual({ state: 'graded', score: 16, passed: 1 });
      expect(await attemptRow(s.teacher.id)).toEqual({ state: 'graded', score: 8, passed: 0 });
      expect((await changesOf(s.learner1.id)).filter((change) => change.kind === 'regrade')).toEqual([
        { answer_id: s.learner1.answerIds[0], kind: 'regrade', old_score: 5, new_score: 0, reason: '', create_by: 'admin' },
      ]);
      expect((await changesOf(s.learner3.id)).filter((change) => change.kind === 'regrade')).toEqual([]);
      const learner3 = markingAttemptSchema.parse((await call(app, 'GET', `/api/marking/attempts/${s.learner3.id}`, admin)).json());
      expect(learner3.items[0]).toMatchObject({ autoScore: 0, score: 4 });

      // Run again: nothing left to change.
      expect(await regrade(s.examId)).toEqual({ attempts: 0, answers: 8, changed: 0 });
    });

    it('regrades an exam on demand: only what changed, attempts still being marked keep waiting', async () => {
      const s = await sittings();
      expect((await mark(admin, s.learner1.answerIds[2] as number, { score: 8 })).statusCode).toBe(204);
      // The multiple choice's policy turned to all-or-nothing behind the bank's back (no job queued).
      await app.services.database.db.updateTable('edu_question').set({ policy: 'all' }).where('id', '=', s.multiple).execute();
      // learner1 picked A of A+B: 2 → 0; learner2 and learner3 had it right; the teacher's A+C was 0 already.
      expect(await regrade(s.examId)).toEqual({ attempts: 1, answers: 8, changed: 1 });
      expect(await attemptRow(s.learner1.id)).toEqual({ state: 'graded', score: 13, passed: 1 });
      expect(await attemptRow(s.learner2.id)).toEqual({ state: 'marking', score: null, passed: null });
      expect((await changesOf(s.learner1.id)).map((change) => [change.kind, change.old_score, change.new_score])).toEqual([
        ['mark', null, 8],
        ['regrade', 2, 0],
      ]);
      expect(await regrade(s.examId)).toEqual({ attempts: 0, answers: 8, changed: 0 });
    });

    it('rescores the one answer of a group of alike answers that holds something else, and leaves a marker\'s score among them', async () => {
      const s = await sittings();
      // learner1, learner3 and the teacher all chose A (5 points). learner3's is overridden to 4;
      // the teacher's holds a stale 0, as if scored against an older key.
      expect((await mark(admin, s.learner3.answerIds[0] as number, { score: 4, reason: 'Half right' })).statusCode).toBe(204);
      await app.services.database.db.updateTable('edu_attempt_answer').set({ auto_score: 0, score: 0, correct: 0 }).where('id', '=', s.teacher.answerIds[0] as number).execute();
      expect(await regrade(s.examId)).toEqual({ attempts: 0, answers: 8, changed: 1 });
      expect((await changesOf(s.teacher.id)).map((change) => [change.answer_id, change.kind, change.old_score, change.new_score])).toEqual([[s.teacher.answerIds[0], 'regrade', 0, 5]]);
      expect((await changesOf(s.learner1.id)).filter((change) => change.kind === 'regrade')).toEqual([]);
      expect((await changesOf(s.learner3.id)).filter((change) => change.kind === 'regrade')).toEqual([]);
      const learner3 = markingAttemptSchema.parse((await call(app, 'GET', `/api/marking/attempts/${s.learner3.id}`, admin)).json());
      expect(learner3.items[0]).toMatchObject({ autoScore: 5, score: 4 });
      expect(await regrade(s.examId)).toEqual({ attempts: 0, answers: 8, changed: 0 });
    });

    it('answers 400 for a malformed id and 404 for an unknown exam', async () => {
      expectRefusal(await call(app, 'POST', '/api/exams/abc/regrade', admin), 400, 'id');
      expect((await call(app, 'POST', '/api/exams/999999/regrade', admin)).statusCode).toBe(404);
    });

    it('queues no regrade for an edit that leaves the key alone', async () => {
      const id = await addQuestion(app, admin, { score: 5 });
      const question = await readQuestion(app, admin, id);
      const before = await app.services.database.db.selectFrom('sys_job').select('id').where('name', '=', 'attempts.regrade').execute();
      const edit = await call(app, 'PUT', '/api/questions', admin, { id, type: 'single', stem: '<p>Reworded</p>', options: question.options, answer: question.answer, score: 3 });
      expect(edit.statusCode, edit.body).toBe(204);
      const after = await app.services.database.db.selectFrom('sys_job').select('id').where('name', '=', 'attempts.regrade').execute();
      expect(after.length).toBe(before.length);
    });
  });
});
