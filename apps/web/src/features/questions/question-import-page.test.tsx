import type { ImportResult } from '@cloud-classroom/shared/applicants';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { configureHttpClient } from '../../lib/http-client';
import { clickText, signInAs, stubRoutes } from '../../test/page-test-kit';
import QuestionImportPage from './question-import-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

vi.setConfig({ testTimeout: 60_000 });

const xlsx = (name: string) => new File(['PK'], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

const BAD: ImportResult = {
  total: 5,
  valid: 3,
  created: 0,
  errors: [
    { row: 3, column: 'answer', message: '[单选题] E, F is not among the options' },
    { row: 7, column: 'stem', message: '[多选题] is required' },
    { row: 8, column: 'difficulty', message: '[多选题] expected a whole number from 1 to 5' },
  ],
  rows: [],
  examples: [],
};
const CLEAN: ImportResult = {
  total: 5,
  valid: 5,
  created: 0,
  errors: [],
  rows: [3, 4, 5, 6, 7].map((row) => ({ sheet: '单选题', row, type: 'single', text: `Question ${row}` })),
  examples: [],
};
/** The template of every type, filled in on its single-choice and judgement sheets. */
const PLANNED: ImportResult = {
  total: 3,
  valid: 3,
  created: 0,
  errors: [],
  rows: [
    { sheet: '单选题', row: 4, type: 'single', text: '灭火器压力表指针在绿区表示？' },
    { sheet: '单选题', row: 5, type: 'single', text: '安全出口的标志是什么颜色？' },
    { sheet: '判断题', row: 4, type: 'judge', text: '烟雾向上飘。' },
  ],
  examples: ['单选题', '多选题', '判断题', '填空题', '简答题'].map((sheet) => ({ sheet, row: 3 })),
};

function stubImport(answer: (dryRun: boolean, name: string) => unknown) {
  return stubRoutes({
    'POST api/questions/import': ({ params, body }) => answer(params.get('dryRun') === 'true', ((body as FormData).get('file') as File).name),
  });
}

function renderPage() {
  return renderWithProviders(
    <MemoryRouter initialEntries={['/edu/import-question']}>
      <Routes>
        <Route path="/edu/import-question" element={<QuestionImportPage />} />
        <Route path="/exam/question" element={<p>the question bank</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

// The upload remakes its input after each file: find it afresh every time.
const choose = (file: File) => fireEvent.change(document.querySelector<HTMLInputElement>('input[type=file]')!, { target: { files: [file] } });
const importButton = () => screen.getByRole('button', { name: /^Import( \d+ questions?)?$/ });

describe('QuestionImportPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
    vi.mocked(downloadFile).mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('downloads the template of every type, or of one type', async () => {
    stubImport(() => CLEAN);
    renderPage();
    clickText('All types');
    clickText('Fill in the blanks');
    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(2));
    expect(vi.mocked(downloadFile).mock.calls.map((call) => call.slice(0, 3))).toEqual([
      ['api/questions/template', {}, 'questions-template'],
      ['api/questions/template', { type: 'blank' }, 'questions-template-Fill in the blanks'],
    ]);
  });

  it('offers the import only for a file with questions', async () => {
    stubImport(() => ({ total: 0, valid: 0, created: 0, errors: [], rows: [], examples: [{ sheet: '单选题', row: 3 }] }));
    renderPage();
    choose(xlsx('empty.xlsx'));
    expect(await screen.findByText('The file has no questions')).toBeTruthy();
    // The template sent back as it came: its example is no question.
    expect(within(screen.getByRole('region', { name: '单选题: 0 rows to import' })).getByText('Example row 3, not imported')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import' }).hasAttribute('disabled')).toBe(true);
  });

  it('checks an upload, lists every bad row, and offers the import only for a clean file', async () => {
    const api = stubImport((dryRun, name) => (name === 'bad.xlsx' ? BAD : { ...CLEAN, created: dryRun ? 0 : 5 }));
    renderPage();
    expect(screen.getByText(/all or nothing: while any row has an error, nothing is imported/)).toBeTruthy();
    expect(importButton().hasAttribute('disabled')).toBe(true);

    choose(xlsx('bad.xlsx'));
    expect(await screen.findByText('bad.xlsx: 5 rows, 3 valid')).toBeTruthy();
    expect(screen.getByText('3 errors: correct the sheet and upload it again')).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    // The shape rule's sentences in the page's words; others as the server wrote them.
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['3', 'answer', '[单选题] E, F is not among the options'],
      ['7', 'stem', '[多选题] Required'],
      ['8', 'difficulty', '[多选题] expected a whole number from 1 to 5'],
    ]);
    // Three rows are fine, but the server writes nothing while one is bad: no partial import.
    expect(importButton().hasAttribute('disabled')).toBe(true);
    expect(api.callsTo('POST api/questions/import').map((call) => call.params.get('dryRun'))).toEqual(['true']);

    choose(xlsx('good.xlsx'));
    expect(await screen.findByText('No errors: ready to import')).toBeTruthy();
    expect(screen.queryByText('[单选题] E, F is not among the options')).toBeNull();
    await waitFor(() => expect(importButton().hasAttribute('disabled')).toBe(false));
    expect(importButton().textContent).toBe('Import 5 questions');
    fireEvent.click(importButton());
    await waitFor(() => expect(api.callsTo('POST api/questions/import')).toHaveLength(3));
    const run = api.callsTo('POST api/questions/import')[2]!;
    expect(run.params.get('dryRun')).toBe('false');
    expect(((run.body as FormData).get('file') as File).name).toBe('good.xlsx');

    expect((await screen.findAllByText('Imported 5 questions')).length).toBeGreaterThan(0);
    clickText('Go to the question bank');
    expect(await screen.findByText('the question bank')).toBeTruthy();
  });

  it('lists what a clean file will create, sheet by sheet, and the example rows it leaves out', async () => {
    stubImport(() => PLANNED);
    renderPage();
    choose(xlsx('filled.xlsx'));
    expect(await screen.findByText('filled.xlsx: 3 rows, 3 valid')).toBeTruthy();
    const sheet = (name: string) => screen.getByRole('region', { name });
    const listed = (name: string) =>
      within(sheet(name))
        .queryAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(screen.getAllByRole('region').map((region) => region.getAttribute('aria-label'))).toEqual([
      '单选题: 2 rows to import',
      '多选题: 0 rows to import',
      '判断题: 1 row to import',
      '填空题: 0 rows to import',
      '简答题: 0 rows to import',
    ]);
    expect(listed('单选题: 2 rows to import')).toEqual([
      ['4', 'Single choice', '灭火器压力表指针在绿区表示？'],
      ['5', 'Single choice', '安全出口的标志是什么颜色？'],
    ]);
    expect(listed('判断题: 1 row to import')).toEqual([['4', 'True or false', '烟雾向上飘。']]);
    expect(listed('多选题: 0 rows to import')).toEqual([]);
    for (const name of ['单选题: 2 rows to import', '多选题: 0 rows to import', '判断题: 1 row to import']) {
      expect(within(sheet(name)).getByText('Example row 3, not imported')).toBeTruthy();
    }
    expect(importButton().textContent).toBe('Import 3 questions');
  });

  it('shows the errors the import itself found (the bank changed since the check), having written nothing', async () => {
    stubImport((dryRun) => (dryRun ? CLEAN : { ...BAD, total: 5, valid: 4, errors: [{ row: 4, column: 'stem', message: 'stem: the same question is in the bank' }] }));
    renderPage();
    choose(xlsx('good.xlsx'));
    await waitFor(() => expect(importButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(importButton());
    expect(await screen.findByText(/failed the check again at import: nothing was imported/)).toBeTruthy();
    expect(screen.getByText('stem: the same question is in the bank')).toBeTruthy();
    expect(importButton().hasAttribute('disabled')).toBe(true);
  });

  it('refuses a file that is not .xlsx before sending it, and shows a refusal of the upload', async () => {
    const api = stubImport(() => jsonResponse(400, { status: 400, message: 'file: not a workbook', timestamp: 0 }));
    const notified = vi.fn<(message: string) => void>();
    configureHttpClient({ notifyError: notified });
    renderPage();
    choose(new File(['a,b'], 'questions.csv', { type: 'text/csv' }));
    expect(await screen.findByText('Only .xlsx files can be imported')).toBeTruthy();
    expect(api.callsTo('POST api/questions/import')).toHaveLength(0);

    choose(xlsx('broken.xlsx'));
    try {
      await waitFor(() => expect(notified).toHaveBeenCalledWith('file: not a workbook'));
      expect(importButton().hasAttribute('disabled')).toBe(true);
    } finally {
      configureHttpClient({ notifyError: () => {} });
    }
  });
});
