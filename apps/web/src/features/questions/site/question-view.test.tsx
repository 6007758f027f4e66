import type { PaperQuestion } from '@cloud-classroom/shared/exams';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../../lib/use-locale-text';
import { QuestionView, type QuestionViewResponse } from './question-view';

const base = { id: 1, stem: '<p>What is 1 + 1?</p>', options: [], blanks: 0, score: 2, policy: null } satisfies Partial<PaperQuestion>;

const single: PaperQuestion = {
  ...base,
  type: 'single',
  options: [
    { key: 'B', text: 'Two' },
    { key: 'A', text: 'One' },
    { key: 'C', text: 'Three' },
  ],
  answer: ['B'],
  analysis: '<p>Count them.</p>',
};
const multiple: PaperQuestion = {
  ...base,
  type: 'multiple',
  stem: '<p>Which are even?</p>',
  options: [
    { key: 'A', text: '2' },
    { key: 'B', text: '3' },
    { key: 'C', text: '4' },
    { key: 'D', text: '5' },
  ],
  score: 4,
  policy: 'proportional',
  answer: ['A', 'C'],
};
const judge: PaperQuestion = { ...base, type: 'judge', stem: '<p>The earth is round.</p>', answer: ['T'] };
const blank: PaperQuestion = {
  ...base,
  type: 'blank',
  stem: '<p>Water is ___ and its formula ___.</p>',
  blanks: 2,
  answer: [['liquid', 'wet'], ['H2O']],
  blankRules: { ignoreCase: true, ignoreWidth: true, trimSpaces: true, ignoreInnerSpaces: false, anyOrder: false },
};
const short: PaperQuestion = { ...base, type: 'short', stem: '<p>Explain gravity.</p>', score: 10, answer: ['Mass attracts mass.'], analysis: '' };

/** The view with its answer kept in state, as the exam page keeps it; `changes` records what it reported. */
function Answering({ question, initial = null, showKey = false, changes }: { question: PaperQuestion; initial?: QuestionViewResponse; showKey?: boolean; changes?: (response: QuestionViewResponse) => void }) {
  const [response, setResponse] = useState<QuestionViewResponse>(initial);
  return (
    <QuestionView
      question={question}
      index={3}
      response={response}
      showKey={showKey}
      onChange={(next) => {
        changes?.(next);
        setResponse(next);
      }}
    />
  );
}

beforeEach(() => setLocale('en-US', false));
afterEach(() => {
  cleanup();
  setLocale('zh-CN', false);
});

