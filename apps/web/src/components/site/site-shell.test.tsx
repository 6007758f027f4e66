import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUserStore } from '../../features/auth/user-store';
import { getLocale, setLocale } from '../../lib/use-locale-text';
import { stubRoutes } from '../../test/page-test-kit';
import { renderAt, signIn } from '../../test/site-test-kit';
import { SiteShell } from './site-shell';

describe('the learner shell', () => {
  let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

  function renderShell(path = '/home') {
    renderAt(
      <SiteShell>
        <p>content</p>
      </SiteShell>,
      path,
      '*',
    );
  }

  beforeEach(() => {
    setLocale('en-US', false);
    assign = vi.fn<(url: string | URL) => void>();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  it('links the brand home and searches the catalogue through /home?q=', async () => {
    signIn();
    renderShell('/user-center');
    expect(screen.getByRole('link', { name: 'Cloud Classroom' }).getAttribute('href')).toBe('/home');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search courses' }), '  safety & fire ');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByTestId('location').textContent).toBe('/home?q=safety%20%26%20fire');
    expect(screen.getByRole('link', { name: 'My learning' }).getAttribute('href')).toBe('/user-center');
  });

  it('opens the avatar menu from the keyboard, moves with the arrows, and Escape closes it back onto the button', async () => {
    signIn();
    renderShell();
    const button = screen.getByRole('button', { name: 'Account menu of 李明' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    button.focus();
    await userEvent.keyboard('{Enter}');
    const menu = screen.getByRole('menu');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Learning center', 'Personal settings', 'Log out']);
    expect(document.activeElement).toBe(items[0]);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(items[1]);
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement).toBe(items[2]);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    // Space opens it too; a click elsewhere closes it.
    await userEvent.keyboard(' ');
    expect(screen.getByRole('menu')).toBeTruthy();
    await userEvent.click(screen.getByText('content'));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('offers staff the back office in the menu, and learners not', async () => {
    signIn(['user:list']);
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: /Account menu/ }));
    expect(screen.getByRole('menuitem', { name: 'Back office' }).getAttribute('href')).toBe('/dashboard');
  });

  it('asks before logging out, with the spec’s words, and ends the session on confirm', async () => {
    const calls = stubRoutes({ 'DELETE auth/logout': () => undefined });
    setLocale('zh-CN', false);
    signIn();
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: /账户菜单/ }));
    await userEvent.click(screen.getByRole('menuitem', { name: '退出登录' }));
    const dialog = screen.getByRole('dialog', { name: '提示' });
    expect(within(dialog).getByText('确定注销并退出系统吗？')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(useUserStore.getState().token).toBe('Bearer t');
    // The bell loads the notifications; nothing was sent about the session.
    expect(calls.callsTo('DELETE auth/logout')).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: /账户菜单/ }));
    await userEvent.click(screen.getByRole('menuitem', { name: '退出登录' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: '提示' })).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    expect(calls.callsTo('DELETE auth/logout')).toHaveLength(1);
    expect(useUserStore.getState().token).toBeUndefined();
  });

  it('switches the language and remembers it', async () => {
    signIn();
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: '中文' }));
    expect(getLocale()).toBe('zh-CN');
    expect(screen.getByRole('button', { name: 'English' })).toBeTruthy();
    expect(document.cookie).toContain('language=zh-CN');
  });

  it('without a session shows no search or avatar menu, only the way to the login', () => {
    renderShell('/download');
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Account menu/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to login' }).getAttribute('href')).toBe('/login');
    expect(screen.getByText('© 2016-2021 Cloud Classroom')).toBeTruthy();
  });
});
