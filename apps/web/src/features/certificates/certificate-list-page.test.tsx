import type { Certificate, CertTemplate } from '@cloud-classroom/shared/certificates';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import CertificateListPage from './certificate-list-page';
import TemplateListPage from './template-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const certificate = (id: number, patch: Partial<Certificate> = {}): Certificate => ({
  id,
  number: `CC-2026-00000${id}`,
  code: 'abcdefabcdef',
  userId: 3,
  username: 'learner1',
  holderName: '张三',
  title: 'Fire safety',
  score: '92',
  issuedOn: '2026-03-01',
  expiresOn: null,
  status: 'valid',
  source: 'staff',
  templateId: 1,
  templateName: 'Standard',
  templateVersion: 2,
  examId: null,
  termId: null,
  issuedAt: '2026-03-01 10:00:00',
  expiresAt: null,
  revokedAt: null,
  revokedBy: null,
  revokeReason: null,
  supersededBy: null,
  supersedes: null,
  createBy: 'admin',
  createTime: '2026-03-01 10:00:00',
  ...patch,
});

const TEMPLATE: CertTemplate = {
  id: 1,
  name: 'Standard',
  numberPattern: 'CC-{yyyy}-{seq:6}',
  validityMonths: 24,
  version: 2,
  layout: { pageSize: 'A4', orientation: 'landscape', backgroundImage: null, fields: [] },
  certificateCount: 5,
  ...AUDIT,
};

const page = <T,>(content: T[]) => ({ content, totalElements: content.length });

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/cert/certificate" element={<CertificateListPage />} />
        <Route path="/cert/template" element={<TemplateListPage />} />
        <Route path="/edu/preview-cert" element={<p>preview page</p>} />
        <Route path="/edu/import-cert" element={<p>import page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('CertificateListPage', () => {
  beforeEach(() => {
    stubBrowser(1366);
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists certificates with their status and PDF link, and revokes one with a reason', async () => {
    const api = stubRoutes({
      'GET api/certificates': () => page([certificate(1), certificate(2, { status: 'revoked', revokedAt: '2026-03-02 10:00:00' })]),
      'GET api/cert-templates': () => page([TEMPLATE]),
      'PUT api/certificates/revoke': () => undefined,
    });
    renderAt('/cert/certificate');
    const link = await screen.findByRole('link', { name: 'CC-2026-000001' });
    expect(link.getAttribute('href')).toBe('/api/certificates/1/pdf');
    expect(screen.getByText('Revoked')).toBeTruthy();
    // A revoked certificate offers no second revoke.
    expect(screen.getAllByRole('button', { name: /Revoke/ })).toHaveLength(1);

    clickText('Revoke');
    const dialog = await screen.findByRole('dialog');
    // The buttons say what they do, capitalised as every English button is (not the shared 'confirm'/'cancel').
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual(expect.arrayContaining(['Cancel', 'Revoke']));
    expect(within(dialog).queryByRole('button', { name: /^(confirm|cancel)$/ })).toBeNull();
    fill(within(dialog).getByLabelText('Reason for revoking'), 'Score annulled');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(api.callsTo('PUT api/certificates/revoke')).toHaveLength(1));
    expect(api.callsTo('PUT api/certificates/revoke')[0]?.body).toEqual({ ids: [1], reason: 'Score annulled' });
  });

  it('re-issues under a corrected name', async () => {
    const api = stubRoutes({
      'GET api/certificates': () => page([certificate(1)]),
      'GET api/cert-templates': () => page([TEMPLATE]),
      'POST api/certificates/1/reissue': () => ({ id: 9, number: 'CC-2026-000009' }),
    });
    renderAt('/cert/certificate');
    await screen.findByRole('link', { name: 'CC-2026-000001' });
    clickText('Re-issue');
    const dialog = await screen.findByRole('dialog');
    fill(within(dialog).getByLabelText('Name to print'), '张叁');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Re-issue' }));
    await waitFor(() => expect(api.callsTo('POST api/certificates/1/reissue')).toHaveLength(1));
    expect(api.callsTo('POST api/certificates/1/reissue')[0]?.body).toEqual({ holderName: '张叁' });
    expect(await screen.findByText('Re-issued as CC-2026-000009')).toBeTruthy();
  });

  it('hides revoking and re-issuing from who may only look', async () => {
    signInAs(['cert:list']);
    stubRoutes({ 'GET api/certificates': () => page([certificate(1)]), 'GET api/cert-templates': () => page([TEMPLATE]) });
    renderAt('/cert/certificate');
    await screen.findByRole('link', { name: 'CC-2026-000001' });
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Re-issue/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Issue certificates/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Import$/ })).toBeNull();
    // Looking includes taking the PDFs away.
    expect(screen.getByRole('link', { name: /Download ZIP/ })).toBeTruthy();
  });

  it('downloads the ZIP of what the filter finds, by a link carrying the filter and sort', async () => {
    const api = stubRoutes({
      'GET api/certificates': ({ params }) => (params.get('q') === 'learner' ? { content: [certificate(1), certificate(2)], totalElements: 12 } : page([certificate(1)])),
      'GET api/cert-templates': () => page([TEMPLATE]),
    });
    renderAt('/cert/certificate');
    await screen.findByRole('link', { name: 'CC-2026-000001' });
    fill(screen.getByLabelText('Number, name or account'), 'learner');
    clickText('Search');
    await waitFor(() => expect(api.callsTo('GET api/certificates').some((call) => call.params.get('q') === 'learner')).toBe(true));
    const zip = await screen.findByRole('link', { name: /Download ZIP/ });
    await waitFor(() => expect(zip.getAttribute('href')).toBe('/api/certificates/download?q=learner&sort=id%2Cdesc'));
    // Every certificate the filter finds, not the page shown: the list's total.
    fireEvent.mouseEnter(zip);
    expect(await screen.findByText('The PDFs of the 12 certificates the list finds, in a ZIP')).toBeTruthy();
  });

  it('offers no ZIP of an empty list, and opens the import', async () => {
    stubRoutes({ 'GET api/certificates': () => page([]), 'GET api/cert-templates': () => page([TEMPLATE]) });
    renderAt('/cert/certificate');
    const zip = await screen.findByRole('button', { name: /Download ZIP/ });
    await waitFor(() => expect(zip.hasAttribute('disabled')).toBe(true));
    clickText('Import');
    expect(await screen.findByText('import page')).toBeTruthy();
  });
});

describe('TemplateListPage', () => {
  beforeEach(() => {
    stubBrowser(1366);
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists templates with their pattern, validity, page and version, and opens the preview', async () => {
    stubRoutes({ 'GET api/cert-templates': () => page([TEMPLATE]) });
    renderAt('/cert/template');
    expect(await screen.findByText('CC-{yyyy}-{seq:6}')).toBeTruthy();
    expect(screen.getByText('24 months')).toBeTruthy();
    expect(screen.getByText('A4 · Landscape')).toBeTruthy();
    expect(screen.getByText('v2')).toBeTruthy();
    clickText('Preview');
    expect(await screen.findByText('preview page')).toBeTruthy();
  });
});
