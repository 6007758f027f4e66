import type { OnlineSession } from '@cloud-classroom/shared/online';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi, stubBrowser, type ApiCall } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { useUserStore } from '../auth/user-store';
import OnlineListPage from './online-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

configure({ asyncUtilTimeout: 5000 });

const session = (key: string, userName: string, nickName: string): OnlineSession => ({
  key,
  userName,
  nickName,
  dept: 'Training',
  browser: 'Chrome 130',
  ip: '10.0.0.8',
  loginTime: '2026-01-05 08:00:00',
  lastSeenTime: '2026-01-05 09:00:00',
});

let sessions: OnlineSession[] = [];

function answer(call: ApiCall): unknown {
  if (call.method === 'GET' && call.path === 'auth/online') return { content: sessions, totalElements: sessions.length };
  if (call.method === 'DELETE' && call.path === 'auth/online') {
    const keys = call.body as string[];
    sessions = sessions.filter((item) => !keys.includes(item.key));
    return undefined;
  }
  throw new Error(`unexpected ${call.method} ${call.path}`);
}

const dialogWith = async (text: string) => {
  await waitFor(() => expect(screen.getAllByRole('dialog').some((dialog) => dialog.textContent?.includes(text))).toBe(true));
  return screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes(text))!;
};
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;
const lists = (calls: ApiCall[]) => calls.filter((call) => call.method === 'GET' && call.path === 'auth/online');

describe('online users page', { timeout: 120_000 }, () => {
  let calls: ApiCall[];
  beforeEach(() => {
    stubBrowser();
    sessions = [session('s1', 'alice', 'Alice'), session('s2', 'bob', 'Bob'), session('s3', 'admin', 'Admin')];
    useUserStore.setState({ roles: ['online:list', 'online:del'], user: { username: 'admin' } as never });
    calls = stubApi(answer);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(downloadFile).mockClear();
  });

  it('lists the sessions and marks your own', async () => {
    renderWithProviders(<OnlineListPage />);
    expect(await screen.findByText('alice')).toBeTruthy();
    expect(within(rowOf('Bob')).getByText('10.0.0.8')).toBeTruthy();
    expect(within(rowOf('Admin')).getByText('you')).toBeTruthy();
  });

  it('searches by user and exports with the same filter', async () => {
    renderWithProviders(<OnlineListPage />);
    await screen.findByText('alice');
    fireEvent.change(screen.getByLabelText('User name or nick name'), { target: { value: 'ali' } });
    await userEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(lists(calls).at(-1)?.params.get('username')).toBe('ali'));
    expect(lists(calls).at(-1)?.params.get('page')).toBe('0');

    await userEvent.click(screen.getByRole('button', { name: /Export/ }));
    expect(downloadFile).toHaveBeenCalledWith('auth/online/download', { username: 'ali', sort: [] }, 'online-users');
  });

  it('kicks one session out after confirmation and reloads the list', async () => {
    renderWithProviders(<OnlineListPage />);
    await screen.findByText('alice');
    await userEvent.click(within(rowOf('alice')).getByRole('button', { name: 'Kick out' }));
    const dialog = await dialogWith('End this session of "Alice"?');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'DELETE')?.body).toEqual(['s1']);
    expect(await screen.findByText('1 session ended')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('alice')).toBeNull());
  });

  it('does nothing when the confirmation is cancelled', async () => {
    renderWithProviders(<OnlineListPage />);
    await screen.findByText('alice');
    await userEvent.click(within(rowOf('bob')).getByRole('button', { name: 'Kick out' }));
    const dialog = await dialogWith('End this session of "Bob"?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  });

  it('kicks the selected sessions out together, warning when one is your own', async () => {
    renderWithProviders(<OnlineListPage />);
    await screen.findByText('alice');
    const kickSelected = screen.getByRole('button', { name: /Kick out selected/ });
    expect(kickSelected.hasAttribute('disabled')).toBe(true);
    await userEvent.click(within(rowOf('bob')).getByRole('checkbox'));
    await userEvent.click(within(rowOf('Admin')).getByRole('checkbox'));
    await userEvent.click(kickSelected);
    const dialog = await dialogWith('End the 2 selected sessions?');
    expect(dialog.textContent).toContain('One of them belongs to you');
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'DELETE')?.body).toEqual(['s2', 's3']));
  });

  it('offers no kick-out without online:del', async () => {
    useUserStore.setState({ roles: ['online:list'] });
    renderWithProviders(<OnlineListPage />);
    await screen.findByText('alice');
    expect(screen.queryByRole('button', { name: /Kick out/ })).toBeNull();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
  });
});
