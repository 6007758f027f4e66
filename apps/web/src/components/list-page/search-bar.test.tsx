import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form, Input, Select } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from './list-page-test-kit';
import { KeywordSearchBar, type KeywordFilter } from './keyword-search-bar';
import { activeFilterCount, SearchBar } from './search-bar';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('./list-page-test-kit');
  await initTestI18n('en-US');
});

type Filter = { deptId?: number; blurry?: string; enabled?: boolean; tags?: string[] };

function renderBar(filter: Filter = {}) {
  const list = { filter, search: vi.fn(), reset: vi.fn() };
  render(
    <SearchBar<Filter> list={list}>
      <Form.Item name="blurry">
        <Input placeholder="find" />
      </Form.Item>
      <Form.Item name="enabled">
        <Select aria-label="status" options={[{ value: true, label: 'on' }]} />
      </Form.Item>
    </SearchBar>,
  );
  return list;
}

/** The search form, shown or folded away (jsdom lays nothing out: its inline display decides). */
const fieldsShown = () => screen.getByPlaceholderText('find').closest('form')?.style.display !== 'none';

describe('search bar', { timeout: 20_000 }, () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('on a desktop shows its fields, with no filter toggle', () => {
    stubBrowser(1280);
    renderBar();
    expect(fieldsShown()).toBe(true);
    expect(screen.queryByRole('button', { name: /Filters/ })).toBeNull();
  });

  it('on a phone starts folded behind a toggle that opens and closes it', async () => {
    stubBrowser(375);
    renderBar();
    const toggle = screen.getByRole('button', { name: /Filters/ });
    expect(fieldsShown()).toBe(false);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.getAttribute('aria-controls')).toBe(screen.getByPlaceholderText('find').closest('form')?.id);

    await userEvent.click(toggle);
    expect(fieldsShown()).toBe(true);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    await userEvent.click(toggle);
    expect(fieldsShown()).toBe(false);
  });

  it('folds under 992 px, the width SPEC §4 calls mobile, and not from 992 px on', () => {
    stubBrowser(991);
    renderBar();
    expect(fieldsShown()).toBe(false);
    cleanup();
    stubBrowser(992);
    renderBar();
    expect(fieldsShown()).toBe(true);
  });

  it('counts the filters in use on the toggle, not those set outside the bar', () => {
    stubBrowser(375);
    renderBar({ deptId: 7, blurry: 'ann', enabled: false });
    expect(screen.getByRole('button', { name: /Filters/ }).textContent).toBe('Filters (2)');
  });

  it('shows no count while no filter is in use', () => {
    stubBrowser(375);
    renderBar({ deptId: 7, blurry: '' });
    expect(screen.getByRole('button', { name: /Filters/ }).textContent).toBe('Filters');
  });

  it('searches with the fields once opened', async () => {
    stubBrowser(375);
    const list = renderBar({ deptId: 7 });
    await userEvent.click(screen.getByRole('button', { name: /Filters/ }));
    await userEvent.type(screen.getByPlaceholderText('find'), 'bob{Enter}');
    await vi.waitFor(() => expect(list.search).toHaveBeenCalledWith({ deptId: 7, blurry: 'bob', enabled: undefined }));
  });
});

describe('keyword search bar', { timeout: 20_000 }, () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  type UserFilter = KeywordFilter & { deptId?: number; enabled?: boolean };
  const renderKeywordBar = (filter: UserFilter) => {
    const list = { filter, search: vi.fn(), reset: vi.fn() };
    render(
      <KeywordSearchBar<UserFilter> list={list} placeholder="Name or e-mail">
        <Form.Item name="enabled">
          <Select aria-label="status" options={[{ value: true, label: 'on' }]} />
        </Form.Item>
      </KeywordSearchBar>,
    );
    return list;
  };

  it('folds on a phone like any search bar, counting the keyword, the days and its own extra fields', () => {
    stubBrowser(375);
    renderKeywordBar({ deptId: 7, blurry: 'ann', createTime: ['2025-01-01 00:00:00', '2025-01-31 23:59:59'], enabled: true });
    expect(screen.getByRole('button', { name: /Filters/ }).textContent).toBe('Filters (3)');
    // Folded away, so out of the accessibility tree: found by its placeholder.
    expect(screen.getByPlaceholderText('Name or e-mail').closest('form')?.style.display).toBe('none');
  });

  it('searches with the keyword, keeping filters set elsewhere', async () => {
    stubBrowser(1280);
    const list = renderKeywordBar({ deptId: 7 });
    await userEvent.type(screen.getByRole('textbox', { name: 'Name or e-mail' }), 'bob{Enter}');
    await vi.waitFor(() =>
      expect(list.search).toHaveBeenCalledWith({ deptId: 7, blurry: 'bob', createTime: undefined, enabled: undefined }),
    );
  });
});

describe('activeFilterCount', () => {
  it.each([
    [{}, 0],
    [{ blurry: '' }, 0],
    [{ blurry: null }, 0],
    [{ tags: [] }, 0],
    [{ blurry: 'a' }, 1],
    [{ enabled: false }, 1],
    [{ tags: ['x'] }, 1],
    [{ blurry: 'a', tags: ['2024-01-01 00:00:00', '2024-01-02 23:59:59'], deptId: 3 }, 2],
  ])('%j has %i in use among the bar’s fields', (filter, count) => {
    expect(activeFilterCount(filter, ['blurry', 'enabled', 'tags'])).toBe(count);
  });
});
