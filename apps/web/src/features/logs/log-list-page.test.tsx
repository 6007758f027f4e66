import type { Log } from '@cloud-classroom/shared/logs';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi, stubBrowser, type ApiCall } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { useUserStore } from '../auth/user-store';
import LogListPage from './log-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

configure({ asyncUtilTimeout: 5000 });

const entry = (id: number, extra: Partial<Log> = {}): Log => ({
  id,
  username: 'admin',
  description: '修改用户',
  method: 'PUT /api/users',
  params: '{"body":{"id":2,"nickName":"Alice"}}',
  logType: 'INFO',
  status: 204,
  requestIp: '10.0.0.9',
  browser: 'Chrome 130',
  time: 35,
  createTime: '2026-01-06 10:00:00',
  ...extra,
});

let entries: Log[] = [];

function answer(call: ApiCall): unknown {
  if (call.method === 'GET' && call.path === 'api/logs') return { content: entries, totalElements: entries.length };
  if (call.method === 'DELETE' && call.path === 'api/logs/del/info') {
    entries = [entry(99, { description: '清空操作日志', method: 'DELETE /api/logs/del/info', params: null })];
    return undefined;
  }
  throw new Error(`unexpected ${call.method} ${call.path}`);
}

const lists = (calls: ApiCall[]) => calls.filter((call) => call.method === 'GET' && call.path === 'api/logs');

describe('operation log page', { timeout: 120_000 }, () => {
  let calls: ApiCall[];
  beforeEach(() => {
    stubBrowser();
    entries = [
      entry(1),
      entry(2, { username: null, description: '用户登录', method: 'POST /auth/login', time: 2400, params: null }),
      // Text the catalogue does not know (a later version's action) is shown as stored.
      entry(3, { description: '导入考卷', method: 'POST /api/papers/import', params: null }),
    ];
    useUserStore.setState({ roles: ['admin'] });
    calls = stubApi(answer);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(downloadFile).mockClear();
  });

  it('describes each entry in the reader’s language, from the Chinese the server stores', async () => {
    renderWithProviders(<LogListPage />);
    expect(await screen.findByText('Edit user')).toBeTruthy();
    expect(screen.getByText('Log in')).toBeTruthy();
    expect(screen.getByText('导入考卷')).toBeTruthy();
    expect(screen.queryByText('修改用户')).toBeNull();
  });

  it('lists the entries newest first, naming anonymous requests and marking slow ones', async () => {
    renderWithProviders(<LogListPage />);
    const row = (await screen.findByText('Log in')).closest('tr')!;
    expect(within(row).getByText('anonymous')).toBeTruthy();
    expect(within(row).getByText('2400 ms')).toBeTruthy();
    expect(lists(calls)[0]?.params.getAll('sort')).toEqual(['createTime,desc']);
  });

  it('opens a row to its parameters, laid out as JSON', async () => {
    renderWithProviders(<LogListPage />);
    const row = (await screen.findByText('Edit user')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: /expand/i }));
    const pretty = await screen.findByText((_, element) => element?.tagName === 'PRE' && element.textContent?.includes('"nickName": "Alice"') === true);
    expect(pretty.textContent).toContain('"id": 2');
  });

  it('searches by text and exports what it shows', async () => {
    renderWithProviders(<LogListPage />);
    await screen.findByText('Edit user');
    fireEvent.change(screen.getByLabelText('User, description, method, parameters or IP'), { target: { value: 'users' } });
    await userEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(lists(calls).at(-1)?.params.get('blurry')).toBe('users'));
    await userEvent.click(screen.getByRole('button', { name: /Export/ }));
    expect(downloadFile).toHaveBeenCalledWith('api/logs/download', { blurry: 'users', sort: ['createTime,desc'] }, 'operation-log');
  });

  it('lets an administrator clear the whole log after a confirmation', async () => {
    renderWithProviders(<LogListPage />);
    await screen.findByText('Edit user');
    await userEvent.click(screen.getByRole('button', { name: /Clear all/ }));
    await screen.findByText('Delete every operation log entry? This cannot be undone.');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'DELETE' && call.path === 'api/logs/del/info')).toHaveLength(1));
    expect(await screen.findByText('Clear operation log')).toBeTruthy();
    expect(screen.queryByText('Edit user')).toBeNull();
  });

  it('offers clearing to administrators only', async () => {
    useUserStore.setState({ roles: ['log:list'] });
    renderWithProviders(<LogListPage />);
    await screen.findByText('Edit user');
    expect(screen.queryByRole('button', { name: /Clear all/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
  });
});
