import type { CategoryTree } from '@cloud-classroom/shared/courses';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import CategoryListPage from './category-list-page';

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

const category = (id: number, name: string, pid: number | null, courseCount: number, children?: CategoryTree[]): CategoryTree => ({
  id,
  pid,
  name,
  sort: id,
  subCount: children?.length ?? 0,
  courseCount,
  children,
  ...AUDIT,
});

const drills = category(2, 'Fire drills', 1, 3);
const firstAid = category(4, 'First aid', 1, 0);
const safety = category(1, 'Safety', null, 0, [drills, firstAid]);
const sales = category(3, 'Sales', null, 5);

function stubCategories({ deleteAnswer }: { deleteAnswer?: () => unknown } = {}) {
  return stubRoutes({
    'GET api/categories': () => [safety, sales],
    'POST api/categories': () => undefined,
    'PUT api/categories': () => undefined,
    'DELETE api/categories': deleteAnswer ?? (() => undefined),
  });
}

const rowOf = (text: string) => screen.getByText(text, { selector: 'td, td *' }).closest('tr')!;
const rowFound = async (text: string) => (await screen.findByText(text, { selector: 'td, td *' })).closest('tr')!;

// antd renders a lot of DOM; on a busy machine jsdom needs more than the default 5 s.
vi.setConfig({ testTimeout: 60_000 });

describe('CategoryListPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the whole tree opened, with each category’s sort and course count', async () => {
    stubCategories();
    renderWithProviders(<CategoryListPage />);
    const row = await rowFound('Fire drills');
    expect(within(row).getByText('3')).toBeTruthy();
    expect(within(rowOf('Sales')).getByText('5')).toBeTruthy();
    expect(within(rowOf('Safety')).getByText('2025-01-02 10:00:00')).toBeTruthy();
  });

  it('filters by name, keeping the categories above a match', async () => {
    stubCategories();
    renderWithProviders(<CategoryListPage />);
    await rowFound('Sales');
    fill(screen.getByLabelText('Search by name'), 'drill');
    clickText('Search');
    await waitFor(() => expect(screen.queryByText('Sales', { selector: 'td, td *' })).toBeNull());
    expect(rowOf('Fire drills')).toBeTruthy();
    expect(rowOf('Safety')).toBeTruthy();
    expect(screen.queryByText('First aid', { selector: 'td, td *' })).toBeNull();
  });

  it('adds a top-level category, refusing it without a name', async () => {
    const api = stubCategories();
    renderWithProviders(<CategoryListPage />);
    await rowFound('Sales');
    clickText('Add', document.querySelector<HTMLElement>('.list-toolbar')!);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTitle('Top level')).toBeTruthy();
    clickText('confirm');
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(api.callsTo('POST api/categories')).toHaveLength(0);

    fill(within(dialog).getByLabelText('Name'), ' Leadership ');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('POST api/categories')).toHaveLength(1));
    expect(api.callsTo('POST api/categories')[0]?.body).toEqual({ name: 'Leadership', pid: null, sort: 999 });
  });

  it('adds a category below a row', async () => {
    const api = stubCategories();
    renderWithProviders(<CategoryListPage />);
    clickText('Add below', await rowFound('Sales'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Add a category under "Sales"')).toBeTruthy();
    fill(within(dialog).getByLabelText('Name'), 'Negotiation');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('POST api/categories')).toHaveLength(1));
    expect(api.callsTo('POST api/categories')[0]?.body).toEqual({ name: 'Negotiation', pid: 3, sort: 999 });
  });

  it('edits a category with its values, offering no parent under itself', async () => {
    const api = stubCategories();
    renderWithProviders(<CategoryListPage />);
    clickText('Edit', await rowFound('Safety'));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Safety');
    expect((within(dialog).getByLabelText('Sort') as HTMLInputElement).value).toBe('1');
    fireEvent.mouseDown(within(dialog).getByLabelText('Parent category'));
    const popup = await waitFor(() => {
      const shown = document.querySelector<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
      expect(shown).toBeTruthy();
      return shown!;
    });
    // Itself and everything below it are left out; the rest may hold it.
    expect(within(popup).queryByTitle('Safety')).toBeNull();
    expect(within(popup).queryByTitle('Fire drills')).toBeNull();
    fireEvent.click(within(popup).getByTitle('Sales'));

    fill(within(dialog).getByLabelText('Sort'), '4');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('PUT api/categories')).toHaveLength(1));
    expect(api.callsTo('PUT api/categories')[0]?.body).toEqual({ id: 1, name: 'Safety', pid: 3, sort: 4 });
  });

  it('explains a refused delete in a dialog, with the server’s words', async () => {
    const api = stubCategories({
      deleteAnswer: () => jsonResponse(409, { status: 409, message: 'ids: category 3 still has courses', timestamp: 0 }),
    });
    renderWithProviders(<CategoryListPage />);
    clickText('Delete', await rowFound('Sales'));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText(/cannot be deleted: move or delete them first/)).toBeTruthy();
    clickText('confirm', confirm);
    await waitFor(() => expect(api.callsTo('DELETE api/categories')[0]?.body).toEqual([3]));
    expect((await screen.findAllByText('Cannot delete')).length).toBeGreaterThan(0);
    expect(screen.getByText(/The category cannot be deleted: it still has categories below it/)).toBeTruthy();
    expect(screen.getByText('The server said: ids: category 3 still has courses')).toBeTruthy();
  });

  it('deletes the selected categories from the toolbar', async () => {
    const api = stubCategories();
    renderWithProviders(<CategoryListPage />);
    fireEvent.click(within(await rowFound('First aid')).getByRole('checkbox'));
    fireEvent.click(within(rowOf('Sales')).getByRole('checkbox'));
    clickText('Delete', document.querySelector<HTMLElement>('.list-toolbar')!);
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('Delete the 2 selected items?')).toBeTruthy();
    clickText('confirm', confirm);
    await waitFor(() => expect(api.callsTo('DELETE api/categories')[0]?.body).toEqual([4, 3]));
  });

  it('exports the tree as a spreadsheet', async () => {
    stubCategories();
    renderWithProviders(<CategoryListPage />);
    await rowFound('Sales');
    clickText('Export', document.querySelector<HTMLElement>('.list-toolbar')!);
    await waitFor(() => expect(downloadFile).toHaveBeenCalledWith('api/categories/download', {}, 'course categories'));
  });

  it('gives a list-only user no add, edit or delete', async () => {
    stubCategories();
    signInAs(['course:list']);
    renderWithProviders(<CategoryListPage />);
    await rowFound('Sales');
    expect(screen.queryByText('Add')).toBeNull();
    expect(screen.queryByText('Add below')).toBeNull();
    expect(screen.queryByText('Edit')).toBeNull();
    expect(screen.queryByText('Delete')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('reads in Chinese too', async () => {
    const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
    await initTestI18n('zh-CN');
    try {
      stubCategories();
      renderWithProviders(<CategoryListPage />);
      await rowFound('Sales');
      expect(screen.getAllByText('分类名称').length).toBeGreaterThan(0);
      expect(within(rowOf('Sales')).getByText('新增下级')).toBeTruthy();
      expect(screen.getAllByText('课程数').length).toBeGreaterThan(0);
    } finally {
      await initTestI18n('en-US');
    }
  });
});
