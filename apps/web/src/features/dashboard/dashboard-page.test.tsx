import type { User } from '@cloud-classroom/shared/users';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render, screen, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '../../components/list-page/list-page-test-kit';
import { useUserStore } from '../auth/user-store';
import DashboardPage from './dashboard-page';

// Feature bundles join i18next when their module loads, so it must be running before the page is imported.
await vi.hoisted(async () => {
  const { initI18n } = await import('../../lib/i18n');
  await initI18n('en-US');
});

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
    default:
      throw new Error(`unexpected request ${url.pathname}`);
  }
}

function renderPage(roles: string[]) {
  useUserStore.setState({ user: me, roles });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <App>
        <MemoryRouter>
          <DashboardPage />
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

  it('asks for nothing the user may not read, and shows their own operations instead', async () => {
    renderPage(['storage:list']);
    const list = await screen.findByRole('list', { name: 'My recent operations' });
    expect(within(list).getByText('Change my profile')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Users/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /Error logs/ })).toBeNull();
    expect(screen.queryByText('Server status')).toBeNull();
    expect(requests.map((request) => request.split('?')[0])).toEqual(['/api/logs/user']);
  });
});
