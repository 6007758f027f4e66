import type { DrawCheckResult, Exam, PaperBody } from '@cloud-classroom/shared/exams';
import type { Question } from '@cloud-classroom/shared/questions';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser, type ApiCall } from '../../components/list-page/list-page-test-kit';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import ExamEditPage from './exam-edit-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const question = (id: number, stemText: string, fields: Partial<Question> = {}): Question => ({
  id,
  type: 'single',
  stem: `<p>${stemText}</p>`,
  stemText,
  options: [
    { key: 'A', text: 'Yes' },
    { key: 'B', text: 'No' },
  ],
  answer: ['A'],
  blankRules: null,
  analysis: '',
  difficulty: 2,
  tags: ['fire'],
  score: 1,
  policy: null,
  duplicate: false,
  examCount: 0,
  ...AUDIT,
  ...fields,
});
const QUESTIONS = [question(1, 'Where is the exit?'), question(2, 'Who calls the brigade?', { score: 3 }), question(3, 'Which extinguisher for oil?', { type: 'multiple', tags: ['oil'] })];

const EXAM: Exam = {
  id: 7,
  title: 'Fire drill',
  courseId: null,
  courseTitle: null,
  termId: null,
  termName: null,
  status: 'draft',
  description: 'Read each question.',
  paper: {
    sections: [
      { title: 'Basics', questionIds: [1, 2], score: null, draw: [] },
      { title: 'Drawn', questionIds: [], score: null, draw: [{ tags: ['fire'], type: 'single', difficulty: null, count: 5, score: 2 }] },
    ],
  },
  openAt: '2026-05-01 09:00:00',
  closeAt: null,
  limitMinutes: 30,
  attempts: 2,
  counts: 'best',
  passScore: 8,
  totalScore: 14,
  questionCount: 7,
  shuffleQuestions: false,
  shuffleOptions: true,
  review: 'after_close',
  assigneeCount: 0,
  ...AUDIT,
};

/** The bank holds 8 questions matching any rule: a rule asking for more is short. */
function drawCheck(call: ApiCall): DrawCheckResult {
  const paper = (call.body as { paper: PaperBody }).paper;
  return {
    sections: paper.sections.map((section) => ({ rules: (section.draw ?? []).map((rule) => ({ matching: 8, available: 8, short: rule.count > 8 })) })),
    totalScore: 99,
    questionCount: 42,
  };
}

function stubExams({ putAnswer }: { putAnswer?: () => unknown } = {}) {
  return stubRoutes({
    'GET api/exams/7': () => EXAM,
    'GET api/exams/12': () => ({ ...EXAM, id: 12, title: 'Oil fires' }),
    'PUT api/exams': putAnswer ?? (() => new Response(null, { status: 204 })),
    'POST api/exams': () => jsonResponse(201, { id: 12 }),
    'POST api/exams/draw-check': drawCheck,
    'GET api/questions/1': () => QUESTIONS[0],
    'GET api/questions/2': () => QUESTIONS[1],
    'GET api/questions': (call) => {
      const excluded = (call.params.get('exclude') ?? '').split(',').map(Number);
      const rows = QUESTIONS.filter((row) => !excluded.includes(row.id));
      return { content: rows, totalElements: rows.length };
    },
    'GET api/questions/tags': () => [
      { name: 'fire', questionCount: 8 },
      { name: 'oil', questionCount: 1 },
    ],
    'GET api/courses': () => ({ content: [], totalElements: 0 }),
  });
}

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/edu/edit-exam" element={<ExamEditPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const input = (label: string) => screen.getByLabelText(label, { selector: 'input' });
const rule = (section: number, index: number) => screen.getByTestId(`rule-${section}-${index}`);

