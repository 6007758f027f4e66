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
 * When the learner may see their answers: never; once submitted; or once the exam has closed for
 * everyone (`closeAt`: the `latestClose`; none: once submitted). Null: never. Whether the key
 * comes with them is `reviewShowsKey`'s.
 */
export function reviewOpensAt(review: ReviewRule, submittedAt: number | null, closeAt: number | null): number | null {
  if (review === 'never' || submittedAt === null) return null;
  if (review === 'after_close' && closeAt !== null) return Math.max(submittedAt, closeAt);
  return submittedAt;
}

/**
 * The attempts a person may still sit at `now`: those unused while their window is open, and one
 * still running (it is not over yet, whatever the window says).
 */
export function attemptsLeft(input: { allowed: number; used: number; running: boolean; closeAt: number | null; now: number }): number {
  const open = input.closeAt === null || input.now < input.closeAt;
  return (open ? Math.max(0, input.allowed - input.used) : 0) + (input.running ? 1 : 0);
}

/**
 * When nobody can sit the exam any more: the latest of its own close and its assignees' personal
 * ones (a personal window may run past the exam's). Null: it never closes.
 */
export function latestClose(examCloseAt: number | null, personalCloseAts: readonly number[]): number | null {
  return examCloseAt === null ? null : Math.max(examCloseAt, ...personalCloseAts);
}

/**
 * Whether a submitted attempt's review shows the key and analyses, or only my answers and score:
 * a key seen while I may still sit the exam, or while anyone may, would be the key to the next
 * sitting. `after_submit`: once I have no attempt left or the exam has closed for everyone;
 * `after_close`: once it has closed for everyone (never closing: once I have no attempt left).
 */
export function reviewShowsKey(input: { review: ReviewRule; attemptsLeft: number; now: number; latestClose: number | null }): boolean {
  const closed = input.latestClose !== null && input.now >= input.latestClose;
  switch (input.review) {
    case 'never':
      return false;
    case 'after_submit':
      return input.attemptsLeft === 0 || closed;
    case 'after_close':
      return input.latestClose === null ? input.attemptsLeft === 0 : closed;
  }
}

/** The most integrity events kept per attempt, the server's own included: a client reporting in a loop fills no disk. */
export const MAX_EVENTS_PER_ATTEMPT = 2000;

/** The most distinct addresses, and browsers, noted on one attempt's timeline; past them one event says there were more. */
export const MAX_CLIENT_VALUES = 20;

/**
 * How many more events an attempt's timeline holding `stored` takes: the one closing it (submit
 * or auto-submit) finds the last place, which everything else leaves free.
 */
export const eventRoom = (stored: number, closing: boolean): number => Math.max(0, MAX_EVENTS_PER_ATTEMPT - (closing ? 0 : 1) - stored);

/**
 * What a request's address or browser adds to the timeline: nothing (the start's own, one noted
 * already, or past the bound), the value, or, once, that there are too many to note.
 */
export function clientChangeNote(input: { value: string; started: string; noted: readonly string[]; capped: boolean }): 'none' | 'value' | 'too_many' {
  if (input.capped || input.value === input.started || input.noted.includes(input.value)) return 'none';
  return input.noted.length < MAX_CLIENT_VALUES ? 'value' : 'too_many';
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

// ---- Option labels ------------------------------------------------------------------------------
// A paper with shuffled options shows a question's options in an order of its own (frozen in the
// attempt's paper as their keys). The candidate reads them as A, B, C… in that order, while the
// response, the key and the scoring keep the question's own keys.

/**
 * The label the candidate saw for the option `key`: the letter of its place in `optionOrder`;
 * the key itself when the order does not hold it (no order frozen, an option removed since).
 */
export function displayedLabel(optionOrder: readonly string[], key: string): string {
  const place = optionOrder.indexOf(key);
  return place === -1 ? key : String.fromCharCode(65 + place);
}

/** The key of the option the candidate saw labelled `label` (a capital letter), if there is one. */
export function keyAtLabel(optionOrder: readonly string[], label: string): string | undefined {
  return /^[A-Z]$/.test(label) ? optionOrder[label.charCodeAt(0) - 65] : undefined;
}
