import { describe, expect, it } from 'vitest';
import { drawQuestions } from './exam-draw.js';
import { MAX_PAPER_QUESTIONS, paperSchema } from './exams.js';

const rule = (count: number) => ({ type: 'single' as const, count, score: 1 });

describe('paperSchema', () => {
  it('takes a paper of up to the longest allowed, and refuses a longer one at its sections', () => {
    const full = { sections: [{ title: 'A', questionIds: [1, 2], draw: [rule(200), rule(200), rule(MAX_PAPER_QUESTIONS - 402)] }] };
    expect(paperSchema.safeParse(full).success).toBe(true);
    const over = { sections: [...full.sections, { title: 'B', draw: [rule(1)] }] };
    const result = paperSchema.safeParse(over);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['sections'], message: `a paper holds at most ${MAX_PAPER_QUESTIONS} questions` })]);
  });

  it('draws a paper of the longest allowed from one shared pool without running out of stack', () => {
    const pool = Array.from({ length: MAX_PAPER_QUESTIONS }, (_, index) => index + 1);
    const demands = Array.from({ length: 5 }, () => ({ count: MAX_PAPER_QUESTIONS / 5, candidates: pool }));
    const outcome = drawQuestions(demands, []);
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(new Set(outcome.drawn.flat()).size).toBe(MAX_PAPER_QUESTIONS);
  });
});
