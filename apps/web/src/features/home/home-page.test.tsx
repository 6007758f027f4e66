import type { User } from '@cloud-classroom/shared/users';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi, type ApiCall } from '../../components/list-page/list-page-test-kit';
import { setLocale } from '../../lib/use-locale-text';
import { useUserStore } from '../auth/user-store';
import { HomePage } from './home-page';

const user: User = {
  id: 7,
  username: 'learner1',
  nickName: '李明',
  gender: null,
  phone: null,
  email: null,
  avatarName: null,
  enabled: true,
  pwdResetTime: null,
  dept: null,
  roles: [],
  createBy: null,
  updateBy: null,
  createTime: '2025-01-01 00:00:00',
  updateTime: '2025-01-01 00:00:00',
};

describe('the home page', () => {
  let calls: ApiCall[];
  let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

  function renderHome(roles: string[]) {
    useUserStore.setState({ token: 'Bearer t', user, roles });
    render(
      <MemoryRouter>
        <HomePage />
      </MemoryRouter>,
    );
  }

  beforeEach(() => {
    setLocale('zh-CN', false);
    calls = stubApi(() => undefined);
    assign = vi.fn<(url: string | URL) => void>();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  it("asks in the product's own dialog before logging out: cancel keeps the session, confirm ends it", async () => {
    const nativeConfirm = vi.spyOn(window, 'confirm');
    renderHome(['ROLE_SYSTEM_DEFAULT']);
    const logout = screen.getByRole('button', { name: '退出登录' });
    await userEvent.click(logout);
    const dialog = screen.getByRole('dialog', { name: '提示' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByText('确定注销并退出系统吗？')).toBeTruthy();
    expect(dialog.getAttribute('aria-describedby')).toBe(within(dialog).getByText('确定注销并退出系统吗？').id);
    // Focus moves into the dialog and stays there.
    expect(dialog.contains(document.activeElement)).toBe(true);
    await userEvent.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await userEvent.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);

    await userEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(logout);
    expect(useUserStore.getState().token).toBe('Bearer t');

    // Escape is a cancel too.
    await userEvent.click(logout);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls).toEqual([]);

    await userEvent.click(logout);
    await userEvent.click(within(screen.getByRole('dialog', { name: '提示' })).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['DELETE auth/logout']);
    expect(useUserStore.getState().token).toBeUndefined();
    expect(nativeConfirm).not.toHaveBeenCalled();
  });

  it('offers staff the back office in the main area', () => {
    renderHome(['user:list']);
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { name: '后台管理' })).toBeTruthy();
    expect(within(main).getByRole('link', { name: '进入后台管理' }).getAttribute('href')).toBe('/dashboard');
  });

  it('offers a learner no back office', () => {
    renderHome(['ROLE_SYSTEM_DEFAULT']);
    expect(screen.getByRole('heading', { name: '欢迎，李明' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /后台管理/ })).toBeNull();
  });
});
