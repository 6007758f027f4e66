import type { ExamReport } from '@cloud-classroom/shared/attempts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { clickText, signInAs, stubRoutes } from '../../test/page-test-kit';
import ReportExamPage from './report-exam-page';

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

const REPORT: ExamReport = {
  examId: 7,
  title: 'Fire drill',
  totalScore: 10,
  passScore: 6,
  assigned: 5,
  graded: 3,
  marking: 1,
  inProgress: 1,
  passed: 2,
  passRate: 2 / 3,
  mean: 6.333333,
  median: 7,
  stdDev: 2.054805,
  min: 3.5,
  max: 9,
  histogram: Array.from({ length: 10 }, (_, band) => ({ from: band, to: band + 1, count: band === 3 || band === 7 || band === 9 ? 1 : 0 })),
  questions: [
    {
      questionId: 3,
      type: 'single',
      stemText: 'Where is the exit?',
      maxScore: 2,
      answered: 3,
      facility: 0.6667,
      discrimination: 0.5,
      options: [
        { key: 'A', text: 'The stairs', correct: true, rate: 0.6667 },
        { key: 'B', text: 'The lift', correct: false, rate: 0.3333 },
      ],
      meanSeconds: 41.6,
    },
    { questionId: 9, type: 'short', stemText: 'Why not the lift?', maxScore: 8, answered: 3, facility: 0.5, discrimination: -0.25, options: [], meanSeconds: null },
  ],
  departments: [
    { deptId: 2, deptName: 'Research', graded: 2, passed: 2, mean: 8 },
    { deptId: null, deptName: '', graded: 1, passed: 0, mean: 3.5 },
  ],
  candidates: [
    { attemptId: 11, userId: 5, username: 'ada', nickName: 'Ada', deptName: 'Research', state: 'graded', score: 9, passed: true, submittedAt: '2026-11-26 08:20:00', events: 0 },
    { attemptId: 12, userId: 6, username: 'bob', nickName: 'Bob', deptName: null, state: 'graded', score: 3.5, passed: false, submittedAt: '2026-11-26 08:25:00', events: 4 },
  ],
};

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/edu/report-exam" element={<ReportExamPage />} />
        <Route path="/edu/correct-exam" element={<p>marking page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

/** The statistic card titled `title`. */
const figure = (title: string) => screen.getByText(title, { selector: '.ant-statistic-title' }).closest('.ant-card') as HTMLElement;
/** Its value (antd's Statistic puts a number's decimals in a span of their own). */
const figureValue = (title: string) => figure(title).querySelector('.ant-statistic-content')?.textContent;

describe('ReportExamPage', () => {
  beforeEach(() => {
    stubBrowser(375);
    signInAs(['admin']);
    vi.mocked(downloadFile).mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the figures, the distribution, each question and department, and the candidates', async () => {
    stubRoutes({ 'GET api/exams/7/report': () => REPORT });
    renderAt('/edu/report-exam?exam=7');
    expect(await screen.findByRole('heading', { name: 'Report: Fire drill' })).toBeTruthy();
    expect(screen.getByText('Total 10 · pass 6')).toBeTruthy();
    expect(figureValue('Pass rate')).toBe('66.7%');
    expect(within(figure('Pass rate')).getByText('2 of 3 passed')).toBeTruthy();
    expect(figureValue('Mean')).toBe('6.33');
    expect(figureValue('Median')).toBe('7');
    expect(figureValue('Standard deviation')).toBe('2.05');
    expect(figureValue('Lowest')).toBe('3.5');
    expect(figureValue('Highest')).toBe('9');
    expect(figureValue('Assigned')).toBe('5');

    // The histogram's bars: one person in bands 3, 7 and 9, those at or above the pass mark in another colour.
    const bars = JSON.parse((await screen.findByRole('figure', { name: 'Score distribution' })).textContent ?? '[]') as { value: number; itemStyle: { color: string } }[];
    expect(bars.map((bar) => bar.value)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 1]);
    expect(bars[6]?.itemStyle.color).not.toBe(bars[5]?.itemStyle.color);
    expect(bars[9]?.itemStyle.color).toBe(bars[6]?.itemStyle.color);
    expect((await screen.findByRole('figure', { name: 'Facility' })).textContent).toBe('[66.7,50]');

    const exit = screen.getByText('Where is the exit?').closest('tr') as HTMLElement;
    expect(within(exit).getByText('66.7%')).toBeTruthy();
    expect(within(exit).getByText('0.50')).toBeTruthy();
    expect(within(exit).getByText(/A 66\.7%/).textContent).toContain('✓');
    expect(within(exit).getByText(/B 33\.3%/)).toBeTruthy();
    expect(within(exit).getByText('42 s')).toBeTruthy();
    const flawed = screen.getByText('Why not the lift?').closest('tr') as HTMLElement;
    expect(within(flawed).getByText('-0.25')).toBeTruthy();

    const departments = screen.getByText('By department').closest('.ant-card') as HTMLElement;
    const research = within(departments).getByText('Research').closest('tr') as HTMLElement;
    expect(within(research).getByText('100%')).toBeTruthy();
    expect(within(research).getByText('8.00')).toBeTruthy();
    expect(within(departments).getByText('No department')).toBeTruthy();
    expect((await within(departments).findByRole('figure')).textContent).toBe('[8,3.5]');
    const bob = screen.getByText('(bob)').closest('tr') as HTMLElement;
    expect(within(bob).getByText('Not passed')).toBeTruthy();
    expect(within(bob).getByText('4')).toBeTruthy();
    clickText('Open attempt', bob);
    expect(await screen.findByText('marking page')).toBeTruthy();
  });

  it('regrades after a confirmation, then shows the report again', async () => {
    let regraded = false;
    const api = stubRoutes({
      'GET api/exams/7/report': () => (regraded ? { ...REPORT, mean: 7 } : REPORT),
      'POST api/exams/7/regrade': () => {
        regraded = true;
        return { attempts: 3, answers: 9, changed: 2 };
      },
    });
    renderAt('/edu/report-exam?exam=7');
    await screen.findByRole('heading', { name: 'Report: Fire drill' });
    clickText('Regrade');
    const confirm = await screen.findByRole('tooltip');
    expect(api.callsTo('POST api/exams/7/regrade')).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Regraded 3 attempts and 9 answers; 2 scores changed')).toBeTruthy();
    await waitFor(() => expect(figureValue('Mean')).toBe('7.00'));
    expect(api.callsTo('GET api/exams/7/report')).toHaveLength(2);
  });

  it('exports the report as a spreadsheet named after the exam', async () => {
    stubRoutes({ 'GET api/exams/7/report': () => REPORT });
    renderAt('/edu/report-exam?exam=7');
    await screen.findByRole('heading', { name: 'Report: Fire drill' });
    clickText('Export');
    await waitFor(() => expect(vi.mocked(downloadFile)).toHaveBeenCalledWith('api/exams/7/report/download', {}, 'Fire drill'));
  });

  it('offers neither regrade nor marking to whoever may only list exams', async () => {
    signInAs(['exam:list']);
    stubRoutes({ 'GET api/exams/7/report': () => REPORT });
    renderAt('/edu/report-exam?exam=7');
    await screen.findByRole('heading', { name: 'Report: Fire drill' });
    expect(screen.getByText('Export')).toBeTruthy();
    expect(screen.queryByText('Regrade')).toBeNull();
    expect(screen.queryByText('Mark')).toBeNull();
    expect(screen.queryByText('Open attempt')).toBeNull();
  });
});
