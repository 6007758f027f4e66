import type { Question } from '@cloud-classroom/shared/questions';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import QuestionListPage from './question-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

vi.setConfig({ testTimeout: 60_000 });

const questionOf = (fields: Partial<Question> & Pick<Question, 'id' | 'type' | 'stemText'>): Question => ({
  stem: `<p>${fields.stemText}</p>`,
  options: [],
  answer: [],
  blankRules: null,
  analysis: '',
  difficulty: 3,
  tags: [],
  score: 2,
  policy: null,
  duplicate: false,
  examCount: 0,
  ...AUDIT,
  ...fields,
});

const SINGLE = questionOf({
  id: 1,
  type: 'single',
  stemText: 'Which gas do plants take in?',
  options: [
    { key: 'A', text: 'Oxygen' },
    { key: 'B', text: 'Carbon dioxide' },
  ],
  answer: ['B'],
  tags: ['Biology', 'Plants'],
  difficulty: 2,
});
const JUDGE = questionOf({ id: 2, type: 'judge', stemText: 'Water boils at 100 °C at sea level.', answer: ['T'], duplicate: true, examCount: 3, difficulty: 5, score: 1.5 });

function stubQuestions(answers: { del?: () => unknown } = {}) {
  return stubRoutes({
    'GET api/questions': () => ({ content: [SINGLE, JUDGE], totalElements: 2 }),
    'GET api/questions/tags': ({ params }) =>
      [
        { name: 'Biology', questionCount: 4 },
        { name: 'Physics', questionCount: 2 },
      ].filter((tag) => tag.name.toLowerCase().includes((params.get('q') ?? '').toLowerCase())),
    'DELETE api/questions': answers.del ?? (() => undefined),
  });
}

function Location() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderPage() {
  return renderWithProviders(
    <MemoryRouter initialEntries={['/exam/question']}>
      <Routes>
        <Route path="/exam/question" element={<QuestionListPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Location />
    </MemoryRouter>,
  );
}

const rowFound = async (text: string) => (await screen.findByText(text, { selector: 'td, td *' })).closest('tr')!;
const findInPopup = async (title: string) => {
  await waitFor(() => expect(screen.getAllByTitle(title).some((element) => element.closest('.ant-select-dropdown'))).toBe(true));
  return screen.getAllByTitle(title).find((element) => element.closest('.ant-select-dropdown'))!;
};
const findDialog = async (text: string) => {
  await waitFor(() => expect(screen.getAllByRole('dialog').some((dialog) => dialog.textContent?.includes(text))).toBe(true));
  return screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes(text))!;
};

