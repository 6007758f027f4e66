import type { Locale } from '@cloud-classroom/shared/locale';
import { localizeMessage } from '@cloud-classroom/shared/messages';
import type { QuestionShapeIssue } from '@cloud-classroom/shared/questions';
import type { useQuestionMessages } from './questions-messages';

export type QuestionTranslate = ReturnType<typeof useQuestionMessages>;

/** The shape rule's English sentences in the page's language. */
export function issueText(issue: QuestionShapeIssue, t: QuestionTranslate): string {
  const { message } = issue;
  if (message === 'is required') return t('questions.issue.stem');
  if (message.startsWith('a choice question needs')) return t('questions.issue.optionCount');
  if (message.startsWith('options are keyed')) return t('questions.issue.optionKeys');
  if (message === 'choose the right option') return t('questions.issue.chooseRight');
  if (message === 'names an option twice') return t('questions.issue.twice');
  if (message.endsWith('is not among the options')) return t('questions.issue.notAmong', { keys: message.replace(/ is not among the options$/, '') });
  if (message.startsWith('a single-choice question')) return t('questions.issue.oneRight');
  if (message.startsWith('is T (true)')) return t('questions.issue.judge');
  if (message.startsWith('list the accepted answers')) return t('questions.issue.blanks');
  if (message.startsWith('each blank accepts')) return t('questions.issue.blankAnswers');
  if (message.startsWith('is at most one reference')) return t('questions.issue.reference');
  return message;
}

/**
 * A workbook row's problem in the page's language: the import's errors read `[sheet] message`;
 * the message is the shape rule's or the catalogue's where the page knows it, else as the server wrote it.
 */
export function importErrorText(text: string, t: QuestionTranslate, language: Locale): string {
  const match = /^\[([^\]]+)\] (.*)$/s.exec(text);
  const sheet = match?.[1];
  const message = match?.[2] ?? text;
  // In a workbook any column may be the one required, not only the stem.
  const shape = message === 'is required' ? t('questions.required') : issueText({ field: 'answer', message }, t);
  const translated = shape === message ? localizeMessage(language, message) : shape;
  return sheet === undefined ? translated : `[${sheet}] ${translated}`;
}
