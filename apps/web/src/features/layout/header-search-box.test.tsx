import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '../../components/list-page/list-page-test-kit';
import { changeLocale, initI18n } from '../../lib/i18n';
import { VIEW_ROUTES } from '../../test/menu-routes';
import HeaderSearchBox from './header-search-box';

function Where() {
  return <output aria-label="location">{useLocation().pathname}</output>;
}

function renderBox() {
  return render(
    <MemoryRouter initialEntries={['/dashboard']}>
      <HeaderSearchBox routes={VIEW_ROUTES} onClose={vi.fn()} />
      <Where />
    </MemoryRouter>,
  );
}

const search = (pattern: string) => fireEvent.change(screen.getByRole('combobox'), { target: { value: pattern } });
const results = () => [...document.querySelectorAll('.ant-select-item-option')].map((option) => option.textContent);

describe('HeaderSearchBox', () => {
  beforeEach(async () => {
    stubBrowser();
    await initI18n('en-US');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows results titled in English, found by either language’s title', async () => {
    renderBox();
    search('Server status');
    expect(await screen.findByText('Monitoring > Server status')).toBeTruthy();
    search('用户管理');
    expect(await screen.findByText('System > Users')).toBeTruthy();
    expect(results()).not.toContain('系统管理 > 用户管理');
    // A menu without an English title is shown, and found, by its Chinese one.
    search('考试');
    expect(await screen.findByText('Monitoring > 考试管理')).toBeTruthy();
  });

  it('opens the chosen result', async () => {
    renderBox();
    search('Roles');
    fireEvent.click(await screen.findByText('System > Roles'));
    expect(screen.getByLabelText('location').textContent).toBe('/system/role');
  });

  it('titles results in Chinese once the language is switched', async () => {
    renderBox();
    await act(() => changeLocale('zh-CN'));
    search('Users');
    expect(await screen.findByText('系统管理 > 用户管理')).toBeTruthy();
    await act(() => changeLocale('en-US'));
  });
});
