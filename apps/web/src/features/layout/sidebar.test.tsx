import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLocale, initI18n } from '../../lib/i18n';
import { VIEW_ROUTES } from '../../test/menu-routes';
import { useAppStore } from './app-store';
import { Sidebar } from './sidebar';

const itemTexts = () => [...document.querySelectorAll('.ant-menu-title-content')].map((item) => item.textContent);

describe('Sidebar', () => {
  beforeEach(async () => {
    await initI18n('en-US');
    useAppStore.setState({ sidebar: { opened: true, withoutAnimation: false }, device: 'desktop' });
  });
  afterEach(() => {
    cleanup();
  });

  it('names the menus by their English titles in English, the Chinese one where a menu has none', () => {
    render(
      <MemoryRouter initialEntries={['/monitor/exam']}>
        <Sidebar routes={VIEW_ROUTES} />
      </MemoryRouter>,
    );
    expect(itemTexts()).toEqual(['Dashboard', 'System', 'Monitoring', 'Server status', '考试管理']);
    expect(screen.queryByText('系统管理')).toBeNull();
  });

  it('follows a language switch at once', async () => {
    render(
      <MemoryRouter initialEntries={['/system/user']}>
        <Sidebar routes={VIEW_ROUTES} />
      </MemoryRouter>,
    );
    expect(itemTexts()).toEqual(['Dashboard', 'System', 'Users', 'Roles', 'Monitoring']);
    await act(() => changeLocale('zh-CN'));
    expect(itemTexts()).toEqual(['首页', '系统管理', '用户管理', '角色管理', '系统监控']);
    await act(() => changeLocale('en-US'));
    expect(itemTexts()).toEqual(['Dashboard', 'System', 'Users', 'Roles', 'Monitoring']);
  });
});
