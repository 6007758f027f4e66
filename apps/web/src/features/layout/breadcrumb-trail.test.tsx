import { act, cleanup, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLocale, initI18n } from '../../lib/i18n';
import { VIEW_ROUTES } from '../../test/menu-routes';
import { BreadcrumbTrail } from './breadcrumb-trail';

const crumbs = () => [...document.querySelectorAll('.ant-breadcrumb-link')].map((item) => item.textContent);

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <BreadcrumbTrail routes={VIEW_ROUTES} />
    </MemoryRouter>,
  );
}

describe('BreadcrumbTrail', () => {
  beforeEach(async () => {
    await initI18n('en-US');
  });
  afterEach(() => {
    cleanup();
  });

  it('shows the trail in English, a menu without an English title in Chinese', () => {
    renderAt('/system/user');
    expect(crumbs()).toEqual(['Dashboard', 'System', 'Users']);
    cleanup();
    renderAt('/monitor/exam');
    expect(crumbs()).toEqual(['Dashboard', 'Monitoring', '考试管理']);
  });

  it('follows a language switch at once', async () => {
    renderAt('/system/user');
    await act(() => changeLocale('zh-CN'));
    expect(crumbs()).toEqual(['首页', '系统管理', '用户管理']);
    await act(() => changeLocale('en-US'));
    expect(crumbs()).toEqual(['Dashboard', 'System', 'Users']);
  });
});
