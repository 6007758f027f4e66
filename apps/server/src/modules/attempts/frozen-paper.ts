import type { QuestionType } from '@cloud-classroom/shared/question-scoring';

// `edu_attempt.paper`: an attempt's paper as frozen at its start, written only by the attempts'
// service from a drawn paper, read by it and by marking (which shows each candidate's option order).

/** A question of an attempt as frozen at its start: its place, section, points and option order. */
export type FrozenQuestion = { id: number; type: QuestionType; section: string; score: number; options: string[]; blanks: number };
export type FrozenPaper = { questions: FrozenQuestion[] };

export const parsePaper = (text: string): FrozenPaper => JSON.parse(text) as FrozenPaper;
