import type { ImportResult } from '@cloud-classroom/shared/applicants';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { clickText, signInAs, stubRoutes } from '../../test/page-test-kit';
import CertificateImportPage from './certificate-import-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

vi.setConfig({ testTimeout: 60_000 });

const xlsx = (name: string) => new File(['PK'], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

const BAD: ImportResult = {
  total: 3,
  valid: 1,
  created: 0,
  errors: [
    { row: 3, column: 'number', message: "'FS-2019-00012' is already listed in row 2" },
    { row: 4, column: 'number', message: "a certificate numbered 'FS-2019-00001' exists already" },
    { row: 4, column: 'issuedOn', message: "expected 'yyyy-MM-dd'" },
    { row: 4, column: 'title', message: 'at most 200 characters' },
  ],
  rows: [],
  examples: [],
};
const CLEAN: ImportResult = {
  total: 2,
  valid: 2,
  created: 0,
  errors: [],
  rows: [
    { sheet: '证书导入模板', row: 3, type: null, text: 'FS-2019-00012 learner1' },
    { sheet: '证书导入模板', row: 4, type: null, text: 'FS-2019-00013 learner3' },
  ],
  examples: [{ sheet: '证书导入模板', row: 2 }],
};

function stubImport(answer: (dryRun: boolean, name: string) => unknown) {
  return stubRoutes({
    'POST api/certificates/import': ({ params, body }) => answer(params.get('dryRun') === 'true', ((body as FormData).get('file') as File).name),
  });
}

function renderPage() {
  return renderWithProviders(
    <MemoryRouter initialEntries={['/edu/import-cert']}>
      <Routes>
        <Route path="/edu/import-cert" element={<CertificateImportPage />} />
        <Route path="/cert/certificate" element={<p>the certificate list</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

// The upload remakes its input after each file: find it afresh every time.
const choose = (file: File) => fireEvent.change(document.querySelector<HTMLInputElement>('input[type=file]')!, { target: { files: [file] } });
const importButton = () => screen.getByRole('button', { name: /^Import( \d+ certificates?)?$/ });

describe('CertificateImportPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['cert:issue']);
    vi.mocked(downloadFile).mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('downloads the template', async () => {
    stubImport(() => CLEAN);
    renderPage();
    clickText('Download the template');
    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(1));
    expect(vi.mocked(downloadFile).mock.calls[0]?.slice(0, 3)).toEqual(['api/certificates/template', {}, 'certificates-template']);
  });

  it('lists the dry run’s errors (duplicate numbers among them) and offers no import while there are any', async () => {
    const api = stubImport(() => BAD);
    renderPage();
    choose(xlsx('legacy.xlsx'));
    expect(await screen.findByText('legacy.xlsx: 3 rows, 1 valid')).toBeTruthy();
    expect(screen.getByText('4 errors: correct the sheet and upload it again')).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    // The server's sentences in the page's words, values kept; one it does not know as written.
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['3', 'number', '“FS-2019-00012” is already listed in row 2'],
      ['4', 'number', 'A certificate numbered “FS-2019-00001” exists already'],
      ['4', 'issuedOn', 'Write the date as yyyy-MM-dd'],
      ['4', 'title', 'at most 200 characters'],
    ]);
    expect(importButton().hasAttribute('disabled')).toBe(true);
    expect(api.callsTo('POST api/certificates/import').map((call) => call.params.get('dryRun'))).toEqual(['true']);
  });

  it('imports a clean file for real (dryRun=false), says how many, and links back to the list', async () => {
    const api = stubImport((dryRun) => ({ ...CLEAN, created: dryRun ? 0 : 2 }));
    renderPage();
    choose(xlsx('legacy.xlsx'));
    expect(await screen.findByText('No errors: ready to import')).toBeTruthy();
    await waitFor(() => expect(importButton().hasAttribute('disabled')).toBe(false));
    expect(importButton().textContent).toBe('Import 2 certificates');
    fireEvent.click(importButton());
    await waitFor(() => expect(api.callsTo('POST api/certificates/import')).toHaveLength(2));
    const [check, run] = api.callsTo('POST api/certificates/import');
    expect(check?.params.get('dryRun')).toBe('true');
    expect(run?.params.get('dryRun')).toBe('false');
    expect(((run?.body as FormData).get('file') as File).name).toBe('legacy.xlsx');

    expect((await screen.findAllByText('Imported 2 certificates')).length).toBeGreaterThan(0);
    clickText('See the certificates');
    expect(await screen.findByText('the certificate list')).toBeTruthy();
  });

  it('says so to who may not issue certificates, before any sheet is filled in', () => {
    signInAs(['cert:list']);
    renderPage();
    expect(screen.getByText(/You may not import certificates/)).toBeTruthy();
    expect(document.querySelector('input[type=file]')).toBeNull();
  });
});
