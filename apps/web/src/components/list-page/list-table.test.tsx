import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, type TableColumnType } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUserStore } from '../../features/auth/user-store';
import { renderWithProviders, stubBrowser } from './list-page-test-kit';
import { compactColumns, ListTable } from './list-table';
import { RowActions } from './row-actions';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('./list-page-test-kit');
  await initTestI18n('en-US');
});

type Column = { key: string; fixed?: 'left' | 'right' | 'start' | 'end' | boolean; width?: number };

describe('compactColumns', () => {
  it.each<[string, Column[], Column[]]>([
    [
      'moves the actions next to the first column and unpins them',
      [{ key: 'name', fixed: 'left' }, { key: 'email' }, { key: 'actions', fixed: 'right', width: 130 }],
      [{ key: 'name', fixed: 'left' }, { key: 'actions', fixed: undefined, width: undefined }, { key: 'email' }],
    ],
    [
      'unpins every column pinned on the right',
      [{ key: 'name' }, { key: 'time', fixed: 'end' }, { key: 'actions', fixed: 'right' }],
      [{ key: 'name' }, { key: 'actions', fixed: undefined, width: undefined }, { key: 'time', fixed: undefined }],
    ],
    ['leaves a table without actions in its order', [{ key: 'a' }, { key: 'b', fixed: 'right' }], [{ key: 'a' }, { key: 'b', fixed: undefined }]],
    ['keeps a lone actions column', [{ key: 'actions', fixed: 'right' }], [{ key: 'actions', fixed: undefined, width: undefined }]],
  ])('%s', (_name, columns, expected) => {
    expect(compactColumns(columns)).toEqual(expected);
  });
});

type Person = { id: number; name: string; email: string };
const people: Person[] = [
  { id: 1, name: 'ann', email: 'ann@example.com' },
  { id: 2, name: 'bob', email: 'bob@example.com' },
];

function PeopleTable({ onEdit }: { onEdit: (person: Person) => void }) {
  const columns: TableColumnType<Person>[] = [
    { key: 'name', title: 'Name', dataIndex: 'name' },
    { key: 'email', title: 'E-mail', dataIndex: 'email' },
    {
      key: 'actions',
      title: 'Actions',
      fixed: 'right',
      render: (_value, person) => (
        <RowActions edit={{ permission: ['admin'], onClick: () => onEdit(person) }} del={{ permission: ['admin'], onConfirm: async () => {} }} />
      ),
    },
  ];
  return <ListTable<Person> rowKey="id" columns={columns} dataSource={people} pagination={false} />;
}

const headers = () => screen.getAllByRole('columnheader').map((header) => header.textContent);

/** jsdom lays nothing out: the table's frame and the table get the widths a browser would measure. */
function layOut({ frame, table }: { frame: number; table: number }) {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('ant-table-content') ? frame : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.tagName === 'TABLE' ? table : 0;
  });
}

describe('list table', { timeout: 20_000 }, () => {
  beforeEach(() => {
    stubBrowser(1280);
    useUserStore.setState({ roles: ['admin'] });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('keeps the columns and spelled-out row actions while the table fits', () => {
    layOut({ frame: 900, table: 900 });
    renderWithProviders(<PeopleTable onEdit={() => {}} />);
    expect(headers()).toEqual(['Name', 'E-mail', 'Actions']);
    expect(within(screen.getByText('ann').closest('tr')!).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'More actions' })).toBeNull();
  });

  it('when cramped, brings the actions next to the name, unpinned, where no scrolling is needed to reach them', async () => {
    layOut({ frame: 600, table: 900 });
    const onEdit = vi.fn();
    renderWithProviders(<PeopleTable onEdit={onEdit} />);
    expect(headers()).toEqual(['Name', 'Actions', 'E-mail']);
    expect(document.querySelector('.ant-table-cell-fix')).toBeNull();
    await userEvent.click(within(screen.getByText('bob').closest('tr')!).getByRole('button', { name: 'Edit' }));
    expect(onEdit).toHaveBeenCalledWith(people[1]);
  });

  it('goes back to the full layout once its frame is as wide as that layout needed', async () => {
    layOut({ frame: 600, table: 900 });
    // A new element each time, so React renders the table again (and it measures again).
    const page = () => (
      <App>
        <PeopleTable onEdit={() => {}} />
      </App>
    );
    const { rerender } = render(page());
    expect(headers()).toEqual(['Name', 'Actions', 'E-mail']);
    // Compact, the table takes less than the frame: not enough to go back, or the layouts would take turns.
    layOut({ frame: 800, table: 700 });
    rerender(page());
    expect(headers()).toEqual(['Name', 'Actions', 'E-mail']);
    layOut({ frame: 900, table: 700 });
    rerender(page());
    await waitFor(() => expect(headers()).toEqual(['Name', 'E-mail', 'Actions']));
  });

  it('on a phone folds the row actions behind one button, which opens them and closes on a choice', async () => {
    stubBrowser(375);
    layOut({ frame: 320, table: 640 });
    const onEdit = vi.fn();
    renderWithProviders(<PeopleTable onEdit={onEdit} />);
    const row = screen.getByText('bob').closest('tr')!;
    expect(within(row).queryByRole('button', { name: 'Edit' })).toBeNull();

    const more = within(row).getByRole('button', { name: 'More actions' });
    await userEvent.click(more);
    await waitFor(() => expect(more.getAttribute('aria-expanded')).toBe('true'));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    expect(onEdit).toHaveBeenCalledWith(people[1]);
    await waitFor(() => expect(more.getAttribute('aria-expanded')).toBe('false'));
  });

  it('pins nothing on the right of a cramped table: a pinned column would cover those scrolled under it', () => {
    layOut({ frame: 900, table: 900 });
    renderWithProviders(<PeopleTable onEdit={() => {}} />);
    expect(document.querySelectorAll('th.ant-table-cell-fix').length).toBe(1);
    cleanup();
    layOut({ frame: 320, table: 640 });
    renderWithProviders(<PeopleTable onEdit={() => {}} />);
    expect(document.querySelectorAll('th.ant-table-cell-fix').length).toBe(0);
  });
});
