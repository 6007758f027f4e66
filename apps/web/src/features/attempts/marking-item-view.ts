import { displayedLabel } from '@cloud-classroom/shared/attempt-rules';
import type { MarkingItem } from '@cloud-classroom/shared/attempts';
import type { PaperQuestion } from '@cloud-classroom/shared/exams';

/** How the bank's key is said beside a candidate's label: `（原 D）`. */
export type BankKeyText = (key: string) => string;

/**
 * An option's key as staff read a candidate's answer: the letter the candidate saw, with the
 * bank's key beside it where they differ (`B（原 D）`).
 */
export function seenLabel(item: Pick<MarkingItem, 'optionOrder'>, key: string, bankKey: BankKeyText): string {
  const shown = displayedLabel(item.optionOrder, key);
  return shown === key ? key : `${shown}${bankKey(key)}`;
}

/** Keys in the order the candidate saw their options. */
export function inSeenOrder(item: Pick<MarkingItem, 'optionOrder'>, keys: readonly string[]): string[] {
  const place = (key: string) => displayedLabel(item.optionOrder, key);
  return [...keys].sort((a, b) => place(a).localeCompare(place(b)));
}

/** A queue item as the question view shows it: the question with its key, read-only, its options in the order its candidate saw them. */
export function questionOfItem(item: MarkingItem): PaperQuestion {
  const given = Array.isArray(item.response) ? item.response.length : 0;
  const place = (key: string) => displayedLabel(item.optionOrder, key);
  return {
    id: item.questionId,
    type: item.type,
    stem: item.stem,
    options: [...item.options].sort((a, b) => place(a.key).localeCompare(place(b.key))),
    // A blank question has a list of accepted answers per blank; a response never has more blanks than the paper.
    blanks: item.type === 'blank' ? Math.max(item.answer.length, given) : 0,
    score: item.maxScore,
    policy: null,
    answer: item.answer,
    blankRules: null,
  };
}

const textOf = (value: string | string[]) => (Array.isArray(value) ? value.join(' / ') : value);

const isChoice = (item: Pick<MarkingItem, 'type'>) => item.type === 'single' || item.type === 'multiple';

/** A response in one line: the options picked (as the candidate saw them), the blanks separated by `|`, or the text. */
export function responseText(item: Pick<MarkingItem, 'type' | 'response' | 'optionOrder'>, bankKey: BankKeyText): string {
  const { response } = item;
  if (response === null) return '';
  if (isChoice(item)) return inSeenOrder(item, typeof response === 'string' ? [response] : response).map((key) => seenLabel(item, key, bankKey)).join(', ');
  if (typeof response === 'string') return response;
  return item.type === 'blank' ? response.join(' | ') : response.join(', ');
}

/** The key in one line: the right options (as the candidate saw them), the accepted answers per blank, or the reference answer. */
export function keyText(item: Pick<MarkingItem, 'type' | 'answer' | 'optionOrder'>, bankKey: BankKeyText): string {
  if (item.type === 'blank') return item.answer.map(textOf).join(' | ');
  if (isChoice(item)) return inSeenOrder(item, item.answer.map(textOf)).map((key) => seenLabel(item, key, bankKey)).join(', ');
  return item.answer.map(textOf).join(item.type === 'short' ? '\n' : ', ');
}

/** A score for people: at most two decimals, no trailing zeros. */
export const formatScore = (score: number | null | undefined) => (score === null || score === undefined ? '—' : String(Math.round(score * 100) / 100));
