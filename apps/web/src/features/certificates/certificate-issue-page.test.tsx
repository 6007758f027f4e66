import type { Applicant } from '@cloud-classroom/shared/applicants';
import type { CertTemplate } from '@cloud-classroom/shared/certificates';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
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
  // A term's select opens once its course is chosen.
  await waitFor(() => expect(screen.getByLabelText(label, { selector: 'input' }).closest('.ant-select-disabled')).toBeNull());
  fireEvent.mouseDown(screen.getByLabelText(label, { selector: 'input' }));
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

const applicant = (fields: Partial<Applicant> & Pick<Applicant, 'id' | 'userId' | 'username' | 'nickName' | 'status'>): Applicant => ({
  termId: 11,
  termName: 'Spring 2026',
  courseId: 1,
  courseTitle: 'Fire safety',
  deptName: 'Training',
  source: 'staff',
  ruleId: null,
  dueAt: null,
  overdue: false,
  reason: null,
  percent: 0,
  completedAt: null,
  ...AUDIT,
  ...fields,
});
const APPLICANTS = [
  applicant({ id: 51, userId: 8, username: 'gus', nickName: 'Gus Hale', status: 'completed', percent: 100, completedAt: '2026-03-20 10:00:00' }),
  applicant({ id: 52, userId: 9, username: 'ivy', nickName: 'Ivy Moss', status: 'in_progress', percent: 40 }),
  applicant({ id: 53, userId: 10, username: 'jo', nickName: 'Jo Park', status: 'completed', percent: 100, completedAt: '2026-03-21 10:00:00' }),
  applicant({ id: 54, userId: 11, username: 'kai', nickName: 'Kai Lee', status: 'applied' }),
];

function stubIssue() {
  return stubRoutes({
    'GET api/cert-templates': () => page([TEMPLATE]),
    'GET api/courses': () => page([{ id: 1, title: 'Fire safety' }]),
    'GET api/terms': () => page([{ id: 11, courseId: 1, name: 'Spring 2026' }]),
    'GET api/applicants': () => page(APPLICANTS),
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
    expect(api.callsTo('POST api/certificates/issue')[0]?.body).toEqual({ templateId: 4, userIds: [8], examId: 7, termId: null, title: null, reissue: false });
    expect(await screen.findByText('1 certificate issued')).toBeTruthy();
    expect(screen.getByText('CC-2026-000031')).toBeTruthy();
  });

  it('issues for a term to its applicants picked from a table: all completed, plus one more, as applicantIds', async () => {
    const api = stubIssue();
    renderAt('/edu/applicant-cert?template=4');
    expect(await screen.findByTitle('Standard · v1')).toBeTruthy();
    clickText('A term');
    await pick('Course', 'Fire safety');
    expect(await screen.findByText('Choose the term first')).toBeTruthy();
    await pick('Term', 'Spring 2026');
    const row = async (name: string) => (await screen.findByText(name, { selector: 'td, td *' })).closest('tr')!;
    // Someone who only applied cannot be given one: the server issues to enrolled applicants alone.
    expect((within(await row('Kai Lee')).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
    expect(api.callsTo('GET api/applicants')[0]?.params.get('termId')).toBe('11');

    clickText('Select all completed');
    expect(await screen.findByText('2 chosen')).toBeTruthy();
    fireEvent.click(within(await row('Ivy Moss')).getByRole('checkbox'));
    expect(await screen.findByText('3 chosen')).toBeTruthy();
    clickText('Issue');
    await waitFor(() => expect(api.callsTo('POST api/certificates/issue')).toHaveLength(1));
    expect(api.callsTo('POST api/certificates/issue')[0]?.body).toEqual({ templateId: 4, applicantIds: [51, 53, 52], examId: null, termId: 11, title: null, reissue: false });
    expect(await screen.findByText('1 certificate issued')).toBeTruthy();
    // Issued: the choice starts over.
    expect(await screen.findByText('0 chosen')).toBeTruthy();
  });

  it('issues for a term to people chosen by hand when asked to, re-issuing to holders when ticked', async () => {
    const api = stubIssue();
    renderAt('/edu/applicant-cert?template=4');
    expect(await screen.findByTitle('Standard · v1')).toBeTruthy();
    clickText('A term');
    await pick('Course', 'Fire safety');
    await pick('Term', 'Spring 2026');
    clickText('People chosen by hand');
    await pick('People', 'Gus Hale (gus)');
    clickText('Re-issue to holders');
    clickText('Issue');
    await waitFor(() => expect(api.callsTo('POST api/certificates/issue')).toHaveLength(1));
    expect(api.callsTo('POST api/certificates/issue')[0]?.body).toEqual({ templateId: 4, userIds: [8], examId: null, termId: 11, title: null, reissue: true });
  });

  it('picks people by hand for a term when the issuer may not list its applicants', async () => {
    const api = stubIssue();
    signInAs(['cert:issue', 'course:list', 'user:list']);
    renderAt('/edu/applicant-cert?template=4');
    expect(await screen.findByTitle('Standard · v1')).toBeTruthy();
    clickText('A term');
    await pick('Course', 'Fire safety');
    await pick('Term', 'Spring 2026');
    expect(screen.queryByText('The term’s applicants')).toBeNull();
    await pick('People', 'Gus Hale (gus)');
    clickText('Issue');
    await waitFor(() => expect(api.callsTo('POST api/certificates/issue')).toHaveLength(1));
    expect(api.callsTo('POST api/certificates/issue')[0]?.body).toEqual({ templateId: 4, userIds: [8], examId: null, termId: 11, title: null, reissue: false });
    expect(api.callsTo('GET api/applicants')).toHaveLength(0);
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
