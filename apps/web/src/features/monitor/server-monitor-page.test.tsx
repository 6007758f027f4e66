import { focusManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '../../components/list-page/list-page-test-kit';
import ServerMonitorPage from './server-monitor-page';

await vi.hoisted(async () => {
  const { initI18n } = await import('../../lib/i18n');
  await initI18n('en-US');
});

let calls = 0;
let failing = false;

const snapshot = (n: number) => ({
  sys: { os: 'Linux 6.8', day: '3d 4h 5m 6s', ip: '10.0.0.1' },
  cpu: { name: 'Intel Xeon', package: 1, core: 4, coreNumber: 4, logic: 8, used: '37.5', idle: '62.5' },
  memory: { total: '8.0 GiB', available: '2.0 GiB', used: '6.0 GiB', usageRate: '75.0' },
  swap: { total: '0 B', available: '0 B', used: '0 B', usageRate: '0' },
  disk: { total: '100 GiB', available: '5 GiB', used: '95 GiB', usageRate: '95.0' },
  process: { pid: 4242, uptime: '1h 2m', rss: '120 MiB', heapUsed: '60 MiB', nodeVersion: 'v20.19.0' },
  database: { dialect: 'sqlite', version: '3.45.1', size: '2.0 MiB' },
  time: `09:00:0${n}`,
});

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <App>
        <MemoryRouter>
          <ServerMonitorPage />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  calls = 0;
  failing = false;
  vi.useFakeTimers({ shouldAdvanceTime: true });
  stubBrowser();
  vi.stubGlobal('fetch', async (input: string) => {
    expect(new URL(input, 'http://localhost').pathname).toBe('/api/monitor');
    calls += 1;
    if (failing) return new Response(JSON.stringify({ status: 500, message: 'monitor down', timestamp: 0 }), { status: 500 });
    return new Response(JSON.stringify(snapshot(calls)), { status: 200 });
  });
});

afterEach(() => {
  cleanup();
  focusManager.setFocused(undefined);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// antd in jsdom is slow on a busy machine: give it room rather than flake.
configure({ asyncUtilTimeout: 5000 });

describe('ServerMonitorPage', { timeout: 30_000 }, () => {
  it('shows every panel with usage bars coloured by load', async () => {
    renderPage();
    expect(await screen.findByText('Linux 6.8')).toBeTruthy();
    expect(screen.getByText('Intel Xeon')).toBeTruthy();
    expect(screen.getByText('v20.19.0')).toBeTruthy();
    expect(screen.getByText('SQLite')).toBeTruthy();
    expect(screen.getByText('6.0 GiB used of 8.0 GiB')).toBeTruthy();
    const bars = screen.getAllByRole('progressbar');
    expect(bars.map((bar) => bar.getAttribute('aria-valuenow'))).toEqual(['37.5', '75', '0', '95']);
    expect(screen.getByText(/Server time: 09:00:01/)).toBeTruthy();
    expect(screen.getByText(/Last updated: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/)).toBeTruthy();
  });

  it('refreshes every 5 seconds until auto refresh is switched off', async () => {
    renderPage();
    await screen.findByText('Linux 6.8');
    expect(calls).toBe(1);
    await advance(5000);
    expect(calls).toBe(2);
    expect(await screen.findByText(/Server time: 09:00:02/)).toBeTruthy();

    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole('switch', { name: 'Auto refresh (5 s)' }));
    await advance(20_000);
    expect(calls).toBe(2);

    await user.click(screen.getByRole('button', { name: /Refresh now/ }));
    await advance(0);
    expect(calls).toBe(3);

    await user.click(screen.getByRole('switch', { name: 'Auto refresh (5 s)' }));
    await advance(5000);
    expect(calls).toBe(4);
  });

  it('stops polling while the browser tab is hidden and once the page is closed', async () => {
    const { unmount } = renderPage();
    await screen.findByText('Linux 6.8');
    act(() => focusManager.setFocused(false));
    await advance(15_000);
    expect(calls).toBe(1);
    act(() => focusManager.setFocused(true));
    await advance(5000);
    const before = calls;
    expect(before).toBeGreaterThan(1);
    unmount();
    await advance(20_000);
    expect(calls).toBe(before);
  });

  it('says so in place when the server stops answering, keeping the last figures', async () => {
    renderPage();
    await screen.findByText('Linux 6.8');
    failing = true;
    await advance(5000);
    expect(await screen.findByText('Could not read the server status: monitor down')).toBeTruthy();
    expect(screen.getByText('Showing the last figures that arrived.')).toBeTruthy();
    expect(screen.getByText('Linux 6.8')).toBeTruthy();
  });
});
