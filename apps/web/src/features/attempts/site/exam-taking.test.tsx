import type { AttemptStart } from '@cloud-classroom/shared/attempts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../../lib/use-locale-text';
import { AnswerQueue, MemoryPendingSaveStore, type PendingSave } from './answer-queue';
import { EventBuffer, MemoryEventStore } from './event-buffer';
import { ExamTaking } from './exam-taking';

/** An attempt whose paper shuffled the options of its one question: D, C, A, B. */
const START: AttemptStart = {
  id: 9,
  examId: 3,
  title: 'Fire safety',
  description: '',
  number: 1,
  attemptsAllowed: 1,
  totalScore: 2,
  passScore: 1,
  startedAt: '2026-06-01 09:00:00',
  deadline: null,
  serverNow: '2026-06-01 09:00:00',
  remainingMs: null,
  questions: [
    {
      id: 41,
      type: 'single',
      section: 'Part 1',
      stem: '<p>Which number do you call for a fire?</p>',
      options: [
        { key: 'D', text: '122' },
        { key: 'C', text: '120' },
        { key: 'A', text: '110' },
        { key: 'B', text: '119' },
      ],
      blanks: 0,
      score: 2,
    },
  ],
  answers: [],
};

function renderTaking() {
  const sent: PendingSave[] = [];
  const queue = new AnswerQueue({
    attemptId: START.id,
    store: new MemoryPendingSaveStore(),
    send: async (save) => {
      sent.push(save);
      return { revision: save.revision, savedAt: '2026-06-01 09:01:00' };
    },
  });
  const events = new EventBuffer(START.id, new MemoryEventStore(), async () => {});
  render(<ExamTaking session={{ start: START, receivedAt: performance.now(), queue, events, responses: new Map(), durable: false }} onSubmitted={() => {}} />);
  return { sent };
}

describe('taking an exam with shuffled options', () => {
  beforeEach(() => setLocale('en-US', false));
  afterEach(() => {
    cleanup();
    setLocale('zh-CN', false);
  });

  it('labels the options A, B, C, D in the order shown, and saves the keys of the bank', async () => {
    const { sent } = renderTaking();
    const group = await screen.findByRole('group', { name: /^1\. Single choice/ });
    expect(within(group).getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['A.122', 'B.120', 'C.110', 'D.119']);

    fireEvent.click(within(group).getByRole('radio', { name: /119/ }));
    await waitFor(() => expect(sent.map((save) => save.response)).toEqual(['B']));
    // The letter typed is the one read on the screen: A is 122, the bank's D.
    fireEvent.keyDown(document.body, { key: 'a' });
    await waitFor(() => expect(sent.map((save) => save.response)).toEqual(['B', 'D']));
    expect((within(group).getByRole('radio', { name: /122/ }) as HTMLInputElement).checked).toBe(true);
  });
});
