import { drawCheckResultSchema, examPreviewSchema, examSchema, type Exam, type ExamPreview, type PaperBody } from '@cloud-classroom/shared/exams';
import { pageOf } from '@cloud-classroom/shared/http';
import { questionSchema, type Question } from '@cloud-classroom/shared/questions';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createTerm, db, expectRefusal } from '../../test/course-fixtures.js';
import { createExam, createQuestion, createQuestions, examBody, fixedPaper } from '../../test/exam-fixtures.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

const paper = { sections: [{ title: 'One', questionIds: [1] }] };

describe('exams: access', () => {
  const { app, learner } = itRefusesOutsiders([
    ['GET', '/api/exams'],
    ['GET', '/api/exams/1'],
    ['POST', '/api/exams', examBody(paper)],
    ['PUT', '/api/exams', { id: 1, ...examBody(paper) }],
    ['DELETE', '/api/exams', [1]],
    ['POST', '/api/exams/draw-check', { paper }],
    ['GET', '/api/exams/1/preview'],
    ['GET', '/api/exams/1/assignees'],
    ['POST', '/api/exams/1/assignees', { target: 'users', ids: [1] }],
    ['PUT', '/api/exams/1/assignees', { ids: [1], extraMinutes: 5 }],
    ['DELETE', '/api/exams/1/assignees', [1]],
    ['GET', '/api/exams/1/assignees/rules'],
    ['DELETE', '/api/exams/1/assignees/rules', [1]],
  ]);

  it('answers the learner’s own exams only with a session', async () => {
    const anonymous = await call(app(), 'GET', '/api/site/exams');
    expect(anonymous.statusCode).toBe(401);
    const mine = await call(app(), 'GET', '/api/site/exams', learner());
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toEqual([]);
  });

  it('nothing was written by the refused calls', async () => {
    for (const table of ['edu_exam', 'edu_exam_question', 'edu_exam_assignee', 'edu_assignment_rule'] as const) {
      expect(await db(app()).selectFrom(table).selectAll().execute(), table).toEqual([]);
    }
  });
});

