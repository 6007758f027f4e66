import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '../../components/list-page/list-page-test-kit';
import { useUserStore } from '../auth/user-store';
import DatabaseMonitorPage from './database-monitor-page';

await vi.hoisted(async () => {
  const { initI18n } = await import('../../lib/i18n');
  await initI18n('en-US');
});

const requests: Array<{ method: string; url: URL }> = [];

const monitor = (sort: string) => ({
  dialect: 'sqlite',
  version: '3.51.2',
  size: '660.0 KiB',
  sqlite: { journalMode: 'wal', pageSize: 4096, cacheSize: -16000, cacheBytes: '15.6 MiB', walFileSize: '1.1 MiB', walFrames: 286, autoCheckpoint: 1000 },
  pool: null,
  collecting: true,
  since: '2026-11-26 22:00:00',
  totals: { statements: 1, count: 3, errors: 1, totalMs: 1.5, rows: 2 },
  untracked: { statements: 0, count: 0 },
  maxStatements: 500,
  statements: [
    { sql: `select * from "sys_user" where "username" = ? -- ${sort}`, count: 3, errors: 1, totalMs: 1.5, maxMs: 0.9, avgMs: 0.5, rows: 2, lastParameters: ['text(8)', 'number'], lastRunAt: '2026-11-26 22:05:00' },
  ],
  time: '22:06:00',
});

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <App>
        <MemoryRouter>
          <DatabaseMonitorPage />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  requests.length = 0;
  stubBrowser();
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    requests.push({ method: init?.method ?? 'GET', url });
    if (url.pathname === '/api/monitor/database/statements') return new Response(null, { status: 200 });
    return Response.json(monitor(url.searchParams.get('sort') ?? ''));
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useUserStore.setState({ roles: [] });
});

describe('DatabaseMonitorPage', () => {
  it('shows the engine, the totals and each statement with its parameters masked, ordered as asked', async () => {
    useUserStore.setState({ roles: ['monitor:list'] });
    renderPage();
    expect(await screen.findByText('15.6 MiB')).toBeTruthy();
    expect(screen.getByText('WAL')).toBeTruthy();
    expect(screen.getByText('text(8), number')).toBeTruthy();
    expect(screen.getByText(/-- totalMs/)).toBeTruthy();
    // Seeing is not resetting.
    expect(screen.queryByRole('button', { name: 'Reset counters' })).toBeNull();

    await userEvent.click(screen.getByText('Runs', { selector: '.ant-segmented-item-label' }));
    expect(await screen.findByText(/-- count/)).toBeTruthy();
  });

  it('resets the counters for a holder of monitor:reset, once confirmed', async () => {
    useUserStore.setState({ roles: ['monitor:list', 'monitor:reset'] });
    renderPage();
    await screen.findByText('15.6 MiB');
    await userEvent.click(screen.getByRole('button', { name: 'Reset counters' }));
    await userEvent.click(await screen.findByRole('button', { name: /^ok$/i }));
    await waitFor(() => expect(requests.some((request) => request.method === 'DELETE' && request.url.pathname === '/api/monitor/database/statements')).toBe(true));
  });
});
