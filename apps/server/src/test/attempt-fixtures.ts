import { attemptResultSchema, attemptStartSchema, type AttemptResult, type AttemptStart } from '@cloud-classroom/shared/attempts';
import type { ExamCreateBody } from '@cloud-classroom/shared/exams';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { userId } from './course-fixtures.js';
import { createExam, fixedPaper } from './exam-fixtures.js';
import { call } from './test-app.js';

// What the attempt tests share: a published exam assigned to people, and starting, saving and
// submitting through the learner's routes.

/** A published exam of these questions (one section), assigned to the named people. */
export async function publishedExam(
  app: FastifyInstance,
  staff: string,
  questionIds: number[],
  people: string[],
  body: Partial<ExamCreateBody> = {},
): Promise<number> {
  const examId = await createExam(app, staff, fixedPaper(questionIds), { status: 'published', ...body });
  const ids = await Promise.all(people.map((name) => userId(app, name)));
  const assigned = await call(app, 'POST', `/api/exams/${examId}/assignees`, staff, { target: 'users', ids });
  expect(assigned.statusCode, assigned.body).toBe(201);
  return examId;
}

export async function startAttempt(app: FastifyInstance, token: string, examId: number, status: 200 | 201 = 201): Promise<AttemptStart> {
  const response = await call(app, 'POST', `/api/site/exams/${examId}/attempts`, token);
  expect(response.statusCode, response.body).toBe(status);
  return attemptStartSchema.parse(response.json());
}

export const saveAnswer = (app: FastifyInstance, token: string, attemptId: number, questionId: number, body: unknown) =>
  call(app, 'PUT', `/api/site/attempts/${attemptId}/answers/${questionId}`, token, body);

export async function submitAttempt(app: FastifyInstance, token: string, attemptId: number): Promise<AttemptResult> {
  const response = await call(app, 'POST', `/api/site/attempts/${attemptId}/submit`, token);
  expect(response.statusCode, response.body).toBe(200);
  return attemptResultSchema.parse(response.json());
}

export async function readResult(app: FastifyInstance, token: string, attemptId: number): Promise<AttemptResult> {
  const response = await call(app, 'GET', `/api/site/attempts/${attemptId}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return attemptResultSchema.parse(response.json());
}
