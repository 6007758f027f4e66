import type { CertTemplate } from '@cloud-classroom/shared/certificates';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { AUDIT, clickText, signInAs, stubRoutes } from '../../test/page-test-kit';
import CertificateIssuePage from './certificate-issue-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const TEMPLATE: CertTemplate = {
  id: 4,
  name: 'Standard',
  numberPattern: 'CC-{yyyy}-{seq:6}',
  validityMonths: null,
  version: 1,
  layout: { pageSize: 'A4', orientation: 'landscape', backgroundImage: null, fields: [] },
  certificateCount: 0,
  ...AUDIT,
};

const page = <T,>(content: T[]) => ({ content, totalElements: content.length });

const pick = async (label: string, option: string) => {
  fireEvent.mouseDown(await screen.findByLabelText(label, { selector: 'input' }));
  await waitFor(() => expect(screen.getAllByTitle(option).some((element) => element.closest('.ant-select-dropdown'))).toBe(true));
  fireEvent.click(screen.getAllByTitle(option).find((element) => element.closest('.ant-select-dropdown'))!);
};

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/edu/applicant-cert" element={<CertificateIssuePage />} />
      </Routes>
    </MemoryRouter>,
  );
}

function stubIssue() {
  return stubRoutes({
    'GET api/cert-templates': () => page([TEMPLATE]),
    'GET api/exams': () => page([{ id: 7, title: 'Fire drill' }]),
    'GET api/users': () => page([{ id: 8, username: 'gus', nickName: 'Gus Hale' }]),
    'POST api/certificates/issue': () => ({ certificates: [{ id: 31, userId: 8, number: 'CC-2026-000031' }] }),
  });
}

describe('CertificateIssuePage', () => {
  beforeEach(() => {
    stubBrowser(1366);
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('issues the template of the address to chosen people for an exam, and lists the numbers given', async () => {
    const api = stubIssue();
    renderAt('/edu/applicant-cert?template=4');
    expect(await screen.findByTitle('Standard · v1')).toBeTruthy();
    clickText('An exam');
    await pick('Exam', 'Fire drill');
    await pick('People', 'Gus Hale (gus)');
    clickText('Issue');
    await waitFor(() => expect(api.callsTo('POST api/certificates/issue')).toHaveLength(1));
    expect(api.callsTo('POST api/certificates/issue')[0]?.body).toEqual({ templateId: 4, userIds: [8], examId: 7, termId: null, title: null });
    expect(await screen.findByText('1 certificate issued')).toBeTruthy();
    expect(screen.getByText('CC-2026-000031')).toBeTruthy();
  });

  it('asks for a template and people before sending anything', async () => {
    const api = stubIssue();
    renderAt('/edu/applicant-cert');
    await screen.findByText('Issue certificates');
    clickText('Issue');
    // The template and the people each say what they lack.
    await waitFor(() => expect(document.querySelectorAll('.ant-form-item-explain-error')).toHaveLength(2));
    expect(api.callsTo('POST api/certificates/issue')).toHaveLength(0);
  });
});
