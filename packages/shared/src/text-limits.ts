// Text limits that the learner pages apply as well as the server's schemas. Zod-free, so the
// learner pages (which load no zod) take the same numbers the server checks with.

/** A person's display name: 2 to 20 characters. */
export const NICK_NAME_MIN_LENGTH = 2;
export const NICK_NAME_MAX_LENGTH = 20;

/** One blank of a fill-in-the-blank answer, as typed by a candidate. */
export const BLANK_ANSWER_MAX_LENGTH = 200;

/**
 * How much of a paste a field of `max` characters drops (0 when it all fits): what is there,
 * less the selection the paste replaces, plus the pasted text. Both the back office's and the
 * learner pages' limited fields say so rather than cut silently.
 */
export function cutByPaste(value: string, selectionStart: number, selectionEnd: number, pasted: string, max: number): number {
  return Math.max(0, value.length - (selectionEnd - selectionStart) + pasted.length - max);
}
