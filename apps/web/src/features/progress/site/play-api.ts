import { REQUEST_TIMEOUT_MS } from '@cloud-classroom/shared/constants';
import type { ProgressReport, ProgressResult, SiteLesson } from '@cloud-classroom/shared/progress';
import { apiUrl, authorizationHeader, errorMessageOfBody, failedAnswer, HttpError, idempotencyHeader, prepareServerMessages } from '../../../lib/http-client';

/** The player's lesson, or why it cannot be studied: the page shows these itself. */
export type LessonAnswer =
  | { kind: 'lesson'; lesson: SiteLesson }
  | { kind: 'forbidden'; message: string }
  | { kind: 'not-found'; message: string };

type SendOptions = { signal?: AbortSignal; keepalive?: boolean };

/**
 * A JSON request through fetch directly rather than `http`: the HTTP client sends every 403 to
 * /401, while the player explains a lesson of a course the learner is not enrolled in on its own
 * page; and a report sent as the page goes away needs `keepalive`, which the client has no
 * option for. A 401 still goes through the client's handling (the session is over).
 */
async function send(method: 'GET' | 'POST', path: string, body: unknown, options: SendOptions): Promise<Response> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const headers: Record<string, string> = { ...authorizationHeader(), ...idempotencyHeader(method, undefined) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(apiUrl(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      keepalive: options.keepalive,
      signal: options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    // No answer: the caller decides what to show (the reporter keeps the report for the next one).
    throw new HttpError(0, timeout.aborted ? 'timeout' : 'network');
  }
}

async function messageOf(response: Response): Promise<string> {
  const message = errorMessageOfBody(await response.text().catch(() => ''), response.statusText) ?? String(response.status);
  if (response.status !== 401) await prepareServerMessages();
  return message;
}

export async function getSiteLesson(lessonId: number, signal?: AbortSignal): Promise<LessonAnswer> {
  const response = await send('GET', `api/site/lessons/${lessonId}`, undefined, { signal });
  if (response.status === 403) return { kind: 'forbidden', message: await messageOf(response) };
  if (response.status === 404 || response.status === 400) return { kind: 'not-found', message: await messageOf(response) };
  if (!response.ok) failedAnswer(response.status, await messageOf(response), false);
  return { kind: 'lesson', lesson: (await response.json()) as SiteLesson };
}

/** One progress report. Failures are silent (the reporter retries), except a 401, which ends the session as everywhere. */
export async function postProgress(lessonId: number, report: ProgressReport, options: SendOptions = {}): Promise<ProgressResult> {
  const response = await send('POST', `api/site/lessons/${lessonId}/progress`, report, options);
  if (response.status === 401) failedAnswer(401, await messageOf(response), true);
  if (!response.ok) throw new HttpError(response.status, await messageOf(response));
  return (await response.json()) as ProgressResult;
}

/** Where a lesson's video or PDF is read from; the server takes the session from the token cookie, as a `<video>` sends no header. */
export function mediaContentUrl(mediaId: number): string {
  return apiUrl(`api/media/${mediaId}/content`);
}
