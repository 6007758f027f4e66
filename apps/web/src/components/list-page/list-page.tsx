/**
 * The back office's list-page pattern. The feature's api file declares the list, the page wires it:
 *
 *   // users-api.ts
 *   export const usersKeys = { all: ['users'] as const };
 *   export const userList = listQuery<User>(usersKeys.all, 'api/users');
 *   export const createUser = (body: UserCreate, options?: CallOptions) => http.post('api/users', body, options);
 *
 *   // user-list-page.tsx
 *   const list = useListPage<User, KeywordFilter>({ query: userList, defaultSort: ['id,desc'] });
 *   <ListPage
 *     list={list}
 *     rowKey="id"
 *     columns={[{ key: 'username', title: t('users.username'), dataIndex: 'username', sortable: true }, …]}
 *     search={<KeywordSearchBar list={list} placeholder={t('users.blurry')} />}
 *     add={{ permission: ['admin', 'user:add'], onClick: openAdd }}
 *     edit={{ permission: ['admin', 'user:edit'], onClick: (row) => openEdit(row) }}
 *     del={{ permission: ['admin', 'user:del'] }}
 *     exportFile={{ permission: ['admin', 'user:list'], fileName: '用户数据' }}
 *   />
 *   <FormDialog open={…} title={…} initialValues={…} onSubmit={(values, request) => createUser(toBody(values), request)}
 *     onSuccess={() => void list.refresh()} onClose={…}>
 *     <Form.Item name="email" label={…} rules={[zodRule(userCreateSchema.shape.email)]}><Input /></Form.Item>
 *   </FormDialog>
 *
 * - `listQuery` (list-query.ts) makes a list's key, endpoint and page `queryOptions` once, in the
 *   api file; pages never write a query key. `useListPage` (use-list-page.ts) owns filter,
 *   0-based page, size (10/20/50/100), `field,dir` sort strings, selection, the query, `refresh`
 *   (invalidates the list's key, and so whatever hangs below it), `reset`, `remove(ids)` (DELETE
 *   the path with the ids, success message, reload).
 * - `ListPage` lays out search slot, toolbar and table: antd paging mapped to the 0-based page,
 *   server-side sorting for columns with `sortable` (`true` sorts by `key`, a string by that field),
 *   row selection when edit or delete is offered. The table is a `ListTable` (list-table.tsx): it
 *   scrolls sideways when cramped, and then the `key: 'actions'` column moves next to the first
 *   column, unpinned, so nothing covers anything and the actions need no scrolling.
 * - Toolbar buttons: add, edit (one row selected), delete (the selection, after a confirmation
 *   naming how many), export (`<path>/download` with the current filter and sort), refresh, and a
 *   column toggle; each hidden without its permission. `ListToolbar` also works on its own;
 *   `TreeTableToolbar` (tree-table-toolbar.tsx) is it for a lazy tree table (menus, departments).
 * - `RowActions` (row-actions.tsx): per-row edit/delete links with the same confirmation, folded
 *   behind one "more" button under 992 px.
 * - `SearchBar`: under 992 px its fields fold behind a "Filters (n)" button, closed at first.
 *   `KeywordSearchBar` is the usual one: keyword (`blurry`) and creation days, plus any fields given.
 * - `ListTable` for the pages that draw their own table (trees, kick-out lists), with `paginationOf`
 *   and `selectionOf` (table-bindings.ts).
 * - `DateRangeFilter` (`createTime` as the server's two wire times), `FormDialog` (submits through
 *   `useFormSubmit`, components/form/use-form-submit.ts: a refusal naming a field goes under it),
 *   `zodRule` (zod-rule.ts), `useConfirmDelete`; strings under `list.*` (list-page-messages.ts).
 */
import type { TableColumnType, TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useState, type Key, type ReactNode } from 'react';
import { downloadFile } from '../../lib/download';
import { useListMessages } from './list-page-messages';
import { ListTable } from './list-table';
import { ListToolbar, type ToolbarAction } from './list-toolbar';
import type { ListFilter, ListPageState } from './use-list-page';
import { paginationOf, selectionOf } from './table-bindings';

export type ListColumn<Row> = Omit<TableColumnType<Row>, 'key' | 'title' | 'sorter' | 'sortOrder'> & {
  key: string;
  /** Also the column toggle's label. */
  title: string;
  /** Server-side sorting: `true` sorts by `key`, a string by that field. */
  sortable?: boolean | string;
  /** Starts hidden; the column toggle brings it back. */
  defaultHidden?: boolean;
};

