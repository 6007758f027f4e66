import { questionSchema, type Question, type QuestionCreateBody } from '@cloud-classroom/shared/questions';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { created } from './course-fixtures.js';
import { call } from './test-app.js';

/** A question of each type, as the form sends it. */
export const SAMPLE_QUESTIONS = {
  single: { type: 'single', stem: '<p>Which number calls the fire brigade?</p>', options: [{ key: 'A', text: '110' }, { key: 'B', text: '119' }], answer: ['B'] },
  multiple: {
    type: 'multiple',
    stem: '<p>Which put out a fire?</p>',
    options: [
      { key: 'A', text: 'Water' },
      { key: 'B', text: 'Sand' },
      { key: 'C', text: 'Petrol' },
    ],
    answer: ['A', 'B'],
    policy: 'proportional',
  },
  judge: { type: 'judge', stem: '<p>Lifts are safe in a fire.</p>', answer: ['F'] },
  blank: { type: 'blank', stem: '<p>The fire number is ____.</p>', answer: [['119']] },
  short: { type: 'short', stem: '<p>How do you leave a smoky room?</p>', answer: ['Low, along the wall.'] },
} satisfies Record<string, QuestionCreateBody>;

export const createQuestion = (app: FastifyInstance, token: string, body: QuestionCreateBody) => created(app, token, '/api/questions', body);

export async function readQuestion(app: FastifyInstance, token: string, id: number): Promise<Question> {
  const response = await call(app, 'GET', `/api/questions/${id}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return questionSchema.parse(response.json());
}

/** An exam (a bare draft) with these questions as its fixed ones, written straight into the tables. */
export async function insertExamWith(app: FastifyInstance, title: string, questionIds: readonly number[]): Promise<number> {
  const db = app.services.database.db;
  const now = Date.now();
  const { id } = await db
    .insertInto('edu_exam')
    .values({
      title,
      course_id: null,
      term_id: null,
      status: 'draft',
      description: '',
      paper: JSON.stringify({ sections: [] }),
      total_score: 0,
      question_count: questionIds.length,
      open_at: null,
      close_at: null,
      limit_minutes: null,
      attempts: 1,
      counts: 'best',
      pass_score: 0,
      shuffle_questions: 0,
      shuffle_options: 0,
      review: 'never',
      create_by: 'admin',
      update_by: 'admin',
      create_time: now,
      update_time: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (questionIds.length > 0) await db.insertInto('edu_exam_question').values(questionIds.map((question) => ({ exam_id: id, question_id: question }))).execute();
  return id;
}
