import type { MediaKind } from '@cloud-classroom/shared/media';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { call } from './test-app.js';

// What the catalogue's tests share: rows the API does not make (media, applicants) put straight
// into the test database, and creates through the API that answer the new id.

export const db = (app: FastifyInstance) => app.services.database.db;

let fileKeys = 0;

/** A media row as the library would store it (its file is not needed by the catalogue). */
export async function insertMedia(
  app: FastifyInstance,
  kind: MediaKind,
  facts: { durationSeconds?: number; pages?: number } = {},
): Promise<number> {
  fileKeys += 1;
  const mime = { video: 'video/mp4', document: 'application/pdf', image: 'image/png' }[kind];
  const { id } = await db(app)
    .insertInto('edu_media')
    .values({
      name: `${kind}-${fileKeys}`,
      mime,
      kind,
      size: 1000,
      file_key: `test/${kind}-${fileKeys}`,
      duration_seconds: facts.durationSeconds ?? null,
      pages: facts.pages ?? null,
      create_by: 'admin',
      update_by: 'admin',
      create_time: 0,
      update_time: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function userId(app: FastifyInstance, username: string): Promise<number> {
  return (await db(app).selectFrom('sys_user').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
}

/** Someone's application to a term, in the given state (the enrolment issue gives these their API). */
export async function insertApplicant(app: FastifyInstance, termId: number, username: string, status: string): Promise<void> {
  await db(app)
    .insertInto('edu_applicant')
    .values({
      term_id: termId,
      user_id: await userId(app, username),
      status,
      source: 'staff',
      due_at: null,
      reason: null,
      create_by: 'admin',
      update_by: 'admin',
      create_time: 0,
      update_time: 0,
    })
    .execute();
}

/** POSTs the body and answers the created id, failing the test on anything but 201. */
export async function created(app: FastifyInstance, token: string, url: string, body: unknown): Promise<number> {
  const response = await call(app, 'POST', url, token, body);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: number }).id;
}

export const createCourse = (app: FastifyInstance, token: string, body: Record<string, unknown> = {}) =>
  created(app, token, '/api/courses', { title: 'Fire safety', ...body });

export const createTerm = (app: FastifyInstance, token: string, courseId: number, body: Record<string, unknown> = {}) =>
  created(app, token, '/api/terms', { courseId, name: '2026 spring', startAt: '2026-03-01 09:00:00', endAt: '2026-04-01 18:00:00', ...body });

export const createChapter = (app: FastifyInstance, token: string, courseId: number, title = 'Chapter') =>
  created(app, token, '/api/chapters', { courseId, title });

export const createTextLesson = (app: FastifyInstance, token: string, chapterId: number, title = 'Lesson', body: Record<string, unknown> = {}) =>
  created(app, token, '/api/lessons', { chapterId, title, type: 'text', content: '<p>Read this.</p>', ...body });

/** Expects the answer's status and that its message starts with the field. */
export function expectRefusal(response: { statusCode: number; body: string; json: () => unknown }, status: number, field: string): string {
  expect(response.statusCode, response.body).toBe(status);
  const { message } = response.json() as { message: string };
  expect(message.startsWith(`${field}: `), message).toBe(true);
  return message;
}

/** Expects a 409 and answers its message. */
export function expectConflict(response: { statusCode: number; body: string; json: () => unknown }): string {
  expect(response.statusCode, response.body).toBe(409);
  return (response.json() as { message: string }).message;
}

/** A video lesson playing a new video of the given length. */
export async function createVideoLesson(app: FastifyInstance, token: string, chapterId: number, durationSeconds: number, body: Record<string, unknown> = {}): Promise<number> {
  const mediaId = await insertMedia(app, 'video', { durationSeconds });
  return created(app, token, '/api/lessons', { chapterId, title: 'Watch', type: 'video', mediaId, ...body });
}

/** A document lesson showing a new PDF of the given pages. */
export async function createDocumentLesson(app: FastifyInstance, token: string, chapterId: number, pages: number, body: Record<string, unknown> = {}): Promise<number> {
  const mediaId = await insertMedia(app, 'document', { pages });
  return created(app, token, '/api/lessons', { chapterId, title: 'Read', type: 'document', mediaId, ...body });
}
