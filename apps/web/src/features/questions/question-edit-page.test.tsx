import type { Question } from '@cloud-classroom/shared/questions';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import QuestionEditPage from './question-edit-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

// The tiptap editor is tested on its own (rich-text-editor.test.tsx); here a text area stands in
// for it, holding the HTML the page gets, so the tests can type a stem.
vi.mock('../../components/rich-text/lazy-rich-text-editor', () => ({
  LazyRichTextEditor: ({ value, onChange, id, 'aria-label': label }: { value?: string; onChange?: (html: string) => void; id?: string; 'aria-label'?: string }) => (
    <textarea id={id} aria-label={label} value={value ?? ''} onChange={(event) => onChange?.(event.target.value)} />
  ),
}));

vi.setConfig({ testTimeout: 60_000 });

const STORED: Question = {
  id: 5,
  type: 'multiple',
  stem: '<p>Which are even?</p>',
  stemText: 'Which are even?',
  options: [
    { key: 'A', text: '2' },
    { key: 'B', text: '3' },
    { key: 'C', text: '4' },
  ],
  answer: ['A', 'C'],
  blankRules: null,
  analysis: '<p>Even numbers divide by 2.</p>',
  difficulty: 4,
  tags: ['Numbers'],
  score: 3,
  policy: 'proportional',
  duplicate: false,
  examCount: 1,
  ...AUDIT,
};

