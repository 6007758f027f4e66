import type { MarkingAttempt, MarkingItem, MarkingQueue } from '@cloud-classroom/shared/attempts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import CorrectExamPage from './correct-exam-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const shortAnswer = (answerId: number, candidate: string, text: string): MarkingItem => ({
  answerId,
  attemptId: answerId - 100,
  questionId: 9,
  candidate,
  type: 'short',
  stem: '<p>Why do we not use the lift?</p>',
  options: [],
  optionOrder: [],
  answer: ['It may stop between floors.'],
  response: text,
  maxScore: 5,
  autoScore: null,
  score: null,
  comment: null,
  markedBy: null,
  markedAt: null,
  pending: true,
});

const singleAnswer: MarkingItem = {
  answerId: 201,
  attemptId: 1,
  questionId: 3,
  candidate: 'Candidate 1',
  type: 'single',
  stem: '<p>Where is the exit?</p>',
  options: [
    { key: 'A', text: 'The stairs' },
    { key: 'B', text: 'The lift' },
  ],
  optionOrder: ['A', 'B'],
  answer: ['A'],
  response: 'A',
  maxScore: 2,
  autoScore: 2,
  score: 2,
  comment: null,
  markedBy: null,
  markedAt: null,
  pending: false,
};

/** A fake marking server: the queue answers from `items`, a mark takes the item out of the pending list; `more` answers other routes. */
function markingServer(initial: MarkingItem[], more: Parameters<typeof stubRoutes>[0] = {}) {
  let items = initial;
  const queue = (pendingOnly: boolean, questionId: string | null): MarkingQueue => {
    const groupIds = [...new Set(items.map((item) => item.questionId))];
    return {
      examId: 7,
      title: 'Fire drill',
      by: 'question',
      groups: groupIds.map((id) => ({
        id,
        label: `<p>Question ${id}</p>`,
        total: items.filter((item) => item.questionId === id).length,
        pending: items.filter((item) => item.questionId === id && item.pending).length,
      })),
      items: questionId === null ? [] : items.filter((item) => String(item.questionId) === questionId && (!pendingOnly || item.pending)),
      pendingTotal: items.filter((item) => item.pending).length,
      attemptCount: 3,
      gradedCount: 3 - items.filter((item) => item.pending).length,
      outsideScope: 0,
    };
  };
  const api = stubRoutes({
    'GET api/marking/exams/7/queue': (call) => queue(call.params.get('pending') !== 'false', call.params.get('questionId')),
    ...Object.fromEntries(
      initial.map((item) => [
        `PUT api/marking/answers/${item.answerId}`,
        (call: { body: unknown }) => {
          const body = call.body as { score: number; comment: string; reason: string };
          if (item.score !== null && body.reason === '') return jsonResponse(400, { status: 400, message: 'reason: is required to change a score', timestamp: 0 });
          items = items.map((shown) => (shown.answerId === item.answerId ? { ...shown, score: body.score, comment: body.comment, pending: false, markedBy: 'admin', markedAt: '2026-11-26 09:00:00' } : shown));
          return undefined;
        },
      ]),
    ),
    ...more,
  });
  return api;
}

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/edu/correct-exam" element={<CorrectExamPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const scoreInput = (answerId: number) => document.getElementById(`mark-${answerId}-score`) as HTMLInputElement;

