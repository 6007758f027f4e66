import type { AttemptQuestion, AttemptResponse } from '@cloud-classroom/shared/attempts';

/** A response of the question's shape, different for each revision where the type allows: a candidate changing their mind. */
export function responseOf(question: AttemptQuestion, revision: number): AttemptResponse {
  const keys = question.options.map((option) => option.key);
  switch (question.type) {
    case 'single':
      return keys[revision % keys.length] as string;
    case 'multiple':
      return keys.filter((_, index) => (revision >> index) % 2 === 1 || index === revision % keys.length);
    case 'judge':
      return revision % 2 === 0 ? 'T' : 'F';
    case 'blank':
      return Array.from({ length: Math.max(question.blanks, 1) }, (_, index) => `revision ${revision}, blank ${index + 1}`);
    default:
      return `revision ${revision}`;
  }
}
