import type { AnswerSaved, AnswerSaveBody, AttemptEventsBody, AttemptResult, AttemptStart, MyAttempt } from '@cloud-classroom/shared/attempts';
import type { SiteExam } from '@cloud-classroom/shared/exams';
import { REQUEST_TIMEOUT_MS } from '@cloud-classroom/shared/constants';
import { apiUrl, authorizationHeader, errorMessageOfBody, failedAnswer, HttpError } from '../../../lib/http-client';

/**
 * The attempt's requests, through fetch directly rather than `http`: the HTTP client sends every
 * 403 to /401 and notifies failures, while this page explains a refusal (not assigned, not open,
 * no attempts left) in place and its save queue retries quietly. A 401 still goes through the
 * client's handling (the session is over). Every failure rejects with an `HttpError` (status 0:
 * no answer).
 */
async function send<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const headers: Record<string, string> = { ...authorizationHeader() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new HttpError(0, timeout.aborted ? 'timeout' : 'network');
  }
  if (!response.ok) {
    const message = errorMessageOfBody(await response.text().catch(() => ''), response.statusText) ?? String(response.status);
    if (response.status === 401) failedAnswer(401, message, true);
    throw new HttpError(response.status, message);
  }
  const text = await response.text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** The exams assigned to me; `openAttemptId` names my attempt still running, if any. */
export type MyExam = SiteExam & { openAttemptId?: number | null };

export const getMyExams = (signal?: AbortSignal) => send<MyExam[]>('GET', 'api/site/exams', undefined, signal);

/** Starts an attempt, or resumes my open one (the server decides which). */
export const startAttempt = (examId: number, signal?: AbortSignal) => send<AttemptStart>('POST', `api/site/exams/${examId}/attempts`, undefined, signal);

export const saveAnswer = (attemptId: number, questionId: number, body: AnswerSaveBody) =>
  send<AnswerSaved>('PUT', `api/site/attempts/${attemptId}/answers/${questionId}`, body);

export const submitAttempt = (attemptId: number) => send<AttemptResult>('POST', `api/site/attempts/${attemptId}/submit`);

export const getAttempt = (attemptId: number, signal?: AbortSignal) => send<AttemptResult>('GET', `api/site/attempts/${attemptId}`, undefined, signal);

export const getMyAttempts = (examId: number, signal?: AbortSignal) => send<MyAttempt[]>('GET', `api/site/exams/${examId}/attempts`, undefined, signal);

export const sendEvents = (attemptId: number, events: AttemptEventsBody['events']) =>
  send<void>('POST', `api/site/attempts/${attemptId}/events`, { events });
