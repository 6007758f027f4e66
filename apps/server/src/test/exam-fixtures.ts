import type { ExamCreateBody, PaperBody } from '@cloud-classroom/shared/exams';
import type { QuestionCreateBody } from '@cloud-classroom/shared/questions';
import type { FastifyInstance } from 'fastify';
import { created } from './course-fixtures.js';

// What the exam tests share: questions made through the question bank's API, and exams made
// through the exams' API, answering their ids.

let questions = 0;

/** A question through `POST api/questions` (a single choice of four options, key A, unless told). */
export async function createQuestion(app: FastifyInstance, token: string, body: Partial<QuestionCreateBody> = {}): Promise<number> {
  questions += 1;
  const type = body.type ?? 'single';
  const choice = type === 'single' || type === 'multiple';
  return created(app, token, '/api/questions', {
    type,
    stem: `<p>Question ${questions}</p>`,
    options: choice
      ? [
          { key: 'A', text: `Right ${questions}` },
          { key: 'B', text: `Wrong B ${questions}` },
          { key: 'C', text: `Wrong C ${questions}` },
          { key: 'D', text: `Wrong D ${questions}` },
        ]
      : [],
    answer: type === 'judge' ? ['T'] : type === 'blank' ? [['one'], ['two', '2']] : type === 'short' ? [] : type === 'multiple' ? ['A', 'B'] : ['A'],
    analysis: `<p>Because ${questions}</p>`,
    ...body,
  });
}

/** `count` questions alike. */
export async function createQuestions(app: FastifyInstance, token: string, count: number, body: Partial<QuestionCreateBody> = {}): Promise<number[]> {
  const ids: number[] = [];
  for (let index = 0; index < count; index += 1) ids.push(await createQuestion(app, token, body));
  return ids;
}

/** A paper of one section holding the questions. */
export const fixedPaper = (questionIds: number[]): PaperBody => ({ sections: [{ title: 'Part one', questionIds }] });

export function examBody(paper: PaperBody, body: Partial<ExamCreateBody> = {}): ExamCreateBody {
  return { title: 'Fire safety test', paper, passScore: 0, ...body };
}

export const createExam = (app: FastifyInstance, token: string, paper: PaperBody, body: Partial<ExamCreateBody> = {}) =>
  created(app, token, '/api/exams', examBody(paper, body));