function stubQuestions(put: () => unknown = () => new Response(null, { status: 204 })) {
  return stubRoutes({
    'GET api/questions/5': () => STORED,
    'GET api/questions/6': () => jsonResponse(404, { status: 404, message: 'question 6 not found', timestamp: 0 }),
    'GET api/questions/tags': () => [{ name: 'Numbers', questionCount: 3 }],
    'POST api/questions': () => jsonResponse(201, { ...STORED, id: 9 }),
    'PUT api/questions': put,
  });
}

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/edu/add-question" element={<QuestionEditPage />} />
        <Route path="/edu/edit-question" element={<QuestionEditPage />} />
        <Route path="/exam/question" element={<p>the question bank</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const fieldOf = (label: string) => screen.getByText(label, { selector: 'label' }).closest('.ant-form-item') as HTMLElement;
const previewCard = () => screen.getByText('Preview').closest('.ant-card') as HTMLElement;
const stem = () => screen.getByRole('textbox', { name: 'Stem' });
const chooseType = (label: string) => fireEvent.click(within(fieldOf('Type')).getByText(label));
/** Adds an accepted answer to a blank's tags input: the separator `|` ends it. */
const addAccepted = (blank: number, text: string) => fill(screen.getByRole('combobox', { name: `Blank ${blank}` }), `${text}|`);

const BASE = { analysis: '', difficulty: 3, tags: [], score: 1 };

describe('QuestionEditPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('adds a single-choice question and goes back to the list', async () => {
    const api = stubQuestions();
    renderAt('/edu/add-question');
    expect(await screen.findByText('Add a question')).toBeTruthy();
    fill(stem(), '<p>Which gas do plants take in?</p>');
    fill(screen.getByLabelText('Option A'), ' Oxygen ');
    fill(screen.getByLabelText('Option B'), 'Carbon dioxide');
    fireEvent.click(screen.getByRole('button', { name: 'Remove option D' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove option C' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Option B is right' }));
    clickText('Save');
    await waitFor(() => expect(api.callsTo('POST api/questions')).toHaveLength(1));
    expect(api.callsTo('POST api/questions')[0]?.body).toEqual({
      ...BASE,
      type: 'single',
      stem: '<p>Which gas do plants take in?</p>',
      options: [
        { key: 'A', text: 'Oxygen' },
        { key: 'B', text: 'Carbon dioxide' },
      ],
      answer: ['B'],
      blankRules: null,
      policy: null,
    });
    expect(await screen.findByText('the question bank')).toBeTruthy();
  });

  it('shows the shape rule’s errors under the stem, the options and the answer, and sends nothing', async () => {
    const api = stubQuestions();
    renderAt('/edu/add-question');
    await screen.findByText('Add a question');
    clickText('Save');
    expect(await within(fieldOf('Stem')).findByText('Enter the stem (text or a picture)')).toBeTruthy();
    expect(await within(fieldOf('Options')).findByText('Choose the right option')).toBeTruthy();

    fireEvent.click(screen.getByRole('radio', { name: 'Option C is right' }));
    await waitFor(() => expect(within(fieldOf('Options')).queryByText('Choose the right option')).toBeNull());

    chooseType('True or false');
    fill(stem(), '<p>The sun is a star.</p>');
    clickText('Save');
    expect(await within(fieldOf('Right answer')).findByText('Choose true or false')).toBeTruthy();

    chooseType('Fill in the blanks');
    clickText('Save');
    expect(await within(fieldOf('Accepted answers of each blank')).findByText('Each blank accepts 1 to 20 answers of at most 200 characters')).toBeTruthy();
    expect(api.callsTo('POST api/questions')).toHaveLength(0);
  });

  it('keeps the stem across a change of type and sends each type’s own parts', async () => {
    const api = stubQuestions();
    renderAt('/edu/add-question');
    await screen.findByText('Add a question');
    fill(stem(), '<p>Water is ____; its formula is ____.</p>');

    chooseType('Multiple choice');
    expect((stem() as HTMLTextAreaElement).value).toBe('<p>Water is ____; its formula is ____.</p>');
    chooseType('Fill in the blanks');
    expect((stem() as HTMLTextAreaElement).value).toBe('<p>Water is ____; its formula is ____.</p>');
    addAccepted(1, 'liquid');
    addAccepted(1, 'wet');
    clickText('Add a blank');
    addAccepted(2, 'H2O');
    fireEvent.click(screen.getByRole('switch', { name: /Blanks in any order/ }));
    fireEvent.click(screen.getByRole('switch', { name: /Ignore case/ }));
    clickText('Save');
    await waitFor(() => expect(api.callsTo('POST api/questions')).toHaveLength(1));
    expect(api.callsTo('POST api/questions')[0]?.body).toEqual({
      ...BASE,
      type: 'blank',
      stem: '<p>Water is ____; its formula is ____.</p>',
      options: [],
      answer: [['liquid', 'wet'], ['H2O']],
      blankRules: { ignoreCase: false, ignoreWidth: true, trimSpaces: true, ignoreInnerSpaces: false, anyOrder: true },
      policy: null,
    });
  });

  it('sends a true-or-false question as T or F', async () => {
    const api = stubQuestions();
    renderAt('/edu/add-question');
    await screen.findByText('Add a question');
    chooseType('True or false');
    fill(stem(), '<p>The sun is a star.</p>');
    fireEvent.click(within(fieldOf('Right answer')).getByRole('radio', { name: 'False' }));
    clickText('Save');
    await waitFor(() => expect(api.callsTo('POST api/questions')).toHaveLength(1));
    expect(api.callsTo('POST api/questions')[0]?.body).toEqual({ ...BASE, type: 'judge', stem: '<p>The sun is a star.</p>', options: [], answer: ['F'], blankRules: null, policy: null });
  });

  it('sends a short answer with its reference answer, or none', async () => {
    const api = stubQuestions();
    renderAt('/edu/add-question');
    await screen.findByText('Add a question');
    chooseType('Short answer');
    fill(stem(), '<p>Explain gravity.</p>');
    fill(screen.getByLabelText('Reference answer'), 'Mass attracts mass.');
    fill(screen.getByLabelText('Score'), '10');
    clickText('Save and add another');
    await waitFor(() => expect(api.callsTo('POST api/questions')).toHaveLength(1));
    expect(api.callsTo('POST api/questions')[0]?.body).toEqual({
      ...BASE,
      score: 10,
      type: 'short',
      stem: '<p>Explain gravity.</p>',
      options: [],
      answer: ['Mass attracts mass.'],
      blankRules: null,
      policy: null,
    });
    // Another question of the same kind: an empty stem, the type and score kept, still on the add page.
    await waitFor(() => expect((stem() as HTMLTextAreaElement).value).toBe(''));
    expect((screen.getByLabelText('Reference answer') as HTMLTextAreaElement).value).toBe('');
    fill(stem(), '<p>Explain light.</p>');
    clickText('Save');
    await waitFor(() => expect(api.callsTo('POST api/questions')).toHaveLength(2));
    expect(api.callsTo('POST api/questions')[1]?.body).toMatchObject({ type: 'short', stem: '<p>Explain light.</p>', answer: [], score: 10 });
    expect(await screen.findByText('the question bank')).toBeTruthy();
  });

  it('edits a question read from its address, reorders options with their marks, and saves it with its id and policy', async () => {
    const api = stubQuestions();
    renderAt('/edu/edit-question?id=5');
    expect(await screen.findByText('Edit question #5')).toBeTruthy();
    expect((stem() as HTMLTextAreaElement).value).toBe('<p>Which are even?</p>');
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'Option C is right' }) as HTMLInputElement).checked).toBe(true));
    expect((screen.getByRole('radio', { name: /A share per right pick/ }) as HTMLInputElement).checked).toBe(true);

    // C (4) moves up to B: its mark goes with it.
    fireEvent.click(screen.getByRole('button', { name: 'Move option C up' }));
    await waitFor(() => expect((screen.getByLabelText('Option B') as HTMLInputElement).value).toBe('4'));
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'Option B is right' }) as HTMLInputElement).checked).toBe(true));
    expect((screen.getByRole('checkbox', { name: 'Option C is right' }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByRole('radio', { name: /Right picks less wrong picks/ }));
    clickText('Save');
    await waitFor(() => expect(api.callsTo('PUT api/questions')).toHaveLength(1));
    expect(api.callsTo('PUT api/questions')[0]?.body).toEqual({
      id: 5,
      type: 'multiple',
      stem: '<p>Which are even?</p>',
      options: [
        { key: 'A', text: '2' },
        { key: 'B', text: '4' },
        { key: 'C', text: '3' },
      ],
      answer: ['A', 'B'],
      blankRules: null,
      analysis: '<p>Even numbers divide by 2.</p>',
      difficulty: 4,
      tags: ['Numbers'],
      score: 3,
      policy: 'proportional_minus',
    });
  });

  it('keeps one right option when a multiple choice becomes single', async () => {
    const api = stubQuestions();
    renderAt('/edu/edit-question?id=5');
    await screen.findByText('Edit question #5');
    chooseType('Single choice');
    await waitFor(() => expect((screen.getByRole('radio', { name: 'Option C is right' }) as HTMLInputElement).checked).toBe(false));
    expect((screen.getByRole('radio', { name: 'Option A is right' }) as HTMLInputElement).checked).toBe(true);
    clickText('Save');
    await waitFor(() => expect(api.callsTo('PUT api/questions')).toHaveLength(1));
    expect(api.callsTo('PUT api/questions')[0]?.body).toMatchObject({ type: 'single', answer: ['A'], policy: null });
  });

  it('shows the server’s refusal of the key under the options', async () => {
    stubQuestions(() => jsonResponse(400, { status: 400, message: 'answer: names an option twice', timestamp: 0 }));
    renderAt('/edu/edit-question?id=5');
    await screen.findByText('Edit question #5');
    clickText('Save');
    expect(await within(fieldOf('Options')).findByText('names an option twice')).toBeTruthy();
  });

  it('previews the question as learners see it, with the key, and scores a try', async () => {
    stubQuestions();
    renderAt('/edu/edit-question?id=5');
    await screen.findByText('Edit question #5');
    const preview = previewCard();
    expect(within(preview).getByText('Which are even?')).toBeTruthy();
    expect(within(preview).getByText('Even numbers divide by 2.')).toBeTruthy();
    expect(within(preview).getByText('Not answered')).toBeTruthy();
    fireEvent.click(within(preview).getByRole('checkbox', { name: /^A\./ }));
    expect(within(preview).getByText('Partly right').parentElement?.textContent).toBe('Partly right · 1.5 of 3 points');

    fill(screen.getByLabelText('Option B'), 'Three');
    expect(await within(preview).findByText('Three')).toBeTruthy();
  });

  it('says so when the question is gone', async () => {
    stubQuestions();
    renderAt('/edu/edit-question?id=6');
    expect(await screen.findByText('This question was not found; it may have been deleted.')).toBeTruthy();
  });
});
