import type { AnswerSaved, AnswerSaveBody, AttemptEventsBody, AttemptResult, AttemptStart, MyAttempt } from '@cloud-classroom/shared/attempts';
import type { SiteExam } from '@cloud-classroom/shared/exams';
import { request } from '../../../lib/http-client';

/**
 * The attempt's requests, `silent`: this page explains a refusal (not assigned, not open, no
 * attempts left) in place and its save queue retries quietly, so no notification pops up. A 401
 * still ends the session. Every failure rejects with an `HttpError` (status 0: no answer).
 */
const send = <T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, signal?: AbortSignal): Promise<T> =>
  request<T>(method, path, { body, signal, silent: true });

/** The exams assigned to me; `openAttemptId` names my attempt still running, if any. */
export const getMyExams = (signal?: AbortSignal) => send<SiteExam[]>('GET', 'api/site/exams', undefined, signal);

/** Starts an attempt, or resumes my open one (the server decides which). */
export const startAttempt = (examId: number, signal?: AbortSignal) => send<AttemptStart>('POST', `api/site/exams/${examId}/attempts`, undefined, signal);

export const saveAnswer = (attemptId: number, questionId: number, body: AnswerSaveBody) =>
  send<AnswerSaved>('PUT', `api/site/attempts/${attemptId}/answers/${questionId}`, body);

export const submitAttempt = (attemptId: number) => send<AttemptResult>('POST', `api/site/attempts/${attemptId}/submit`);

export const getAttempt = (attemptId: number, signal?: AbortSignal) => send<AttemptResult>('GET', `api/site/attempts/${attemptId}`, undefined, signal);

export const getMyAttempts = (examId: number, signal?: AbortSignal) => send<MyAttempt[]>('GET', `api/site/exams/${examId}/attempts`, undefined, signal);

export const sendEvents = (attemptId: number, events: AttemptEventsBody['events']) =>
  send<void>('POST', `api/site/attempts/${attemptId}/events`, { events });