describe('CorrectExamPage', () => {
  beforeEach(() => {
    stubBrowser(1280);
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('marks by keyboard: a score and Enter saves, moves to the next answer and counts down what is left', async () => {
    const api = markingServer([shortAnswer(101, 'Candidate 1', 'It can stop.'), shortAnswer(102, 'Candidate 2', 'Smoke fills the shaft.'), singleAnswer]);
    renderAt('/edu/correct-exam?exam=7');
    expect(await screen.findByText('It can stop.')).toBeTruthy();
    // The page opens on the first question with something to mark, anonymous, its first answer ready to type into.
    expect(screen.getByText('2 to mark')).toBeTruthy();
    expect(screen.getByText('Answer 1 · Candidate 1')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(scoreInput(101)));

    fill(scoreInput(101), '4');
    fireEvent.keyDown(scoreInput(101), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(api.callsTo('PUT api/marking/answers/101')).toHaveLength(1));
    expect(api.callsTo('PUT api/marking/answers/101')[0]?.body).toEqual({ score: 4, comment: '', reason: '' });
    // The next answer takes the focus; the one marked leaves the pending list and the counters follow.
    await waitFor(() => expect(document.activeElement).toBe(scoreInput(102)));
    expect(await screen.findByText('1 to mark')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('It can stop.')).toBeNull());

    // A score beyond the question's maximum is refused before it is sent.
    fill(scoreInput(102), '6');
    fireEvent.keyDown(scoreInput(102), { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await screen.findByText('The score must be between 0 and 5')).toBeTruthy();
    expect(api.callsTo('PUT api/marking/answers/102')).toHaveLength(0);
  });

  it('asks a reason before changing a score already given, and sends it', async () => {
    const api = markingServer([singleAnswer]);
    renderAt('/edu/correct-exam?exam=7');
    expect(await screen.findByText(/^All marked/)).toBeTruthy();
    // Revisiting: the answers already scored come back with "All".
    clickText('All');
    await waitFor(() => expect(scoreInput(201)).toBeTruthy());
    expect(scoreInput(201).value).toBe('2');
    expect(screen.getByText('Automatic score 2')).toBeTruthy();

    fill(scoreInput(201), '1');
    fireEvent.keyDown(scoreInput(201), { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await screen.findByText('Changing a score already given needs a reason')).toBeTruthy();
    expect(api.callsTo('PUT api/marking/answers/201')).toHaveLength(0);

    const reason = screen.getByLabelText('Reason for the change');
    fill(reason, 'The stairs and the lift were both accepted in the briefing');
    fireEvent.keyDown(reason, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(api.callsTo('PUT api/marking/answers/201')).toHaveLength(1));
    expect(api.callsTo('PUT api/marking/answers/201')[0]?.body).toEqual({ score: 1, comment: '', reason: 'The stairs and the lift were both accepted in the briefing' });
  });

  it('shows the option a candidate picked by the letter they saw, with the bank’s key beside it', async () => {
    const shuffled: MarkingItem = {
      ...singleAnswer,
      options: [
        { key: 'A', text: 'The stairs' },
        { key: 'B', text: 'The lift' },
        { key: 'C', text: 'The window' },
        { key: 'D', text: 'The roof' },
      ],
      optionOrder: ['D', 'C', 'A', 'B'],
      response: 'B',
    };
    markingServer([shuffled], {
      'GET api/marking/attempts/1': () =>
        ({
          id: 1,
          examId: 7,
          candidate: 'Candidate 1',
          state: 'graded',
          startedAt: '2026-11-26 08:00:00',
          submittedAt: '2026-11-26 08:20:00',
          submittedBy: 'learner',
          score: 0,
          passed: false,
          items: [shuffled],
          events: [],
          changes: [],
        }) satisfies MarkingAttempt,
    });
    renderAt('/edu/correct-exam?exam=7');
    expect(await screen.findByText(/^All marked/)).toBeTruthy();
    clickText('All');
    expect(await screen.findByText('D (B in the bank). The lift')).toBeTruthy();
    // The question above everyone's answers is the bank's, in its own order.
    expect(screen.getByText('A. The stairs ✓')).toBeTruthy();

    clickText('Attempt');
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('D (B in the bank)')).toBeTruthy();
    expect(within(drawer).getByText('C (A in the bank)')).toBeTruthy();
  });

  it('shows a refusal naming the score under that field and stays on the answer', async () => {
    const api = stubRoutes({
      'GET api/marking/exams/7/queue': (call) =>
        ({
          examId: 7,
          title: 'Fire drill',
          by: 'question',
          groups: [{ id: 9, label: 'Why?', total: 2, pending: 2 }],
          items: call.params.get('questionId') === '9' ? [shortAnswer(101, 'Candidate 1', 'It can stop.'), shortAnswer(102, 'Candidate 2', 'Smoke.')] : [],
          pendingTotal: 2,
          attemptCount: 2,
          gradedCount: 0,
          outsideScope: 0,
        }) satisfies MarkingQueue,
      'PUT api/marking/answers/101': () => jsonResponse(400, { status: 400, message: 'score: the attempt is still in progress', timestamp: 0 }),
    });
    renderAt('/edu/correct-exam?exam=7');
    await waitFor(() => expect(document.activeElement).toBe(scoreInput(101)));
    fill(scoreInput(101), '3');
    fireEvent.keyDown(scoreInput(101), { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await screen.findByText('the attempt is still in progress')).toBeTruthy();
    expect(api.callsTo('PUT api/marking/answers/101')).toHaveLength(1);
    expect(document.activeElement).toBe(scoreInput(101));
  });

  it('opens an attempt with its answers, its timeline as signals and its score history', async () => {
    markingServer([shortAnswer(101, 'Candidate 1', 'It can stop.')]);
    const attempt: MarkingAttempt = {
      id: 1,
      examId: 7,
      candidate: 'Candidate 1',
      state: 'graded',
      startedAt: '2026-11-26 08:00:00',
      submittedAt: '2026-11-26 08:20:00',
      submittedBy: 'server',
      score: 6,
      passed: false,
      items: [{ ...singleAnswer, score: 1, markedBy: 'admin', markedAt: '2026-11-26 09:00:00' }],
      events: [
        { type: 'start', at: '2026-11-26 08:00:00', questionId: null, detail: '' },
        { type: 'hidden', at: '2026-11-26 08:05:00', questionId: 3, detail: '' },
      ],
      changes: [{ questionId: 3, kind: 'override', oldScore: 2, newScore: 1, reason: 'Both accepted', by: 'admin', at: '2026-11-26 09:00:00' }],
    };
    stubRoutes({
      'GET api/marking/exams/7/queue': (call) =>
        ({
          examId: 7,
          title: 'Fire drill',
          by: 'question',
          groups: [{ id: 9, label: 'Why?', total: 1, pending: 1 }],
          items: call.params.get('questionId') === '9' ? [shortAnswer(101, 'Candidate 1', 'It can stop.')] : [],
          pendingTotal: 1,
          attemptCount: 1,
          gradedCount: 0,
          outsideScope: 0,
        }) satisfies MarkingQueue,
      'GET api/marking/attempts/1': () => attempt,
    });
    renderAt('/edu/correct-exam?exam=7');
    await screen.findByText('It can stop.');
    clickText('Attempt');
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('Attempt: Candidate 1')).toBeTruthy();
    expect(within(drawer).getByText('· by the server at the deadline', { exact: false })).toBeTruthy();
    clickText('Timeline (2)', drawer);
    expect(await within(drawer).findByText('Page hidden')).toBeTruthy();
    expect(within(drawer).getByText(/never a verdict/)).toBeTruthy();
    clickText('Score history (1)', drawer);
    expect(await within(drawer).findByText('Both accepted')).toBeTruthy();
    expect(within(drawer).getByText('2 → 1')).toBeTruthy();
  });

  it('says how many submissions lie outside the marker’s departments, beside the counters', async () => {
    stubRoutes({
      'GET api/marking/exams/7/queue': () =>
        ({ examId: 7, title: 'Fire drill', by: 'question', groups: [], items: [], pendingTotal: 0, attemptCount: 0, gradedCount: 0, outsideScope: 1 }) satisfies MarkingQueue,
    });
    renderAt('/edu/correct-exam?exam=7');
    expect(await screen.findByText('1 submission outside your departments is not shown')).toBeTruthy();
  });

  it('opens the attempt an address names (the report links here), naming its candidate in the page language', async () => {
    stubRoutes({
      'GET api/marking/exams/7/queue': () =>
        ({ examId: 7, title: 'Fire drill', by: 'question', groups: [], items: [], pendingTotal: 0, attemptCount: 0, gradedCount: 0, outsideScope: 0 }) satisfies MarkingQueue,
      'GET api/marking/attempts/4': () =>
        ({
          id: 4,
          examId: 7,
          candidate: 'Candidate 4',
          state: 'marking',
          startedAt: '2026-11-26 08:00:00',
          submittedAt: '2026-11-26 08:20:00',
          submittedBy: 'learner',
          score: null,
          passed: null,
          items: [shortAnswer(104, 'Candidate 4', 'Smoke.')],
          events: [],
          changes: [],
        }) satisfies MarkingAttempt,
    });
    renderAt('/edu/correct-exam?exam=7&attempt=4');
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('Attempt: Candidate 4')).toBeTruthy();
    expect(within(drawer).getByText('Smoke.')).toBeTruthy();
    expect(within(drawer).getByText('Being marked')).toBeTruthy();
  });

  it('keeps its exam while hidden in the tab cache under another page’s address', async () => {
    markingServer([shortAnswer(101, 'Candidate 1', 'It can stop.')]);
    // As the tabs keep it: mounted whatever the address, another page shown meanwhile.
    renderWithProviders(
      <MemoryRouter initialEntries={['/edu/correct-exam?exam=7']}>
        <Link to="/exam/exam">exams</Link>
        <Routes>
          <Route path="/exam/exam" element={<p>exam list</p>} />
          <Route path="*" element={null} />
        </Routes>
        <CorrectExamPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText('It can stop.')).toBeTruthy();
    fireEvent.click(screen.getByText('exams'));
    expect(await screen.findByText('exam list')).toBeTruthy();
    expect(screen.queryByText('No exam was named')).toBeNull();
    expect(screen.getByText('It can stop.')).toBeTruthy();
  });

  it('shows the marks without a form to whoever may only list them', async () => {
    signInAs(['mark:list']);
    markingServer([shortAnswer(101, 'Candidate 1', 'It can stop.')]);
    renderAt('/edu/correct-exam?exam=7');
    expect(await screen.findByText('It can stop.')).toBeTruthy();
    expect(screen.getByText('You may look but not mark')).toBeTruthy();
    expect(scoreInput(101)).toBeNull();
  });
});
