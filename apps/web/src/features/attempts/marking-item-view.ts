import type { MarkingItem } from '@cloud-classroom/shared/attempts';
import type { PaperQuestion } from '@cloud-classroom/shared/exams';

/** A queue item as the question view shows it: the question with its key, read-only. */
export function questionOfItem(item: MarkingItem): PaperQuestion {
  const given = Array.isArray(item.response) ? item.response.length : 0;
  return {
    id: item.questionId,
    type: item.type,
    stem: item.stem,
    options: item.options,
    // A blank question has a list of accepted answers per blank; a response never has more blanks than the paper.
    blanks: item.type === 'blank' ? Math.max(item.answer.length, given) : 0,
    score: item.maxScore,
    policy: null,
    answer: item.answer,
    blankRules: null,
  };
}

const textOf = (value: string | string[]) => (Array.isArray(value) ? value.join(' / ') : value);

/** A response in one line: the keys picked, the blanks separated by `|`, or the text. */
export function responseText(item: Pick<MarkingItem, 'type' | 'response'>): string {
  const { response } = item;
  if (response === null) return '';
  if (typeof response === 'string') return response;
  return item.type === 'blank' ? response.join(' | ') : response.join(', ');
}

/** The key in one line: the right keys, the accepted answers per blank, or the reference answer. */
export function keyText(item: Pick<MarkingItem, 'type' | 'answer'>): string {
  if (item.type === 'blank') return item.answer.map(textOf).join(' | ');
  return item.answer.map(textOf).join(item.type === 'short' ? '\n' : ', ');
}

/** A score for people: at most two decimals, no trailing zeros. */
export const formatScore = (score: number | null | undefined) => (score === null || score === undefined ? '—' : String(Math.round(score * 100) / 100));
