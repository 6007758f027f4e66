import type { Log } from '@cloud-classroom/shared/logs';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi, stubBrowser, type ApiCall } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { useUserStore } from '../auth/user-store';
import ErrorLogListPage from './error-log-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

configure({ asyncUtilTimeout: 5000 });

const failure: Log = {
  id: 5,
  username: 'teacher',
  description: '导入考卷',
  method: 'POST /api/papers/import',
  params: null,
  logType: 'ERROR',
  status: 500,
  requestIp: '10.0.0.4',
  browser: 'Edge 131',
  time: 80,
  createTime: '2026-01-06 11:00:00',
};

const STACK = 'Error: disk full\n    at writeFile (node:fs:1:1)\n    at importQuestions (question.service.js:42:7)';

let entries: Log[] = [];

function answer(call: ApiCall): unknown {
  if (call.method === 'GET' && call.path === 'api/logs/error') return { content: entries, totalElements: entries.length };
  if (call.method === 'GET' && call.path === 'api/logs/error/5') return { exception: STACK };
  if (call.method === 'DELETE' && call.path === 'api/logs/del/error') {
    entries = [];
    return undefined;
  }
  throw new Error(`unexpected ${call.method} ${call.path}`);
}

describe('error log page', { timeout: 120_000 }, () => {
  let calls: ApiCall[];
  beforeEach(() => {
    stubBrowser();
    entries = [failure];
    useUserStore.setState({ roles: ['admin'] });
    calls = stubApi(answer);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(downloadFile).mockClear();
  });

  it("shows an administrator the entry's stack trace in a dialog", async () => {
    renderWithProviders(<ErrorLogListPage />);
    const row = (await screen.findByText('导入考卷')).closest('tr')!;
    expect(within(row).getByText('500')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Details' }));
    expect(await screen.findByText('Error details #5')).toBeTruthy();
    const stack = await screen.findByLabelText('Details');
    expect(stack.textContent).toBe(STACK);
    expect(calls.filter((call) => call.path === 'api/logs/error/5')).toHaveLength(1);
  });

  it('offers neither stack traces nor clearing to holders of log:list alone', async () => {
    useUserStore.setState({ roles: ['log:list'] });
    renderWithProviders(<ErrorLogListPage />);
    await screen.findByText('导入考卷');
    expect(screen.queryByRole('button', { name: 'Details' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Clear all/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
  });

  it('exports the error log and clears it after a confirmation', async () => {
    renderWithProviders(<ErrorLogListPage />);
    await screen.findByText('导入考卷');
    await userEvent.click(screen.getByRole('button', { name: /Export/ }));
    expect(downloadFile).toHaveBeenCalledWith('api/logs/error/download', { sort: ['createTime,desc'] }, 'error-log');

    await userEvent.click(screen.getByRole('button', { name: /Clear all/ }));
    await screen.findByText('Delete every error log entry? This cannot be undone.');
    await userEvent.click(screen.getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path === 'api/logs/del/error')).toBe(true));
    await waitFor(() => expect(screen.queryByText('导入考卷')).toBeNull());
  });
});
