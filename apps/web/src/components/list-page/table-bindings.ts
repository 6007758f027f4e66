import type { TablePaginationConfig, TableProps } from 'antd';
import type { ListTranslate } from './list-page-messages';
import { PAGE_SIZES, type ListFilter, type ListPageState } from './use-list-page';

/**
 * antd Table's paging and selection bound to a list's state, for the pages that draw their own
 * table (trees, kick-out lists) as well as for ListPage: antd counts pages from 1, the API from 0.
 */
export function paginationOf<Row, Filter extends ListFilter>(
  list: ListPageState<Row, Filter>,
  t: ListTranslate,
): TablePaginationConfig {
  return {
    current: list.page + 1,
    pageSize: list.size,
    total: list.total,
    pageSizeOptions: PAGE_SIZES.map(String),
    showSizeChanger: true,
    showTotal: (total) => (list.outsideScope > 0 ? t('list.totalOutsideScope', { total, outside: list.outsideScope }) : t('list.total', { total })),
    onChange: (current, pageSize) => list.setPage(current - 1, pageSize),
  };
}

export function selectionOf<Row, Filter extends ListFilter>(list: ListPageState<Row, Filter>): NonNullable<TableProps<Row>['rowSelection']> {
  return { selectedRowKeys: list.selectedKeys, onChange: (keys, rows) => list.setSelection(keys, rows) };
}