export type ListPageProps<Row, Filter extends ListFilter> = {
  list: ListPageState<Row, Filter>;
  columns: readonly ListColumn<Row>[];
  rowKey: (keyof Row & string) | ((row: Row) => Key);
  /** Usually a `<SearchBar>`. */
  search?: ReactNode;
  add?: ToolbarAction & { onClick: () => void };
  edit?: ToolbarAction & { onClick: (row: Row) => void };
  /**
   * `rowName` names the row in the question when one is selected, `warning` says what else goes;
   * `onConfirm` deletes the chosen rows itself (to explain a refusal its own way), else `list.remove`.
   */
  del?: ToolbarAction & { rowName?: (row: Row) => string; warning?: ReactNode; onConfirm?: (rows: Row[]) => Promise<unknown> };
  exportFile?: ToolbarAction & { fileName: string };
  /** More toolbar buttons (wrap them in `<Permission>` yourself). */
  toolbarExtra?: ReactNode;
  /** Rows the person may not pick for edit/delete (their own account, say) get a disabled checkbox. */
  canSelect?: (row: Row) => boolean;
  /** Anything else antd's Table takes (expandable, onRow…); paging, sorting and selection are the pattern's. */
  tableProps?: Omit<TableProps<Row>, 'columns' | 'dataSource' | 'rowKey' | 'pagination' | 'onChange' | 'rowSelection' | 'loading'>;
};

const sortFieldOf = <Row,>(column: ListColumn<Row>) =>
  typeof column.sortable === 'string' ? column.sortable : column.sortable ? column.key : undefined;

export function ListPage<Row extends object, Filter extends ListFilter>({
  list,
  columns,
  rowKey,
  search,
  add,
  edit,
  del,
  exportFile,
  toolbarExtra,
  canSelect,
  tableProps,
}: ListPageProps<Row, Filter>) {
  const t = useListMessages();
  const [hidden, setHidden] = useState<string[]>(() => columns.filter((column) => column.defaultHidden).map((column) => column.key));
  const [sortField, sortDirection] = (list.sort[0] ?? '').split(',');

  const tableColumns: TableColumnType<Row>[] = columns
    .filter((column) => !hidden.includes(column.key))
    .map(({ sortable: _sortable, defaultHidden: _defaultHidden, ...column }, index) => {
      const field = sortFieldOf(columns.find((candidate) => candidate.key === column.key) ?? columns[index]!);
      if (field === undefined) return column;
      return {
        ...column,
        sorter: true,
        sortOrder: field === sortField ? (sortDirection === 'asc' ? 'ascend' : 'descend') : null,
        // Cancelling falls back to the default sort, so with antd's ascend → descend → none cycle the
        // default column (shown descending) went descend → none → descend and never reached ascend.
        sortDirections: column.sortDirections ?? ['descend', 'ascend'],
      };
    });

  const onChange: TableProps<Row>['onChange'] = (_pagination, _filters, sorter, extra) => {
    if (extra.action !== 'sort') return;
    const sorters = (Array.isArray(sorter) ? sorter : [sorter]) as SorterResult<Row>[];
    list.setSort(
      sorters.flatMap((item) => {
        const column = columns.find((candidate) => candidate.key === item.columnKey);
        const field = column && sortFieldOf(column);
        return field && item.order ? [`${field},${item.order === 'ascend' ? 'asc' : 'desc'}`] : [];
      }),
    );
  };

  const selectable = edit !== undefined || del !== undefined;
  const rowKeyOf = (row: Row): Key => (typeof rowKey === 'function' ? rowKey(row) : (row[rowKey] as Key));

  return (
    <div className="list-page">
      {search}
      <ListToolbar
        add={add}
        edit={edit && { permission: edit.permission, onClick: () => list.selectedRows[0] && edit.onClick(list.selectedRows[0]) }}
        del={
          del && {
            permission: del.permission,
            onConfirm: () => (del.onConfirm ? del.onConfirm(list.selectedRows) : list.remove(list.selectedKeys)),
            warning: del.warning,
            name: list.selectedRows.length === 1 && list.selectedRows[0] !== undefined ? del.rowName?.(list.selectedRows[0]) : undefined,
          }
        }
        exportFile={
          exportFile && {
            permission: exportFile.permission,
            onClick: () => downloadFile(`${list.path}/download`, list.exportParams, exportFile.fileName),
          }
        }
        onRefresh={() => void list.refresh()}
        refreshing={list.loading}
        selectedCount={list.selectedKeys.length}
        columns={columns.map(({ key, title }) => ({ key, title }))}
        hiddenColumns={hidden}
        onHiddenColumnsChange={setHidden}
        extra={toolbarExtra}
      />
      <ListTable<Row>
        {...tableProps}
        style={{ marginTop: 8, ...tableProps?.style }}
        columns={tableColumns}
        dataSource={list.rows}
        rowKey={rowKeyOf}
        loading={list.loading}
        onChange={onChange}
        rowSelection={
          selectable
            ? { ...selectionOf(list), getCheckboxProps: canSelect && ((row: Row) => ({ disabled: !canSelect(row) })) }
            : undefined
        }
        pagination={paginationOf(list, t)}
      />
    </div>
  );
}
