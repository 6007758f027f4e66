import type { Menu } from '@cloud-classroom/shared/menus';
import type { Role } from '@cloud-classroom/shared/roles';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { changeLocale, initI18n } from '../../lib/i18n';
import { AUDIT, signInAs } from '../../test/page-test-kit';
import { MenuAssignPanel } from './menu-assign-panel';

function menu(id: number, title: string, titleEn: string | null, type: 0 | 1 | 2, pid: number | null, subCount = 0): Menu {
  return {
    id, pid, type, title, titleEn, componentName: null, component: null, path: null, icon: null, menuSort: id, permission: null,
    iFrame: false, cache: false, hidden: false, subCount, hasChildren: subCount > 0, leaf: subCount === 0, label: title, ...AUDIT,
  };
}

const menusByParent: Record<string, Menu[]> = {
  top: [menu(1, '系统管理', 'System', 0, null, 1), menu(10, '考试管理', null, 1, null)],
  '1': [menu(2, '用户管理', 'Users', 1, 1, 1)],
  '2': [menu(3, '用户新增', 'Add user', 2, 2)],
};

const teacher: Role = { id: 2, name: 'teacher', level: 2, dataScope: '全部', description: null, descriptionEn: null, depts: [], menus: [{ id: 2, title: '用户管理' }], ...AUDIT };

const treeTitles = () => [...document.querySelectorAll('.ant-tree-title')].map((title) => title.textContent);

describe('MenuAssignPanel', () => {
  beforeEach(async () => {
    stubBrowser();
    signInAs(['admin']);
    await initI18n('en-US');
    stubApi((call) => {
      if (call.path === 'api/menus/lazy') return menusByParent[call.params.get('pid') ?? 'top'] ?? [];
      if (call.path === 'api/roles/2') return teacher;
      return undefined;
    });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the menu tree by the English titles in English, the Chinese one where there is none', async () => {
    renderWithProviders(<MenuAssignPanel roleId={2} editable />);
    expect(await screen.findByText('Users')).toBeTruthy();
    expect(treeTitles()).toEqual(['System', 'Users', 'Add user button', '考试管理']);
    await act(() => changeLocale('zh-CN'));
    expect(treeTitles()).toEqual(['系统管理', '用户管理', '用户新增 按钮', '考试管理']);
    await act(() => changeLocale('en-US'));
  });
});