describe('QuestionListPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
    vi.mocked(downloadFile).mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('lists the questions with type, stem, difficulty, knowledge points, score, duplicates and exam count', async () => {
    const api = stubQuestions();
    renderPage();
    const single = await rowFound('Which gas do plants take in?');
    expect(within(single).getByText('Single choice')).toBeTruthy();
    expect(within(single).getByText('Easy')).toBeTruthy();
    expect(within(single).getByText('Biology')).toBeTruthy();
    expect(within(single).getByText('Plants')).toBeTruthy();
    expect(within(single).queryByText('Duplicate')).toBeNull();

    const judge = await rowFound('Water boils at 100 °C at sea level.');
    expect(within(judge).getByText('True or false')).toBeTruthy();
    expect(within(judge).getByText('Duplicate')).toBeTruthy();
    expect(within(judge).getByText('Very hard')).toBeTruthy();
    expect(within(judge).getByText('1.5')).toBeTruthy();
    expect(within(judge).getByText('3')).toBeTruthy();

    const first = api.callsTo('GET api/questions')[0]!;
    expect(Object.fromEntries(first.params)).toEqual({ page: '0', size: '10', sort: 'id,desc' });
  });

  it('filters by text, type, difficulty, knowledge point and duplicates, and exports with the same filter', async () => {
    const api = stubQuestions();
    renderPage();
    await rowFound('Which gas do plants take in?');
    fill(screen.getByLabelText('Text in the stem'), 'gas');
    fireEvent.mouseDown(screen.getByLabelText('Type', { selector: 'input' }));
    fireEvent.click(await findInPopup('Multiple choice'));
    fireEvent.mouseDown(screen.getByLabelText('Difficulty', { selector: 'input' }));
    fireEvent.click(await findInPopup('Hard'));
    const tag = screen.getByLabelText('Knowledge point', { selector: 'input' });
    fireEvent.mouseDown(tag);
    fill(tag, 'phy');
    await waitFor(() => expect(api.callsTo('GET api/questions/tags').some((call) => call.params.get('q') === 'phy')).toBe(true));
    fireEvent.click(await findInPopup('Physics (2)'));
    fireEvent.click(screen.getByRole('switch', { name: 'Duplicates only' }));
    clickText('Search');
    await waitFor(() => expect(api.callsTo('GET api/questions').at(-1)?.params.get('q')).toBe('gas'));
    expect(Object.fromEntries(api.callsTo('GET api/questions').at(-1)!.params)).toEqual({
      q: 'gas',
      type: 'multiple',
      difficulty: '4',
      tag: 'Physics',
      duplicate: 'true',
      page: '0',
      size: '10',
      sort: 'id,desc',
    });

    clickText('Export');
    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(1));
    expect(vi.mocked(downloadFile).mock.calls[0]?.slice(0, 3)).toEqual([
      'api/questions/download',
      { q: 'gas', type: 'multiple', difficulty: 4, tag: 'Physics', duplicate: true, sort: ['id,desc'] },
      'questions',
    ]);

    // Switched off, "duplicates only" leaves the filter out.
    fireEvent.click(screen.getByRole('switch', { name: 'Duplicates only' }));
    clickText('Search');
    await waitFor(() => expect(api.callsTo('GET api/questions').at(-1)?.params.has('duplicate')).toBe(false));
  });

  it('opens a row in the editor by its id', async () => {
    stubQuestions();
    renderPage();
    clickText('Edit', await rowFound('Water boils at 100 °C at sea level.'));
    expect(screen.getByTestId('location').textContent).toBe('/edu/edit-question?id=2');
  });

  it('opens the add page from the toolbar', async () => {
    stubQuestions();
    renderPage();
    await rowFound('Which gas do plants take in?');
    clickText('Add');
    expect(screen.getByTestId('location').textContent).toBe('/edu/add-question');
  });

  it('opens the import page from the toolbar', async () => {
    stubQuestions();
    renderPage();
    await rowFound('Which gas do plants take in?');
    clickText('Import');
    expect(screen.getByTestId('location').textContent).toBe('/edu/import-question');
  });

  it('deletes the selected questions after asking', async () => {
    const api = stubQuestions();
    renderPage();
    fireEvent.click(within(await rowFound('Which gas do plants take in?')).getByRole('checkbox'));
    fireEvent.click(within(await rowFound('Water boils at 100 °C at sea level.')).getByRole('checkbox'));
    fireEvent.click(screen.getAllByRole('button', { name: /Delete/ })[0]!);
    const dialog = await findDialog('Delete the 2 selected items?');
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('DELETE api/questions')).toHaveLength(1));
    expect(api.callsTo('DELETE api/questions')[0]?.body).toEqual([1, 2]);
  });

  it('explains a refused delete (a question in an exam’s paper) in a dialog with the server’s words', async () => {
    stubQuestions({ del: () => jsonResponse(409, { status: 409, message: "ids: still in the paper of 'Final exam'", timestamp: 0 }) });
    renderPage();
    clickText('Delete', await rowFound('Water boils at 100 °C at sea level.'));
    clickText('confirm', await findDialog('Delete "#2"?'));
    const refusal = await findDialog('Cannot delete');
    expect(within(refusal).getByText('Some of these questions are in the paper of an exam: take them out of the paper first.')).toBeTruthy();
    expect(within(refusal).getByText("The server said: ids: still in the paper of 'Final exam'")).toBeTruthy();
  });

  it('gives a list-only user no add, import, edit or delete', async () => {
    stubQuestions();
    signInAs(['question:list']);
    renderPage();
    await rowFound('Which gas do plants take in?');
    for (const text of ['Add', 'Import', 'Edit', 'Delete']) expect(screen.queryByText(text)).toBeNull();
    expect(screen.getByText('Export')).toBeTruthy();
  });
});