describe('ExamEditPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('sends the settings and the whole paper, sections, fixed questions and draw rules, on save', async () => {
    const api = stubExams();
    renderAt('/edu/edit-exam?id=7');
    expect(await screen.findByDisplayValue('Drawn')).toBeTruthy();
    // The fixed questions show their text, read by id.
    expect(await screen.findByText('Who calls the brigade?')).toBeTruthy();

    fill(input('Title'), 'Fire drill 2026');
    fill(input('Title of section 1'), 'The basics');
    fill(input('Count of rule 1'), '6');
    fill(input('Fixed question score of section 1'), '2.5');
    // The second fixed question moves up, the first section's rule list gets one.
    fireEvent.click(within(screen.getByTestId('section-1')).getAllByRole('button', { name: 'Move the question up' })[1]!);
    clickText('Add a draw rule', screen.getByTestId('section-1'));
    clickText('Save');

    await waitFor(() => expect(api.callsTo('PUT api/exams')).toHaveLength(1));
    expect(api.callsTo('PUT api/exams')[0]?.body).toEqual({
      id: 7,
      title: 'Fire drill 2026',
      description: 'Read each question.',
      courseId: null,
      termId: null,
      status: 'draft',
      paper: {
        sections: [
          { title: 'The basics', questionIds: [2, 1], score: 2.5, draw: [{ tags: [], type: 'single', difficulty: null, count: 5, score: 2 }] },
          { title: 'Drawn', questionIds: [], score: null, draw: [{ tags: ['fire'], type: 'single', difficulty: null, count: 6, score: 2 }] },
        ],
      },
      // Untouched, the time goes back as it came, seconds and all.
      openAt: '2026-05-01 09:00:00',
      closeAt: null,
      limitMinutes: 30,
      attempts: 2,
      counts: 'best',
      passScore: 8,
      shuffleQuestions: false,
      shuffleOptions: true,
      review: 'after_close',
    });
  });

  it('shows each rule’s live count, red when the bank cannot fill it, and the running totals', async () => {
    const api = stubExams();
    renderAt('/edu/edit-exam?id=7');
    const drawn = await screen.findByTestId('rule-2-1');
    expect(await within(drawn).findByText('8 available / 8 match')).toBeTruthy();
    // The server's totals, once the count is about the paper shown.
    expect(await screen.findByText('99')).toBeTruthy();
    expect(api.callsTo('POST api/exams/draw-check')[0]?.body).toEqual({ paper: EXAM.paper });

    fill(input('Count of rule 1'), '10');
    const short = await within(rule(2, 1)).findByText('8 available / 8 match · fewer than the 10 asked');
    expect(short.closest('.ant-typography-danger')).not.toBeNull();
    expect(rule(2, 1).className).toContain('draw-rule--short');
  });

  it('shows a refusal naming a draw rule at that rule’s row', async () => {
    stubExams({ putAnswer: () => jsonResponse(400, { status: 400, message: 'paper.sections.1.draw.0: only 8 questions match it, 9 asked', timestamp: 0 }) });
    renderAt('/edu/edit-exam?id=7');
    await screen.findByDisplayValue('Drawn');
    clickText('Add a draw rule', await screen.findByTestId('section-1'));
    clickText('Save');
    expect(await within(rule(2, 1)).findByText('only 8 questions match it, 9 asked')).toBeTruthy();
    expect(within(rule(1, 1)).queryByText('only 8 questions match it, 9 asked')).toBeNull();
    expect(screen.queryByText(/paper\.sections/)).toBeNull();
  });

  it('refuses an untitled section before sending, at that section', async () => {
    const api = stubExams();
    renderAt('/edu/edit-exam?id=7');
    await screen.findByDisplayValue('Drawn');
    fill(input('Title of section 2'), '  ');
    clickText('Save');
    expect(await within(screen.getByTestId('section-2')).findByText('is required')).toBeTruthy();
    expect(api.callsTo('PUT api/exams')).toHaveLength(0);
  });

  it('adds a new exam with questions picked from the bank, leaving out those already in, then offers preview and assign', async () => {
    const api = stubExams();
    renderAt('/edu/edit-exam');
    expect(await screen.findByText('New exam')).toBeTruthy();
    expect(screen.queryByText('Preview')).toBeNull();
    fill(input('Title'), 'Oil fires');
    clickText('Add questions');
    const dialog = await screen.findByRole('dialog');
    const row = (await within(dialog).findByText('Which extinguisher for oil?')).closest('tr')!;
    fireEvent.click(within(row).getByRole('checkbox'));
    fireEvent.click(within((await within(dialog).findByText('Where is the exit?')).closest('tr')!).getByRole('checkbox'));
    clickText('Add 2 questions', dialog);
    expect(await screen.findByText('Which extinguisher for oil?', { selector: '.paper-question *' })).toBeTruthy();
    // Picked questions are not read again one by one.
    expect(api.callsTo('GET api/questions/3')).toHaveLength(0);

    // The picker opened again leaves out what the paper has.
    clickText('Add questions');
    await waitFor(() => expect(api.callsTo('GET api/questions').at(-1)?.params.get('exclude')).toBe('3,1'));
    clickText('cancel', screen.getAllByRole('dialog').at(-1));

    clickText('Save');
    await waitFor(() => expect(api.callsTo('POST api/exams')).toHaveLength(1));
    expect(api.callsTo('POST api/exams')[0]?.body).toMatchObject({
      title: 'Oil fires',
      status: 'draft',
      limitMinutes: 60,
      attempts: 1,
      passScore: 60,
      review: 'after_submit',
      paper: { sections: [{ title: 'Part 1', questionIds: [3, 1], score: null, draw: [] }] },
    });
    // The saved exam has its own address now, with its preview and assignment.
    expect(await screen.findByText('Edit: Oil fires')).toBeTruthy();
    expect(screen.getByText('Preview')).toBeTruthy();
    expect(screen.getByText('Assign')).toBeTruthy();
  });
});