describe('QuestionView', () => {
  it('shows a single choice as radios in the given order, labelled A, B, C as shown, and reports the question’s own key picked', () => {
    const changes = vi.fn();
    render(<Answering question={single} changes={changes} />);
    const group = screen.getByRole('group', { name: '3. Single choice' });
    expect(within(group).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['A.Two', 'B.One', 'C.Three']);
    expect(screen.getByText('2 points')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: /One/ }));
    fireEvent.click(screen.getByRole('radio', { name: /Three/ }));
    expect(changes.mock.calls).toEqual([['A'], ['C']]);
    expect((screen.getByRole('radio', { name: /Three/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: /One/ }) as HTMLInputElement).checked).toBe(false);
    // Without the key, nothing tells the answer away.
    expect(screen.queryByText(/Right answer/)).toBeNull();
    expect(screen.queryByText('Count them.')).toBeNull();
  });

  it('shows staff the bank’s key beside each label a candidate saw that differs from it', () => {
    render(<QuestionView question={single} index={1} response="A" bankKeys />);
    expect(screen.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['A (B in the bank).Two', 'B (A in the bank).One', 'C.Three']);
  });

  it('shows a multiple choice as checkboxes whose picks come sorted, and none as unanswered', () => {
    const changes = vi.fn();
    render(<Answering question={multiple} changes={changes} />);
    expect(screen.getByText('Choose all that apply')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: /4/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /2/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /4/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /2/ }));
    expect(changes.mock.calls).toEqual([[['C']], [['A', 'C']], [['A']], [null]]);
  });

  it('shows true or false as two radios keyed T and F', () => {
    const changes = vi.fn();
    render(<Answering question={judge} changes={changes} />);
    expect(screen.getAllByRole('radio').map((radio) => (radio as HTMLInputElement).value)).toEqual(['T', 'F']);
    fireEvent.click(screen.getByRole('radio', { name: 'False' }));
    expect(changes).toHaveBeenLastCalledWith('F');
  });

  it('shows the true/false labels in Chinese', () => {
    setLocale('zh-CN', false);
    render(<QuestionView question={judge} index={1} response="T" />);
    expect(screen.getByRole('radio', { name: '正确' })).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: '错误' })).toBeTruthy();
    expect(screen.getByText('判断题')).toBeTruthy();
  });

  it('shows one labelled input per blank and reports every blank in order', () => {
    const changes = vi.fn();
    render(<Answering question={blank} changes={changes} />);
    const inputs = screen.getAllByRole('textbox');
    expect(inputs).toHaveLength(2);
    fireEvent.change(screen.getByRole('textbox', { name: 'Blank 2' }), { target: { value: 'H2O' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Blank 1' }), { target: { value: 'liquid' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Blank 2' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Blank 1' }), { target: { value: '' } });
    expect(changes.mock.calls).toEqual([[['', 'H2O']], [['liquid', 'H2O']], [['liquid', '']], [null]]);
  });

  it('shows a short answer as a text area', () => {
    const changes = vi.fn();
    render(<Answering question={short} changes={changes} />);
    fireEvent.change(screen.getByLabelText('Your answer'), { target: { value: 'Things fall.' } });
    expect(changes).toHaveBeenLastCalledWith('Things fall.');
    expect(screen.getByLabelText('Your answer').tagName).toBe('TEXTAREA');
  });

  it('is read-only without onChange', () => {
    render(
      <>
        <QuestionView question={single} index={1} response="A" />
        <QuestionView question={blank} index={2} response={['wet', 'h2o']} />
      </>,
    );
    expect(screen.getAllByRole('radio').every((radio) => (radio as HTMLInputElement).disabled)).toBe(true);
    expect(screen.getAllByRole('textbox').map((input) => (input as HTMLInputElement).readOnly)).toEqual([true, true]);
    expect((screen.getByRole('textbox', { name: 'Blank 2' }) as HTMLInputElement).value).toBe('h2o');
  });

  it('renders the stem as HTML', () => {
    render(<QuestionView question={{ ...single, stem: '<p>Look: <img src="/x.png" alt="a chart"></p>' }} index={1} response={null} />);
    expect(screen.getByRole('img', { name: 'a chart' })).toBeTruthy();
  });
});

describe('QuestionView with the key', () => {
  it('marks the right option, shows the analysis and a wrong verdict', () => {
    render(<QuestionView question={single} index={1} response="A" showKey />);
    expect(screen.getByRole('radio', { name: /Two/ }).closest('label')?.textContent).toContain('Right answer');
    expect(screen.getByRole('radio', { name: /One/ }).closest('label')?.textContent).not.toContain('Right answer');
    expect(screen.getByText('Count them.')).toBeTruthy();
    expect(screen.getByText('Wrong').parentElement?.textContent).toBe('Wrong · 0 of 2 points');
  });

  it('gives the verdict of the answer as it changes (the editor preview lets staff try)', () => {
    render(<Answering question={multiple} showKey />);
    expect(screen.getByText('Not answered').parentElement?.textContent).toBe('Not answered · 0 of 4 points');
    fireEvent.click(screen.getByRole('checkbox', { name: /^A\./ }));
    expect(screen.getByText('Partly right').parentElement?.textContent).toBe('Partly right · 2 of 4 points');
    fireEvent.click(screen.getByRole('checkbox', { name: /^C\./ }));
    expect(screen.getByText('Right').parentElement?.textContent).toBe('Right · 4 of 4 points');
    fireEvent.click(screen.getByRole('checkbox', { name: /^D\./ }));
    // Proportional: a wrong pick loses the question.
    expect(screen.getByText('Wrong').parentElement?.textContent).toBe('Wrong · 0 of 4 points');
  });

  it('shows the accepted answers and a verdict per blank', () => {
    const { container } = render(<QuestionView question={blank} index={1} response={['WET ', 'H 2 O']} showKey />);
    expect(screen.getByText('Accepted: liquid / wet')).toBeTruthy();
    expect(screen.getByText('Accepted: H2O')).toBeTruthy();
    expect([...container.querySelectorAll('.question-view__blank-verdict')].map((mark) => mark.textContent)).toEqual(['✓Right', '✗Not right']);
    expect(screen.getByText('Partly right').parentElement?.textContent).toBe('Partly right · 1 of 2 points');
  });

  it('marks the right one of true or false', () => {
    render(<QuestionView question={judge} index={1} response="T" showKey />);
    expect(screen.getByRole('radio', { name: /True/ }).closest('label')?.textContent).toContain('Right answer');
    expect(screen.getByText('Right').parentElement?.textContent).toBe('Right · 2 of 2 points');
  });

  it('says "point" of a one-point question', () => {
    render(<QuestionView question={{ ...judge, score: 1 }} index={1} response="F" showKey />);
    expect(screen.getByText('Wrong').parentElement?.textContent).toBe('Wrong · 0 of 1 point');
    expect(screen.getByText('1 point')).toBeTruthy();
  });

  it('shows the reference answer of a short answer, which a teacher marks', () => {
    render(<QuestionView question={short} index={1} response="Because." showKey />);
    expect(screen.getByText('Reference answer')).toBeTruthy();
    expect(screen.getByText('Mass attracts mass.')).toBeTruthy();
    expect(screen.getByText('A teacher marks this answer (10 points)')).toBeTruthy();
    expect(screen.queryByText('Analysis')).toBeNull();
  });

  it('shows nothing of a key the question does not carry', () => {
    const { answer: _, ...withoutKey } = single;
    render(<QuestionView question={withoutKey} index={1} response="A" showKey />);
    expect(screen.queryByText(/Right answer/)).toBeNull();
    expect(screen.queryByText('Wrong')).toBeNull();
  });
});
