import type { AttemptResponse } from '@cloud-classroom/shared/attempts';
import { AnswerQueue } from './answer-queue';
import { saveAnswer, sendEvents, startAttempt } from './attempt-api';
import { openAttemptStores } from './attempt-db';
import { EventBuffer } from './event-buffer';
import type { AttemptSession } from './exam-taking';

/**
 * Starts (or resumes) my attempt of the exam and makes what running it needs: the countdown's
 * origin, the save queue on this browser's store with what it had not sent yet put back into
 * the paper (newer than the server's), and the integrity events' buffer.
 */
export async function openAttemptSession(examId: number, signal: AbortSignal): Promise<AttemptSession> {
  const start = await startAttempt(examId, signal);
  const receivedAt = performance.now();
  const stores = await openAttemptStores();
  const queue = new AnswerQueue({
    attemptId: start.id,
    store: stores.answers,
    send: (save) => saveAnswer(save.attemptId, save.questionId, { response: save.response, revision: save.revision, seconds: save.seconds }),
  });
  const events = new EventBuffer(start.id, stores.events, sendEvents);
  const responses = new Map<number, AttemptResponse>(start.answers.map((saved) => [saved.questionId, saved.response]));
  const pending = await queue.restore(new Map(start.answers.map((saved) => [saved.questionId, saved.revision])));
  for (const save of pending) responses.set(save.questionId, save.response);
  return { start, receivedAt, queue, events, responses, durable: stores.durable };
}
