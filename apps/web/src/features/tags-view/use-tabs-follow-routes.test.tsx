import { act, cleanup, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeLocale, initI18n } from '../../lib/i18n';
import { VIEW_ROUTES } from '../../test/menu-routes';
import { useTagsViewStore } from './tags-view-store';
import { useTabsFollowRoutes } from './use-tabs-follow-routes';

function Follower() {
  useTabsFollowRoutes(VIEW_ROUTES, false);
  return null;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Follower />
    </MemoryRouter>,
  );
}

describe('useTabsFollowRoutes', () => {
  beforeEach(async () => {
    await initI18n('en-US');
  });
  afterEach(() => {
    cleanup();
    useTagsViewStore.getState().reset();
  });

  it('opens the dashboard and the page reached as tabs', () => {
    renderAt('/system/user');
    expect(useTagsViewStore.getState().visitedViews.map((view) => [view.path, view.title, view.meta.titleEn])).toEqual([
      ['/dashboard', '首页', 'Dashboard'],
      ['/system/user', '用户管理', 'Users'],
    ]);
  });

  it('names the page in the browser title in English, following a language switch at once', async () => {
    renderAt('/system/user');
    expect(document.title).toBe('Users - cloud classroom admin management');
    await act(() => changeLocale('zh-CN'));
    expect(document.title).toBe('用户管理 - 云课堂后台管理');
    await act(() => changeLocale('en-US'));
    expect(document.title).toBe('Users - cloud classroom admin management');
  });

  it('names a page without an English title by its Chinese one', () => {
    renderAt('/monitor/exam');
    expect(document.title).toBe('考试管理 - cloud classroom admin management');
  });
});
