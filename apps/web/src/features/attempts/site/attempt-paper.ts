import type { AttemptQuestion, AttemptResponse, ReviewedQuestion } from '@cloud-classroom/shared/attempts';
import type { PaperQuestion } from '@cloud-classroom/shared/exams';

/** An attempt's question as the shared question view takes it (no key: the attempt never has one). */
export const paperOfAttempt = (question: AttemptQuestion): PaperQuestion => ({
  id: question.id,
  type: question.type,
  stem: question.stem,
  options: question.options,
  blanks: question.blanks,
  score: question.score,
  policy: null,
});

/** A reviewed question, with the key and analysis when the review shows them. */
export const paperOfReview = (question: ReviewedQuestion): PaperQuestion => ({
  ...paperOfAttempt(question),
  ...(question.answer === undefined ? {} : { answer: question.answer }),
  ...(question.analysis === undefined ? {} : { analysis: question.analysis }),
});

/** Whether a response says anything: a key, a key of several, a blank filled, a text. */
export function isAnswered(response: AttemptResponse | undefined): boolean {
  if (response === undefined || response === null) return false;
  if (typeof response === 'string') return response.trim() !== '';
  return response.some((item) => item.trim() !== '');
}

/**
 * Time left by the server's count (`remainingMs` when the start answer arrived at `receivedAt`)
 * and this page's monotonic clock since: the device's wall clock plays no part.
 */
export const remainingAt = (remainingMs: number, receivedAt: number, now: number): number => Math.max(0, remainingMs - Math.max(0, now - receivedAt));

const two = (value: number) => String(value).padStart(2, '0');

/** `1:05:09`, `05:09`: whole seconds, rounded up so that 0 shows only when time is up. */
export function formatRemaining(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${two(minutes)}:${two(seconds)}`;
}

/** The `hh:mm:ss` of the server's `yyyy-MM-dd HH:mm:ss`. */
export const clockOf = (time: string): string => time.slice(11, 19);

/** The `yyyy-MM-dd HH:mm` of the server's `yyyy-MM-dd HH:mm:ss`. */
export const minuteOf = (time: string): string => time.slice(0, 16);
