import type { AttemptResult, ReviewedQuestion } from '@cloud-classroom/shared/attempts';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../../lib/use-locale-text';
import { AttemptResultView } from './attempt-result-view';

const question: Omit<ReviewedQuestion, 'earned' | 'correct' | 'comment'> = {
  id: 1,
  type: 'single',
  section: 'Part 1',
  stem: '<p>What is 1 + 1?</p>',
  options: [
    { key: 'A', text: 'One' },
    { key: 'B', text: 'Two' },
  ],
  blanks: 0,
  score: 2,
  response: 'A',
};

const result = (overrides: Partial<AttemptResult>): AttemptResult => ({
  id: 5,
  examId: 3,
  title: 'Fire safety',
  number: 1,
  state: 'graded',
  submittedBy: 'learner',
  startedAt: '2026-06-01 09:00:00',
  deadline: null,
  submittedAt: '2026-06-01 09:10:00',
  totalScore: 2,
  passScore: 1,
  answeredCount: 1,
  questionCount: 1,
  released: true,
  score: 0,
  passed: false,
  questions: [],
  keyLater: false,
  reviewFrom: null,
  ...overrides,
});

describe('a finished attempt', () => {
  beforeEach(() => {
    setLocale('en-US', false);
  });
  afterEach(cleanup);

  const show = (shown: AttemptResult) =>
    render(
      <MemoryRouter>
        <AttemptResultView result={shown} />
      </MemoryRouter>,
    );

  it('with an attempt left: my answers and score, no verdict, and why the key is not there yet', async () => {
    show(result({ keyLater: true, questions: [{ ...question, earned: null, correct: null, comment: null }] }));
    expect(await screen.findByText(/the answer key and explanations are shown once you have no attempts left or the exam closes/)).toBeTruthy();
    expect(screen.getByText('0')).toBeTruthy();
    expect(screen.getByRole('radio', { name: /One/ })).toHaveProperty('checked', true);
    expect(screen.queryByText(/Right answer/)).toBeNull();
    expect(screen.queryByText('Wrong')).toBeNull();
  });

  it('with no attempt left: the key, the analysis and the verdict, without the note', async () => {
    show(result({ questions: [{ ...question, earned: 0, correct: false, comment: null, answer: ['B'], analysis: '<p>Count them.</p>' }] }));
    expect(await screen.findByText(/Right answer/)).toBeTruthy();
    expect(screen.getByText('Wrong')).toBeTruthy();
    expect(screen.getByText('Count them.')).toBeTruthy();
    expect(screen.queryByText(/no attempts left/)).toBeNull();
  });

  it('labels the options A, B, C… as they were shown to me, whatever their keys in the bank', async () => {
    const shuffled: typeof question = {
      ...question,
      options: [
        { key: 'C', text: 'Three' },
        { key: 'B', text: 'Two' },
        { key: 'A', text: 'One' },
      ],
      response: 'B',
    };
    show(result({ questions: [{ ...shuffled, earned: 2, correct: true, comment: null, answer: ['B'] }] }));
    const labels = (await screen.findAllByRole('radio')).map((radio) => radio.closest('label')?.textContent);
    expect(labels).toEqual(['A.Three', 'B.Two✓ Right answer', 'C.One']);
    expect(screen.getByRole('radio', { name: /Two/ })).toHaveProperty('checked', true);
  });
});
