import type { TrainingDashboard } from '@cloud-classroom/shared/dashboard';
import type { User } from '@cloud-classroom/shared/users';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '../../components/list-page/list-page-test-kit';
import { useUserStore } from '../auth/user-store';
import { useSelectedCourseStore } from '../courses/selected-course-store';
import DashboardPage from './dashboard-page';

// Feature bundles join i18next when their module loads, so it must be running before the page is imported.
await vi.hoisted(async () => {
  const { initI18n } = await import('../../lib/i18n');
  await initI18n('en-US');
});

// jsdom lays nothing out, so ECharts has no size to draw in: the chart (loaded lazily, as in the app) shows what it was given to draw instead.
vi.mock('../../components/chart/chart', () => ({
  Chart: ({ option, label }: { option: { series: { data: unknown[] }[] }; label: string }) => (
    <figure aria-label={label}>{JSON.stringify(option.series.map((series) => series.data))}</figure>
  ),
}));

const me: User = {
  id: 1,
  username: 'admin',
  nickName: 'Ada Admin',
  gender: '女',
  phone: '18888888888',
  email: 'admin@example.com',
  avatarName: null,
  enabled: true,
  pwdResetTime: null,
  dept: { id: 1, name: 'Training' },
  roles: [{ id: 1, name: 'Administrators', level: 1, dataScope: '全部' }],
  createBy: null,
  updateBy: null,
  createTime: '2026-01-01 09:00:00',
  updateTime: '2026-01-01 09:00:00',
};

const log = (id: number, description: string, username: string, status = 200) => ({
  id,
  username,
  description,
  method: 'PUT /api/users',
  params: null,
  logType: 'INFO',
  status,
  requestIp: '10.0.0.7',
  browser: 'Chrome 130',
  time: 12,
  createTime: '2026-01-01 09:00:00',
});

const monitor = {
  sys: { os: 'Linux', day: '1d 2h', ip: '10.0.0.1' },
  cpu: { name: 'Xeon', package: 1, core: 4, coreNumber: 4, logic: 8, used: '37.5', idle: '62.5' },
  memory: { total: '8 GiB', available: '2 GiB', used: '6 GiB', usageRate: '75.0' },
  swap: { total: '0 B', available: '0 B', used: '0 B', usageRate: '0' },
  disk: { total: '100 GiB', available: '5 GiB', used: '95 GiB', usageRate: '95.0' },
  process: { pid: 42, uptime: '3h 4m', rss: '120 MiB', heapUsed: '60 MiB', nodeVersion: 'v20.19.0' },
  database: { dialect: 'sqlite', version: '3.45', size: '2 MiB' },
  time: '09:00:00',
};

const day = (date: string, studySeconds: number, learners: number, enrolments = 0, completions = 0) => ({ date, studySeconds, learners, enrolments, completions });

const training: TrainingDashboard = {
  today: '2026-06-10',
  weekStart: '2026-06-08',
  activeToday: 4,
  activeThisWeek: 11,
  days: [day('2026-06-04', 0, 0), day('2026-06-05', 3600, 2, 3), day('2026-06-06', 0, 0), day('2026-06-07', 0, 0), day('2026-06-08', 5400, 3, 1, 2), day('2026-06-09', 0, 0), day('2026-06-10', 1800, 1)],
  enrolments: { applied: 2, active: 17, completed: 9, enrolledInPeriod: 4, completedInPeriod: 2 },
  openExams: { total: 1, inProgress: 3, exams: [{ examId: 5, title: 'Fire drill', closeAt: '2026-06-12 18:00:00', assigned: 20, inProgress: 3 }] },
  recentExams: [
    { examId: 5, title: 'Fire drill', counted: 8, passed: 6, passRate: 0.75 },
    { examId: 6, title: 'First aid', counted: 3, passed: 1, passRate: 0.3333 },
  ],
  certificates: { issuedInPeriod: 6, issuedThisWeek: 2, valid: 40 },
  overdue: { enrolments: 3, examAssignments: 2, courses: [{ courseId: 9, title: 'Safety basics', count: 3 }], exams: [{ examId: 5, title: 'Fire drill', count: 2 }] },
};

const requests: string[] = [];

function answer(url: URL): unknown {
  switch (url.pathname) {
    case '/api/users':
      return { content: [me], totalElements: 128 };
    case '/auth/online':
      return { content: [], totalElements: 5 };
    case '/api/logs':
      return url.searchParams.get('size') === '1'
        ? { content: [], totalElements: 37 }
        : { content: [log(1, '修改用户', 'admin'), log(2, '删除角色', 'teacher', 400)], totalElements: 2 };
    case '/api/logs/user':
      return { content: [log(3, 'Change my profile', 'teacher')], totalElements: 1 };
    case '/api/logs/error':
      return { content: [], totalElements: 3 };
    case '/api/monitor':
      return monitor;
    case '/api/dashboard/training':
      return training;
    default:
      throw new Error(`unexpected request ${url.pathname}`);
  }
}

function LocationProbe() {
  const location = useLocation();
  return <p>at {location.pathname + location.search}</p>;
}