describe('exams', () => {
  let app: FastifyInstance;
  let teacher: string;
  let course: number;
  /** Single choices tagged 消防 only (score 2, difficulty 3). */
  let fire: number[];
  /** Single choices tagged 消防 and 安全 (score 2, difficulty 2). */
  let fireSafety: number[];
  /** True/false tagged 安全 (score 1). */
  let judges: number[];
  let blank: number;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    course = await createCourse(app, teacher, { title: 'Fire safety' });
    fire = await createQuestions(app, teacher, 6, { tags: ['消防'], difficulty: 3, score: 2 });
    fireSafety = await createQuestions(app, teacher, 3, { tags: ['消防', '安全'], difficulty: 2, score: 2 });
    judges = await createQuestions(app, teacher, 4, { type: 'judge', tags: ['安全'], difficulty: 1, score: 1 });
    blank = await createQuestion(app, teacher, { type: 'blank', tags: ['填空'], score: 3 });
  });
  afterAll(async () => {
    await app.close();
  });

  const save = (method: 'POST' | 'PUT', body: unknown) => call(app, method, '/api/exams', teacher, body);
  const one = async (id: number): Promise<Exam> => {
    const response = await call(app, 'GET', `/api/exams/${id}`, teacher);
    expect(response.statusCode, response.body).toBe(200);
    return examSchema.parse(response.json());
  };
  const fixedRows = async (examId: number) =>
    (await db(app).selectFrom('edu_exam_question').select('question_id').where('exam_id', '=', examId).orderBy('question_id').execute()).map((row) => row.question_id);

  it('creates an exam, counting its total score and questions, and lists it with its course and term', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Spring' });
    const id = await createExam(
      app,
      teacher,
      {
        sections: [
          // Each question's own score: 2 + 2.
          { title: 'Choices', questionIds: [fire[0]!, fire[1]!] },
          // The section's score for each: 5.
          { title: 'True or false', questionIds: [judges[0]!], score: 5, draw: [{ tags: ['安全'], type: 'judge', count: 3, score: 1.5 }] },
        ],
      },
      { title: 'Fire drill', termId: term, passScore: 8, openAt: '2026-06-01 09:00:00', closeAt: '2026-06-30 18:00:00', limitMinutes: 30, attempts: 2 },
    );
    const exam = await one(id);
    expect(exam).toMatchObject({
      id,
      title: 'Fire drill',
      // The term's course.
      courseId: course,
      courseTitle: 'Fire safety',
      termId: term,
      termName: 'Spring',
      status: 'draft',
      description: '',
      openAt: '2026-06-01 09:00:00',
      closeAt: '2026-06-30 18:00:00',
      limitMinutes: 30,
      attempts: 2,
      counts: 'best',
      passScore: 8,
      totalScore: 13.5,
      questionCount: 6,
      shuffleQuestions: false,
      shuffleOptions: false,
      review: 'after_submit',
      assigneeCount: 0,
      createBy: 'teacher',
    });
    expect(exam.paper.sections[1]).toEqual({
      title: 'True or false',
      questionIds: [judges[0]],
      score: 5,
      draw: [{ tags: ['安全'], type: 'judge', difficulty: null, count: 3, score: 1.5 }],
    });
    expect(await fixedRows(id)).toEqual([fire[0], fire[1], judges[0]].sort((a, b) => a! - b!));

    const list = await call(app, 'GET', `/api/exams?courseId=${course}&q=drill&status=draft`, teacher);
    expect(list.statusCode, list.body).toBe(200);
    expect(pageOf(examSchema).parse(list.json())).toMatchObject({ totalElements: 1, content: [{ id, courseTitle: 'Fire safety', termName: 'Spring' }] });
    const none = await call(app, 'GET', '/api/exams?status=published&q=drill', teacher);
    expect(pageOf(examSchema).parse(none.json()).totalElements).toBe(0);

    // The questions know they are in use.
    const question = await call(app, 'GET', `/api/questions/${fire[0]}`, teacher);
    expect((questionSchema.parse(question.json()) as Question).examCount).toBe(1);
  });

  it('keeps the fixed-question rows in step with the paper on update, and refuses an unknown exam', async () => {
    const id = await createExam(app, teacher, fixedPaper([fire[0]!, fire[1]!]));
    const update = await save('PUT', { id, ...examBody(fixedPaper([fire[1]!, fire[2]!]), { title: 'Renamed', courseId: course, status: 'published' }) });
    expect(update.statusCode, update.body).toBe(204);
    expect(await fixedRows(id)).toEqual([fire[1], fire[2]]);
    expect(await one(id)).toMatchObject({ title: 'Renamed', courseId: course, courseTitle: 'Fire safety', termId: null, status: 'published', totalScore: 4, updateBy: 'teacher' });

    expectRefusal(await save('PUT', { id: 99999, ...examBody(fixedPaper([fire[0]!])) }), 404, 'id');
    expectRefusal(await call(app, 'GET', '/api/exams/99999', teacher), 404, 'id');
  });

  it('refuses a course or term that does not exist, and a term of another course', async () => {
    const other = await createCourse(app, teacher, { title: 'Other' });
    const term = await createTerm(app, teacher, other);
    const base = examBody(fixedPaper([fire[0]!]));
    expect(expectRefusal(await save('POST', { ...base, courseId: 99999 }), 400, 'courseId')).toBe('courseId: course 99999 does not exist');
    expect(expectRefusal(await save('POST', { ...base, termId: 99999 }), 400, 'termId')).toBe('termId: term 99999 does not exist');
    expect(expectRefusal(await save('POST', { ...base, courseId: course, termId: term }), 400, 'termId')).toBe(`termId: term ${term} is not a term of course ${course}`);
  });

  it('refuses a fixed question that does not exist, naming its section', async () => {
    const response = await save('POST', examBody({ sections: [{ title: 'A', questionIds: [fire[0]!] }, { title: 'B', questionIds: [99999] }] }));
    expect(expectRefusal(response, 400, 'paper.sections.1.questionIds')).toBe('paper.sections.1.questionIds: question 99999 does not exist');
  });

  it('refuses a draw rule the bank cannot satisfy, naming the rule and the count', async () => {
    const response = await save('POST', examBody({ sections: [{ title: 'A', questionIds: [judges[0]!] }, { title: 'B', draw: [{ tags: ['消防'], type: 'single', count: 10, score: 1 }] }] }));
    expect(expectRefusal(response, 400, 'paper.sections.1.draw.0')).toBe('paper.sections.1.draw.0: needs 10 single questions tagged 消防, the bank has 9 that match');

    const byDifficulty = await save('POST', examBody({ sections: [{ title: 'A', draw: [{ type: 'single', difficulty: 2, count: 4, score: 1 }] }] }));
    expect(expectRefusal(byDifficulty, 400, 'paper.sections.0.draw.0')).toBe('paper.sections.0.draw.0: needs 4 single questions of difficulty 2, the bank has 3 that match');
  });

  it('counts the paper’s fixed questions out of what a rule may draw', async () => {
    const response = await save('POST', examBody({ sections: [{ title: 'A', questionIds: [fireSafety[0]!, fireSafety[1]!], draw: [{ tags: ['安全'], type: 'single', count: 2, score: 1 }] }] }));
    expect(expectRefusal(response, 400, 'paper.sections.0.draw.0')).toBe(
      'paper.sections.0.draw.0: needs 2 single questions tagged 安全, the bank has 3 that match, 2 of them fixed questions of this paper',
    );
    expect((await save('POST', examBody({ sections: [{ title: 'A', questionIds: [fireSafety[0]!], draw: [{ tags: ['安全'], type: 'single', count: 2, score: 1 }] }] }))).statusCode).toBe(201);
  });

  it('saves overlapping rules that can only be met together, and reports a shortfall they share', async () => {
    // 消防 matches all nine singles, 安全 only three of them: met only if 安全 gets those three.
    const together = { sections: [{ title: 'A', draw: [{ tags: ['消防'], type: 'single' as const, count: 6, score: 1 }] }, { title: 'B', draw: [{ tags: ['安全'], type: 'single' as const, count: 3, score: 1 }] }] };
    const id = await createExam(app, teacher, together, { passScore: 9 });
    expect(await one(id)).toMatchObject({ totalScore: 9, questionCount: 9 });
    expect(await fixedRows(id)).toEqual([]);

    const shared = await save('POST', examBody({ sections: [{ title: 'A', draw: [{ tags: ['消防'], type: 'single', count: 7, score: 1 }, { tags: ['安全'], type: 'single', count: 3, score: 1 }] }] }));
    expect(expectRefusal(shared, 400, 'paper.sections.0.draw.1')).toBe(
      "paper.sections.0.draw.1: needs 3 single questions tagged 安全; the bank has 3 that match, but the paper's other draw rules need some of the same questions",
    );
  });

  it('refuses a pass score above the total, and bad fields by name', async () => {
    expect(expectRefusal(await save('POST', examBody(fixedPaper([fire[0]!]), { passScore: 3 })), 400, 'passScore')).toBe("passScore: is more than the paper's total score of 2");
    expect((await save('POST', examBody(fixedPaper([fire[0]!]), { passScore: 2 }))).statusCode).toBe(201);
    expectRefusal(await save('POST', { ...examBody(fixedPaper([fire[0]!])), title: '' }), 400, 'title');
    expectRefusal(await save('POST', examBody({ sections: [] })), 400, 'paper.sections');
    expectRefusal(await save('POST', examBody({ sections: [{ title: 'A', questionIds: [fire[0]!, fire[0]!] }] })), 400, 'paper.sections.0.questionIds');
    expectRefusal(await save('POST', examBody({ sections: [{ title: 'A', draw: [{ type: 'single', count: 0, score: 1 }] }] })), 400, 'paper.sections.0.draw.0.count');
    expectRefusal(await save('POST', examBody(fixedPaper([fire[0]!]), { openAt: '2026-06-02 00:00:00', closeAt: '2026-06-01 00:00:00' })), 400, 'closeAt');
    expectRefusal(await save('PUT', examBody(fixedPaper([fire[0]!]))), 400, 'id');
    expectRefusal(await call(app, 'GET', '/api/exams?status=open', teacher), 400, 'status');
    expectRefusal(await call(app, 'GET', '/api/exams/abc', teacher), 400, 'id');
    expectRefusal(await call(app, 'DELETE', '/api/exams', teacher, []), 400, 'body');
  });

  it('deletes exams with their fixed-question rows, assignees and rules, all or none', async () => {
    const admin = await loginAs(app, 'admin');
    const id = await createExam(app, teacher, fixedPaper([fire[3]!]));
    const kept = await createExam(app, teacher, fixedPaper([fire[3]!]));
    const learner1 = (await db(app).selectFrom('sys_user').select('id').where('username', '=', 'learner1').executeTakeFirstOrThrow()).id;
    expect((await call(app, 'POST', `/api/exams/${id}/assignees`, admin, { target: 'users', ids: [learner1] })).statusCode).toBe(201);
    const dept = (await db(app).selectFrom('sys_dept').select('id').where('name', '=', '讲师组').executeTakeFirstOrThrow()).id;
    expect((await call(app, 'POST', `/api/exams/${id}/assignees`, admin, { target: 'dept', ids: [dept] })).statusCode).toBe(201);
    expect((await one(id)).assigneeCount).toBe(2);

    expectRefusal(await call(app, 'DELETE', '/api/exams', teacher, [id, 99999]), 404, 'ids');
    expect((await one(id)).assigneeCount).toBe(2);

    const response = await call(app, 'DELETE', '/api/exams', teacher, [id]);
    expect(response.statusCode, response.body).toBe(200);
    expectRefusal(await call(app, 'GET', `/api/exams/${id}`, teacher), 404, 'id');
    expect(await fixedRows(id)).toEqual([]);
    expect(await db(app).selectFrom('edu_exam_assignee').select('id').where('exam_id', '=', id).execute()).toEqual([]);
    expect(await db(app).selectFrom('edu_assignment_rule').select('id').where('exam_id', '=', id).execute()).toEqual([]);
    expect(await fixedRows(kept)).toEqual([fire[3]]);
  });

  it('checks a paper’s draw rules for the editor: matching, available and short per rule', async () => {
    const check = async (body: PaperBody) => {
      const response = await call(app, 'POST', '/api/exams/draw-check', teacher, { paper: body });
      expect(response.statusCode, response.body).toBe(200);
      return drawCheckResultSchema.parse(response.json());
    };
    expect(
      await check({
        sections: [
          { title: 'A', questionIds: [fireSafety[0]!], draw: [{ tags: ['消防'], type: 'single', count: 7, score: 1 }] },
          { title: 'B', draw: [{ tags: ['安全'], type: 'single', count: 2, score: 2 }, { tags: ['填空'], type: 'blank', count: 2, score: 1 }] },
        ],
      }),
    ).toEqual({
      sections: [
        { rules: [{ matching: 9, available: 8, short: false }] },
        // 安全: two left besides the fixed one, but 消防 needs seven of the eight; the blank rule has one question.
        {
          rules: [
            { matching: 3, available: 2, short: true },
            { matching: 1, available: 1, short: true },
          ],
        },
      ],
      totalScore: 2 + 7 + 4 + 2,
      questionCount: 12,
    });
    expect(await check({ sections: [{ title: 'A', draw: [{ tags: ['no such tag'], type: 'single', count: 1, score: 1 }] }] })).toMatchObject({
      sections: [{ rules: [{ matching: 0, available: 0, short: true }] }],
    });
    expectRefusal(await call(app, 'POST', '/api/exams/draw-check', teacher, { paper: { sections: [{ title: 'A', questionIds: [99999] }] } }), 400, 'paper.sections.0.questionIds');
    expectRefusal(await call(app, 'POST', '/api/exams/draw-check', teacher, { paper: { sections: [{ title: 'A', draw: [{ type: 'odd', count: 1, score: 1 }] }] } }), 400, 'paper.sections.0.draw.0.type');
  });

  describe('preview', () => {
    const preview = async (id: number): Promise<ExamPreview> => {
      const response = await call(app, 'GET', `/api/exams/${id}/preview`, teacher);
      expect(response.statusCode, response.body).toBe(200);
      return examPreviewSchema.parse(response.json());
    };
    const questionsById = async (ids: readonly number[]) => {
      const map = new Map<number, Question>();
      for (const id of ids) map.set(id, questionSchema.parse((await call(app, 'GET', `/api/questions/${id}`, teacher)).json()));
      return map;
    };

    it('shows the fixed questions in order with the key, and the drawn ones at random', async () => {
      const id = await createExam(
        app,
        teacher,
        { sections: [{ title: 'Fixed', questionIds: [fire[2]!, fire[0]!, blank], score: 4 }, { title: 'Drawn', draw: [{ tags: ['安全'], type: 'judge', count: 2, score: 1.5 }] }] },
        { title: 'Preview me', description: 'Read carefully', limitMinutes: 20, passScore: 10 },
      );
      const bank = await questionsById([fire[2]!, fire[0]!, blank, ...judges]);
      const drawnSets = new Set<string>();
      for (let draw = 0; draw < 12; draw += 1) {
        const paper = await preview(id);
        expect(paper).toMatchObject({ examId: id, title: 'Preview me', description: 'Read carefully', limitMinutes: 20, totalScore: 15, passScore: 10 });
        const [fixed, drawn] = paper.sections;
        expect(fixed!.title).toBe('Fixed');
        expect(fixed!.questions.map((question) => question.id)).toEqual([fire[2], fire[0], blank]);
        for (const question of fixed!.questions) {
          const own = bank.get(question.id)!;
          // Options in the question's own order when the exam does not shuffle them.
          expect(question).toMatchObject({ type: own.type, stem: own.stem, options: own.options, score: 4, answer: own.answer, analysis: own.analysis, blankRules: own.blankRules });
        }
        expect(fixed!.questions[2]).toMatchObject({ type: 'blank', blanks: 2 });
        expect(fixed!.questions[0]!.blanks).toBe(0);
        expect(drawn!.questions).toHaveLength(2);
        for (const question of drawn!.questions) {
          expect(judges).toContain(question.id);
          expect(question).toMatchObject({ type: 'judge', score: 1.5, answer: ['T'] });
        }
        drawnSets.add(
          drawn!.questions
            .map((question) => question.id)
            .sort((a, b) => a - b)
            .join(','),
        );
      }
      // Two of four judges: six possible pairs, twelve draws.
      expect(drawnSets.size).toBeGreaterThan(1);
    });

    it('shuffles the fixed questions and the options when asked, keys keeping their text', async () => {
      const fixedIds = [...fire, ...fireSafety];
      const id = await createExam(app, teacher, { sections: [{ title: 'All', questionIds: fixedIds }] }, { shuffleQuestions: true, shuffleOptions: true });
      const bank = await questionsById(fixedIds);
      const orders = new Set<string>();
      const optionOrders = new Set<string>();
      for (let draw = 0; draw < 8; draw += 1) {
        const [section] = (await preview(id)).sections;
        const ids = section!.questions.map((question) => question.id);
        expect([...ids].sort((a, b) => a - b)).toEqual([...fixedIds].sort((a, b) => a - b));
        orders.add(ids.join(','));
        for (const question of section!.questions) {
          const own = bank.get(question.id)!;
          // Every key keeps its own text, and the key still says A.
          expect([...question.options].sort((a, b) => a.key.localeCompare(b.key))).toEqual(own.options);
          expect(question.answer).toEqual(['A']);
          optionOrders.add(question.options.map((option) => option.key).join(''));
        }
      }
      expect(orders.size).toBeGreaterThan(1);
      expect(optionOrders.size).toBeGreaterThan(1);
    });

    it('refuses an unknown exam, and a draw the bank no longer satisfies', async () => {
      expectRefusal(await call(app, 'GET', '/api/exams/99999/preview', teacher), 404, 'id');
      expectRefusal(await call(app, 'GET', '/api/exams/abc/preview', teacher), 400, 'id');
      const multiple = await createQuestions(app, teacher, 2, { type: 'multiple', tags: ['多选'] });
      const id = await createExam(app, teacher, { sections: [{ title: 'A', draw: [{ tags: ['多选'], type: 'multiple', count: 2, score: 1 }] }] });
      expect((await call(app, 'DELETE', '/api/questions', teacher, [multiple[0]])).statusCode).toBe(200);
      expect(expectRefusal(await call(app, 'GET', `/api/exams/${id}/preview`, teacher), 409, 'paper.sections.0.draw.0')).toBe(
        'paper.sections.0.draw.0: needs 2 multiple questions tagged 多选, the bank has 1 that matches',
      );
    });
  });
});
