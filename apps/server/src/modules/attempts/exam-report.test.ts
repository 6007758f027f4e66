import { examReportSchema, type ExamReport } from '@cloud-classroom/shared/attempts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExcelJs } from '../../http/xlsx-export.js';
import { insertAttempt, userIdOf } from '../../test/attempt-row-fixtures.js';
import { expectRefusal } from '../../test/course-fixtures.js';
import { addQuestion, createExam, fixedPaper } from '../../test/exam-fixtures.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

describe('report routes refuse outsiders', () => {
  itRefusesOutsiders([
    ['GET', '/api/exams/1/report'],
    ['GET', '/api/exams/1/report/download'],
  ]);
});

describe('exam report', () => {
  let app: FastifyInstance;
  let admin: string;
  let teacher: string;
  let examId: number;
  let single: number;
  let multiple: number;
  let short: number;
  let attempts: Record<string, number>;

  /**
   * A single choice (5, key A), a multiple choice (4, A+B, proportional) and a short answer (10):
   * 19 in all, pass at 12, the best attempt counts. Scores of the counted attempts:
   * learner1 5 + 2 + 8 = 15 (a second attempt, 0 + 4 + 3 = 7, does not count), learner2 0 + 4 + 5 = 9,
   * learner3 5 + 4 + 10 = 19, teacher 5 + 0 + 0 = 5; admin is still sitting it.
   */
  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');
    single = await addQuestion(app, admin, { score: 5 });
    multiple = await addQuestion(app, admin, { type: 'multiple', score: 4, policy: 'proportional' });
    short = await addQuestion(app, admin, { type: 'short', score: 10, answer: ['Stay low'] });
    examId = await createExam(app, admin, fixedPaper([single, multiple, short]), { title: 'Evacuation drill', passScore: 12 });
    const people = ['admin', 'learner1', 'learner2', 'learner3', 'teacher'];
    const now = Date.now();
    for (const username of people) {
      await app.services.database.db
        .insertInto('edu_exam_assignee')
        .values({ exam_id: examId, user_id: await userIdOf(app, username), source: 'staff', rule_id: null, due_at: null, extra_minutes: 0, extra_attempts: 0, open_at: null, close_at: null, create_by: 'admin', create_time: now, update_time: now })
        .execute();
    }
    attempts = {};
    const sit = async (key: string, username: string, number: number, responses: [string, string[], string | null], marked: number | null, seconds: number, events: ('hidden' | 'paste')[] = []) => {
      const attempt = await insertAttempt(app, {
        examId,
        username,
        number,
        events,
        submitted: marked !== null,
        answers: [
          { questionId: single, maxScore: 5, response: responses[0], seconds },
          { questionId: multiple, maxScore: 4, response: responses[1], seconds: seconds * 2 },
          { questionId: short, maxScore: 10, response: responses[2], seconds: seconds * 3 },
        ],
      });
      attempts[key] = attempt.id;
      if (marked !== null) {
        const response = await call(app, 'PUT', `/api/marking/answers/${attempt.answerIds[2]}`, admin, { score: marked });
        expect(response.statusCode, response.body).toBe(204);
      }
    };
    await sit('learner1', 'learner1', 1, ['A', ['A'], 'Crawl out'], 8, 10, ['hidden', 'paste']);
    await sit('learner2', 'learner2', 1, ['B', ['A', 'B'], 'Run'], 5, 20);
    await sit('learner3', 'learner3', 1, ['A', ['A', 'B'], 'Stay low'], 10, 30);
    await sit('teacher', 'teacher', 1, ['A', ['A', 'C'], 'No idea'], 0, 40);
    await sit('learner1Again', 'learner1', 2, ['B', ['A', 'B'], 'Walk'], 3, 1000);
    await sit('admin', 'admin', 1, ['A', [], null], null, 0);
  });
  afterAll(async () => {
    await app.close();
  });

  async function report(token: string): Promise<ExamReport> {
    const response = await call(app, 'GET', `/api/exams/${examId}/report`, token);
    expect(response.statusCode, response.body).toBe(200);
    return examReportSchema.parse(response.json());
  }

  it('reports the counted attempts\' figures, worked out by hand', async () => {
    const figures = await report(admin);
    expect(figures).toMatchObject({
      examId,
      title: 'Evacuation drill',
      totalScore: 19,
      passScore: 12,
      assigned: 5,
      graded: 4,
      marking: 0,
      inProgress: 1,
      passed: 2,
      passRate: 0.5,
      // 15, 9, 19, 5: mean 12, median (9 + 15) / 2, spread √((9 + 9 + 49 + 49) / 4) = √29.
      mean: 12,
      median: 12,
      stdDev: 5.39,
      min: 5,
      max: 19,
    });
    // Bands of 1.9: 5 in the third, 9 in the fifth, 15 in the eighth, the full 19 in the last.
    expect(figures.histogram.map((band) => band.count)).toEqual([0, 0, 1, 0, 1, 0, 0, 1, 0, 1]);
    expect(figures.histogram[1]).toEqual({ from: 1.9, to: 3.8, count: 0 });
    expect(figures.histogram[9]).toEqual({ from: 17.1, to: 19, count: 1 });
  });

  it('reports each question: facility, discrimination, option rates, time', async () => {
    const [first, second, third] = (await report(admin)).questions;
    // Groups of 1 (27 % of 4): upper learner3 (19), lower the teacher (5).
    expect(first).toMatchObject({ questionId: single, type: 'single', maxScore: 5, answered: 4, facility: 0.75, discrimination: 0, meanSeconds: 25 });
    expect(first?.stemText).toMatch(/^Question \d+$/);
    expect(first?.options.map(({ key, correct, rate }) => [key, correct, rate])).toEqual([
      ['A', true, 0.75],
      ['B', false, 0.25],
      ['C', false, 0],
      ['D', false, 0],
    ]);
    // 2 + 4 + 4 + 0 of 16; picked: A, A+B, A+B, A+C.
    expect(second).toMatchObject({ questionId: multiple, type: 'multiple', answered: 4, facility: 0.625, discrimination: 1, meanSeconds: 50 });
    expect(second?.options.map(({ key, correct, rate }) => [key, correct, rate])).toEqual([
      ['A', true, 1],
      ['B', true, 0.5],
      ['C', false, 0.25],
      ['D', false, 0],
    ]);
    // 8 + 5 + 10 + 0 of 40.
    expect(third).toMatchObject({ questionId: short, type: 'short', maxScore: 10, answered: 4, facility: 0.575, discrimination: 1, options: [], meanSeconds: 75 });
  });

  it('breaks the results down by department and lists the counted attempts, best first', async () => {
    const figures = await report(admin);
    expect(figures.departments.map(({ deptName, graded, passed, mean }) => [deptName, graded, passed, mean])).toEqual([
      ['讲师组', 1, 0, 5],
      ['市场部', 1, 0, 9],
      ['学员服务组', 1, 1, 19],
      ['研发部', 1, 1, 15],
    ]);
    expect(figures.candidates.map(({ attemptId, username, deptName, state, score, passed, events }) => [attemptId, username, deptName, state, score, passed, events])).toEqual([
      [attempts.learner3, 'learner3', '学员服务组', 'graded', 19, true, 0],
      [attempts.learner1, 'learner1', '研发部', 'graded', 15, true, 2],
      [attempts.learner2, 'learner2', '市场部', 'graded', 9, false, 0],
      [attempts.teacher, 'teacher', '讲师组', 'graded', 5, false, 0],
    ]);
  });

  it('counts the attempt the exam says counts', async () => {
    const { db } = app.services.database;
    await db.updateTable('edu_exam').set({ counts: 'last' }).where('id', '=', examId).execute();
    try {
      const figures = await report(admin);
      expect(figures.candidates.find((candidate) => candidate.username === 'learner1')).toMatchObject({ attemptId: attempts.learner1Again, score: 7, passed: false });
      // 7, 9, 19, 5.
      expect(figures).toMatchObject({ graded: 4, passed: 1, mean: 10 });
    } finally {
      await db.updateTable('edu_exam').set({ counts: 'best' }).where('id', '=', examId).execute();
    }
  });

  it('reports only the candidates within the caller\'s data scope', async () => {
    // The training department and 研发部: learner3, learner1 and the teacher; learner2 (市场部) and
    // admin (云课堂, still sitting it) are outside. 19, 15, 5: mean 13, spread √((36 + 4 + 64) / 3).
    const figures = await report(teacher);
    expect(figures).toMatchObject({ assigned: 3, graded: 3, passed: 2, mean: 13, median: 15, stdDev: 5.89, inProgress: 0 });
    expect(figures.candidates.map((candidate) => candidate.username)).toEqual(['learner3', 'learner1', 'teacher']);
    expect(figures.departments.map((department) => department.deptName)).not.toContain('市场部');
    // Groups of 1 of 3 candidates: 19 and 5.
    expect(figures.questions[0]).toMatchObject({ facility: 1, discrimination: 0 });
  });

  it('answers 400 for a malformed id and 404 for an unknown exam', async () => {
    expectRefusal(await call(app, 'GET', '/api/exams/abc/report', admin), 400, 'id');
    expectRefusal(await call(app, 'GET', '/api/exams/0/report/download', admin), 400, 'id');
    expect((await call(app, 'GET', '/api/exams/999999/report', admin)).statusCode).toBe(404);
    expect((await call(app, 'GET', '/api/exams/999999/report/download', admin)).statusCode).toBe(404);
  });

  it('downloads the report as a workbook of six sheets', async () => {
    const response = await call(app, 'GET', `/api/exams/${examId}/report/download`, admin);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toContain('.xlsx');
    const ExcelJS = await loadExcelJs();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['概览', '分数分布', '试题分析', '选项分析', '部门', '考生']);
    const rows = (name: string) => (workbook.getWorksheet(name)?.getSheetValues() ?? []).filter(Boolean).map((row) => (row as unknown[]).slice(1));
    const summary = new Map(rows('概览').map((row) => [row[0], row[1]]));
    expect([summary.get('考试'), summary.get('已评分'), summary.get('及格率 (%)'), summary.get('平均分'), summary.get('标准差')]).toEqual(['Evacuation drill', 4, 50, 12, 5.39]);
    expect(rows('分数分布').slice(1).map((row) => row[2])).toEqual([0, 0, 1, 0, 1, 0, 0, 1, 0, 1]);
    expect(rows('试题分析').slice(1).map((row) => [row[0], row[1], row[6], row[7], row[8]])).toEqual([
      ['Q1', single, 0.75, 0, 25],
      ['Q2', multiple, 0.625, 1, 50],
      ['Q3', short, 0.575, 1, 75],
    ]);
    expect(rows('选项分析').length).toBe(1 + 4 + 4);
    expect(rows('部门').slice(1).map((row) => row[0])).toEqual(['讲师组', '市场部', '学员服务组', '研发部']);
    expect(rows('考生').slice(1).map((row) => [row[0], row[4], row[5], row[7]])).toEqual([
      ['learner3', 19, '是', 0],
      ['learner1', 15, '是', 2],
      ['learner2', 9, '否', 0],
      ['teacher', 5, '否', 0],
    ]);
  });
});
