import type { CensusUser } from '@cloud-classroom/shared/census';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { clickText, signInAs, stubRoutes } from '../../test/page-test-kit';
import { downloadFile } from '../../lib/download';
import CensusUserPage from './census-user-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

// jsdom lays nothing out, so ECharts has no size to draw in: the chart (loaded lazily, as in the app) shows what it was given to draw instead.
vi.mock('../../components/chart/chart', () => ({
  Chart: ({ option, label }: { option: { series: { data: unknown[] }[] }; label: string }) => (
    <figure aria-label={label}>{JSON.stringify(option.series[0]?.data)}</figure>
  ),
}));

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

vi.setConfig({ testTimeout: 60_000 });

const RECORD: CensusUser = {
  person: {
    userId: 3,
    username: 'learner1',
    nickName: 'Zhang San',
    deptId: 2,
    deptName: 'Sales',
    studySeconds: 5400,
    coursesEnrolled: 2,
    coursesCompleted: 1,
    examsAttempted: 1,
    examsPassed: 1,
    certificates: 1,
    lastLoginAt: '2026-03-03 08:00:00',
  },
  from: '2026-03-01',
  to: '2026-03-03',
  days: [
    { day: '2026-03-01', seconds: 1800 },
    { day: '2026-03-02', seconds: 0 },
    { day: '2026-03-03', seconds: 3600 },
  ],
  courses: [
    { courseId: 7, title: 'Fire safety', status: 'completed', enrolledAt: '2026-02-01 10:00:00', completedAt: '2026-03-02 16:00:00', percent: 100, completedLessons: 4, requiredLessons: 4 },
    { courseId: 8, title: 'First aid', status: 'in_progress', enrolledAt: '2026-02-10 10:00:00', completedAt: null, percent: 40, completedLessons: 2, requiredLessons: 5 },
  ],
  attempts: [
    { attemptId: 11, examId: 5, examTitle: 'Fire drill', number: 1, state: 'graded', startedAt: '2026-03-03 09:00:00', submittedAt: '2026-03-03 09:20:00', score: 86, totalScore: 100, passed: true },
    { attemptId: 12, examId: 6, examTitle: 'First aid quiz', number: 2, state: 'marking', startedAt: '2026-03-03 10:00:00', submittedAt: '2026-03-03 10:30:00', score: null, totalScore: 50, passed: null },
  ],
  certificates: [{ id: 21, number: 'CC-2026-000021', title: 'Fire safety certificate', issuedAt: '2026-03-02 17:00:00', expiresOn: null, status: 'valid' }],
  logins: [{ at: '2026-03-03 08:00:00', ip: '10.0.0.8', browser: 'Chrome 140' }],
};

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/edu/user-census-detail" element={<CensusUserPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('CensusUserPage', () => {
  beforeEach(() => {
    stubBrowser(1366);
    signInAs(['census:list']);
  });
  afterEach(() => {
    cleanup();
    vi.mocked(downloadFile).mockClear();
    vi.unstubAllGlobals();
  });

  it('shows the person’s figures, study per day, courses, attempts, certificates and logins', async () => {
    const api = stubRoutes({ 'GET api/census/users/3': () => RECORD });
    renderAt('/edu/user-census-detail?id=3');
    expect(await screen.findByText('Zhang San (learner1)')).toBeTruthy();
    // The server's default range, asked without one.
    expect(api.callsTo('GET api/census/users/3')[0]?.params.toString()).toBe('');
    expect(screen.getByText('2026-03-01 to 2026-03-03')).toBeTruthy();
    expect(screen.getByText('1 h 30 min')).toBeTruthy();
    expect((await screen.findByRole('figure', { name: 'Study time per day' })).textContent).toBe('[30,0,60]');

    const fire = screen.getByText('Fire safety', { selector: 'td, td *' }).closest('tr')!;
    expect(within(fire).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(within(fire).getByText('2026-03-02 16:00:00')).toBeTruthy();
    const aid = screen.getByText('First aid').closest('tr')!;
    expect(within(aid).getByText('40%')).toBeTruthy();
    expect(within(aid).getByText('In progress')).toBeTruthy();

    const drill = screen.getByText('Fire drill').closest('tr')!;
    expect(within(drill).getByText('86 / 100')).toBeTruthy();
    expect(within(drill).getByText('Passed')).toBeTruthy();
    expect(within(screen.getByText('First aid quiz').closest('tr')!).getByText('Awaiting marking')).toBeTruthy();

    expect(screen.getByRole('link', { name: 'CC-2026-000021' }).getAttribute('href')).toBe('/api/certificates/21/pdf');
    expect(screen.getByText('10.0.0.8')).toBeTruthy();
  });

  it('exports the record of the days shown', async () => {
    stubRoutes({ 'GET api/census/users/3': () => RECORD });
    renderAt('/edu/user-census-detail?id=3');
    await screen.findByText('Zhang San (learner1)');
    clickText('Export');
    await waitFor(() =>
      expect(vi.mocked(downloadFile)).toHaveBeenCalledWith('api/census/users/3/download', { from: '2026-03-01', to: '2026-03-03' }, 'Learner record-Zhang San'),
    );
  });

  it('asks for the days picked, and exports those', async () => {
    const api = stubRoutes({
      'GET api/census/users/3': (call) => ({ ...RECORD, from: call.params.get('from') ?? RECORD.from, to: call.params.get('to') ?? RECORD.to }),
    });
    renderAt('/edu/user-census-detail?id=3');
    await screen.findByText('Zhang San (learner1)');
    const [start, end] = screen.getAllByPlaceholderText(/date/);
    fireEvent.mouseDown(start!);
    fireEvent.change(start!, { target: { value: '2026-02-01' } });
    fireEvent.keyDown(start!, { key: 'Enter', code: 'Enter' });
    fireEvent.change(end!, { target: { value: '2026-02-28' } });
    fireEvent.keyDown(end!, { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(api.callsTo('GET api/census/users/3').at(-1)?.params.toString()).toBe('from=2026-02-01&to=2026-02-28'));
    clickText('Export');
    await waitFor(() =>
      expect(vi.mocked(downloadFile)).toHaveBeenCalledWith('api/census/users/3/download', { from: '2026-02-01', to: '2026-02-28' }, 'Learner record-Zhang San'),
    );
  });

  it('says so when the address names nobody', async () => {
    stubRoutes({});
    renderAt('/edu/user-census-detail?id=abc');
    expect(await screen.findByText('The address names no valid learner')).toBeTruthy();
  });
});