function renderPage(roles: string[]) {
  useUserStore.setState({ user: me, roles });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <App>
        <MemoryRouter initialEntries={['/dashboard']}>
          <Routes>
            <Route path="/dashboard" element={<DashboardPage />} />
            <Route path="/course/term/applicant" element={<LocationProbe />} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  requests.length = 0;
  stubBrowser();
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://localhost');
    requests.push(`${url.pathname}?${url.searchParams.toString()}`);
    return new Response(JSON.stringify(answer(url)), { status: 200, headers: { 'content-type': 'application/json' } });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// antd in jsdom is slow on a busy machine: give it room rather than flake.
configure({ asyncUtilTimeout: 5000 });

describe('DashboardPage', { timeout: 30_000 }, () => {
  it('greets the signed-in user by nick name with department and roles', async () => {
    renderPage(['admin']);
    expect(await screen.findByRole('heading', { name: /Ada Admin/ })).toBeTruthy();
    expect(screen.getByText('Training')).toBeTruthy();
    expect(screen.getByText('Administrators')).toBeTruthy();
  });

  it('shows the server counts as cards linking to their lists, for an administrator', async () => {
    renderPage(['admin']);
    const users = await screen.findByRole('link', { name: 'Users: 128' });
    expect(users.getAttribute('href')).toBe('/system/user');
    expect((await screen.findByRole('link', { name: 'Online sessions: 5' })).getAttribute('href')).toBe('/monitor/online');
    expect((await screen.findByRole('link', { name: 'Error logs: 3' })).getAttribute('href')).toBe('/monitor/errorLog');
    expect((await screen.findByRole('link', { name: 'Operations today: 37' })).getAttribute('href')).toBe('/monitor/logs');
    // Today's figure asks for a range from local midnight.
    const today = requests.find((request) => request.startsWith('/api/logs?') && request.includes('createTime='));
    expect(today).toMatch(/createTime=\d{4}-\d{2}-\d{2}\+00%3A00%3A00&createTime=/);
  });

  it("lists everyone's recent operations in the reader's language, newest first, with failures marked", async () => {
    renderPage(['admin']);
    const list = await screen.findByRole('list', { name: 'Recent operations' });
    expect(within(list).getByText('Edit user')).toBeTruthy();
    expect(within(list).getByText('failed 400')).toBeTruthy();
    expect(requests).toContain('/api/logs?page=0&size=8&sort=createTime%2Cdesc');
    expect(screen.getByRole('link', { name: 'More' }).getAttribute('href')).toBe('/monitor/logs');
  });

  it('shows server usage to holders of monitor:list', async () => {
    renderPage(['monitor:list']);
    expect(await screen.findByText('3h 4m', { exact: false })).toBeTruthy();
    expect(screen.getByText('95.0%')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Details' }).getAttribute('href')).toBe('/monitor/server');
  });

  it("shows a training manager's figures first, with the charts' data and the links behind them", async () => {
    renderPage(['exam:list']);
    expect(await screen.findByText('Active learners today')).toBeTruthy();
    expect(screen.getByText('11 this week')).toBeTruthy();
    // 3600 + 5400 + 1800 seconds over the 30 days shown: 3 hours.
    expect(screen.getByText('Study hours').closest('.ant-card')?.textContent).toBe('Study hours3Last 30 days');
    expect(screen.getByText('9 completed · 2 awaiting approval')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Exams open now: 1' }).getAttribute('href')).toBe('/exam/exam');
    expect(screen.getByText('3 attempts in progress')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Certificates issued: 6' }).getAttribute('href')).toBe('/cert/certificate');
    expect(screen.getByRole('link', { name: 'Overdue: 5' }).getAttribute('href')).toBe('#dashboard-overdue');
    expect(screen.getByText('3 enrolments · 2 exams')).toBeTruthy();
    expect((await screen.findByRole('figure', { name: 'Study hours per day' })).textContent).toBe('[[0,1,0,0,1.5,0,0.5],[0,2,0,0,3,0,1]]');
    expect((await screen.findByRole('figure', { name: 'Enrolments and completions' })).textContent).toBe('[[0,3,0,0,1,0,0],[0,0,0,0,2,0,0]]');
    // Horizontal bars list the latest exam at the top, that is last.
    expect((await screen.findByRole('figure', { name: 'Pass rate of recent exams' })).textContent).toBe('[[33.3,75]]');
    const open = screen.getByRole('list', { name: 'Exams open now' });
    expect(within(open).getByRole('link', { name: 'Fire drill' }).getAttribute('href')).toBe('/edu/report-exam?exam=5');
    expect(within(open).getByText('20 assigned · 3 sitting')).toBeTruthy();
    const overdueExams = screen.getByRole('region', { name: 'Exam assignments' });
    expect(within(overdueExams).getByRole('link', { name: 'Fire drill' }).getAttribute('href')).toBe('/edu/applicant-exam?id=5&overdue=1');
    expect(within(overdueExams).getByText('2 people')).toBeTruthy();
    expect(requests).toContain('/api/dashboard/training?days=30');
  });

  it("opens an overdue course's applicants, choosing the course and the overdue filter", async () => {
    useSelectedCourseStore.setState({ course: undefined });
    renderPage(['applicant:list']);
    const courses = await screen.findByRole('region', { name: 'Course enrolments' });
    fireEvent.click(within(courses).getByRole('link', { name: 'Safety basics' }));
    expect(await screen.findByText('at /course/term/applicant?overdue=1')).toBeTruthy();
    expect(useSelectedCourseStore.getState().course).toEqual({ id: 9, name: 'Safety basics' });
  });

  it('asks for another span of days', async () => {
    renderPage(['cert:list']);
    await screen.findByText('Active learners today');
    fireEvent.click(screen.getByText('7 days'));
    await screen.findByText('Last 7 days');
    expect(requests).toContain('/api/dashboard/training?days=7');
  });

  it('asks for nothing the user may not read, and shows their own operations instead', async () => {
    renderPage(['storage:list']);
    const list = await screen.findByRole('list', { name: 'My recent operations' });
    expect(within(list).getByText('Change my profile')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Users/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /Error logs/ })).toBeNull();
    expect(screen.queryByText('Server status')).toBeNull();
    expect(screen.queryByText('Training at a glance')).toBeNull();
    expect(requests.map((request) => request.split('?')[0])).toEqual(['/api/logs/user']);
  });
});
