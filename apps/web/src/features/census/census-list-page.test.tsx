import type { CensusRow } from '@cloud-classroom/shared/census';
import type { Dept } from '@cloud-classroom/shared/depts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import CensusListPage from './census-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const row = (userId: number, patch: Partial<CensusRow> = {}): CensusRow => ({
  userId,
  username: `learner${userId}`,
  nickName: `Learner ${userId}`,
  deptId: 2,
  deptName: 'Sales',
  studySeconds: 5400,
  coursesEnrolled: 3,
  coursesCompleted: 1,
  examsAttempted: 2,
  examsPassed: 1,
  certificates: 1,
  lastLoginAt: '2026-03-01 09:00:00',
  ...patch,
});

const dept = (id: number, name: string): Dept =>
  ({ id, name, pid: null, deptSort: id, enabled: true, hasChildren: false, subCount: 0, ...AUDIT }) as unknown as Dept;

const findInPopup = async (title: string) => {
  await waitFor(() => expect(screen.getAllByTitle(title).some((element) => element.closest('.ant-select-dropdown, .ant-select-tree'))).toBe(true));
  return screen.getAllByTitle(title).find((element) => element.closest('.ant-select-dropdown, .ant-select-tree'))!;
};

function Address() {
  const location = useLocation();
  return <p>record page {location.search}</p>;
}

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/course/census" element={<CensusListPage />} />
        <Route path="/edu/user-census-detail" element={<Address />} />
      </Routes>
    </MemoryRouter>,
  );
}

const stubCensus = () =>
  stubRoutes({
    'GET api/census/users': () => ({ content: [row(3), row(4, { lastLoginAt: null, studySeconds: 600 })], totalElements: 2 }),
    'GET api/dept': () => ({ content: [dept(2, 'Sales'), dept(6, 'Support')], totalElements: 2 }),
    'GET api/courses': () => ({ content: [{ id: 7, title: 'Fire safety' }], totalElements: 1 }),
  });

describe('CensusListPage', () => {
  beforeEach(() => {
    stubBrowser(1366);
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows each person’s figures, and sends the keyword, department and course to the server', async () => {
    const api = stubCensus();
    renderAt('/course/census');
    const first = (await screen.findByRole('link', { name: 'learner3' })).closest('tr')!;
    expect(within(first).getByText('1 h 30 min')).toBeTruthy();
    expect(within(first).getByText('Sales')).toBeTruthy();
    const second = screen.getByRole('link', { name: 'learner4' }).closest('tr')!;
    expect(within(second).getByText('10 min')).toBeTruthy();
    expect(within(second).getByText('Never')).toBeTruthy();

    fill(screen.getByLabelText('Search by username or name'), 'zhang');
    fireEvent.mouseDown(screen.getByLabelText('All departments', { selector: 'input' }));
    fireEvent.click(await findInPopup('Support'));
    fireEvent.mouseDown(screen.getByLabelText('Course', { selector: 'input' }));
    fireEvent.click(await findInPopup('Fire safety'));
    clickText('Search');

    await waitFor(() => expect(api.callsTo('GET api/census/users').some((call) => call.params.get('blurry') === 'zhang')).toBe(true));
    const sent = api.callsTo('GET api/census/users').at(-1)!.params;
    expect(sent.get('deptId')).toBe('6');
    expect(sent.get('courseId')).toBe('7');
    expect(sent.get('page')).toBe('0');
    expect(sent.has('days')).toBe(false);
  });

  it('sends the chosen days as from and to', async () => {
    const api = stubCensus();
    renderAt('/course/census');
    await screen.findByRole('link', { name: 'learner3' });
    const [start, end] = screen.getAllByPlaceholderText(/date/);
    fireEvent.mouseDown(start!);
    fireEvent.change(start!, { target: { value: '2026-03-01' } });
    fireEvent.keyDown(start!, { key: 'Enter', code: 'Enter' });
    fireEvent.change(end!, { target: { value: '2026-03-31' } });
    fireEvent.keyDown(end!, { key: 'Enter', code: 'Enter' });
    clickText('Search');
    await waitFor(() => expect(api.callsTo('GET api/census/users').some((call) => call.params.get('from') === '2026-03-01')).toBe(true));
    const sent = api.callsTo('GET api/census/users').at(-1)!.params;
    expect(sent.get('to')).toBe('2026-03-31');
    expect(sent.has('days')).toBe(false);
  });

  it('sorts by a figure on the server', async () => {
    const api = stubCensus();
    renderAt('/course/census');
    await screen.findByRole('link', { name: 'learner3' });
    fireEvent.click(screen.getAllByText('Study time').find((element) => element.closest('th'))!);
    await waitFor(() => expect(api.callsTo('GET api/census/users').some((call) => call.params.get('sort') === 'studySeconds,desc')).toBe(true));
  });

  it('opens the person’s record from their name', async () => {
    stubCensus();
    renderAt('/course/census');
    fireEvent.click(await screen.findByRole('link', { name: 'Learner 4' }));
    expect(await screen.findByText('record page ?id=4')).toBeTruthy();
  });
});
