// The rules of an attempt's time, of which attempt counts and of when results are shown
// (DESIGN §6, §7): pure and zod-free, so the server decides with them and the learner's pages
// explain the same. Times are epoch milliseconds.

/** How long after its deadline an attempt left open is submitted by the server: answers in flight when time ran out still land. */
export const AUTO_SUBMIT_GRACE_MS = 60_000;

/**
 * The deadline fixed at start: the earliest of the window's close and start + limit + the
 * person's extra minutes. No limit and no close: null (the attempt runs until submitted).
 */
export function attemptDeadline(input: { startedAt: number; limitMinutes: number | null; extraMinutes: number; closeAt: number | null }): number | null {
  const byLimit = input.limitMinutes === null ? null : input.startedAt + (input.limitMinutes + input.extraMinutes) * 60_000;
  if (byLimit === null) return input.closeAt;
  if (input.closeAt === null) return byLimit;
  return Math.min(byLimit, input.closeAt);
}

/** Whether an answer may still be saved at `now`: before the deadline (none: always). */
export const acceptsAnswersAt = (deadline: number | null, now: number): boolean => deadline === null || now < deadline;

export type CountsRule = 'best' | 'last' | 'first';

/** What deciding the counted attempt needs of each: its id, start and score (null until graded). */
export type CountableAttempt = { id: number; startedAt: number; score: number | null };

/**
 * The attempt whose score counts among a person's finished ones: the best score (the earlier on a
 * tie), the last or the first started. Attempts not graded yet take part as `last` / `first` do
 * (their place is known) but not in `best` until they have a score. Undefined with none.
 */
export function countingAttempt<T extends CountableAttempt>(attempts: readonly T[], counts: CountsRule): T | undefined {
  if (attempts.length === 0) return undefined;
  const byStart = [...attempts].sort((a, b) => a.startedAt - b.startedAt || a.id - b.id);
  if (counts === 'first') return byStart[0];
  if (counts === 'last') return byStart[byStart.length - 1];
  let best: T | undefined;
  for (const attempt of byStart) {
    if (attempt.score === null) continue;
    if (best === undefined || (best.score as number) < attempt.score) best = attempt;
  }
  return best ?? byStart[byStart.length - 1];
}

export type ReviewRule = 'never' | 'after_submit' | 'after_close';

/**
 * When the learner may see their answers with the key and analysis: never; once submitted; or
 * once the window has closed (no close: once submitted). Null: never.
 */
export function reviewOpensAt(review: ReviewRule, submittedAt: number | null, closeAt: number | null): number | null {
  if (review === 'never' || submittedAt === null) return null;
  if (review === 'after_close' && closeAt !== null) return Math.max(submittedAt, closeAt);
  return submittedAt;
}

/**
 * Whether the score is shown to the learner: once graded, unless the exam's review is `never`
 * (then the score alone is shown once graded: trainers keep the key private, not the result).
 */
export const scoreReleased = (state: 'in_progress' | 'marking' | 'graded'): boolean => state === 'graded';

/** An attempt's total from its answers' scores, rounded to two decimals; null while any awaits a marker. */
export function attemptScore(scores: readonly (number | null)[]): number | null {
  let total = 0;
  for (const score of scores) {
    if (score === null) return null;
    total += score;
  }
  return Math.round(Number((total * 100).toPrecision(12))) / 100;
}

export const passes = (score: number, passScore: number): boolean => score >= passScore;
