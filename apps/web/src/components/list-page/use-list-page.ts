import type { Page } from '@cloud-classroom/shared/http';
import { useQuery, useQueryClient, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useMemo, useState, type Key } from 'react';
import { http, type CallOptions, type Query, type QueryValue } from '../../lib/http-client';
import { useListMessages } from './list-page-messages';
import type { ListQuery } from './list-query';

/** Filters travel as query parameters; arrays repeat their key, empty values are left out. */
export type ListFilter = Record<string, QueryValue>;

export const PAGE_SIZES = [10, 20, 50, 100] as const;

export type UseListPageOptions<Row, Filter extends ListFilter> = {
  /** The list, from its feature's api file (`listQuery`): its key, endpoint and page query. */
  query: ListQuery<Row>;
  /** `field,dir` strings used while no column sort is chosen. */
  defaultSort?: readonly string[];
  initialFilter?: Filter;
  defaultSize?: number;
  /**
   * After the server deleted rows and before the list reloads: a view of one of those rows (a
   * detail panel) lets go of it here, or its reload would ask for a row that no longer exists.
   */
  onRemoved?: (ids: readonly Key[]) => void;
};

export type ListPageState<Row, Filter extends ListFilter> = {
  /** Invalidating it reloads this list from elsewhere. */
  queryKey: QueryKey;
  path: string;
  filter: Filter;
  /** Applies a new filter (replacing the old one) and goes back to the first page. */
  search: (filter: Filter) => void;
  /** Back to the initial filter, default sort and the first page. */
  reset: () => void;
  /** 0-based, as the server counts. */
  page: number;
  size: number;
  setPage: (page: number, size?: number) => void;
  sort: readonly string[];
  setSort: (sort: readonly string[]) => void;
  selectedKeys: Key[];
  selectedRows: Row[];
  setSelection: (keys: Key[], rows: Row[]) => void;
  /** The query sent to the list endpoint: filter, page, size and sort. */
  params: Query;
  /** The filter and sort without paging, as the export takes them. */
  exportParams: Query;
  result: UseQueryResult<Page<Row>>;
  rows: Row[];
  total: number;
  /** Rows that matched but lie outside the reader's data scope (0 when none or not said). */
  outsideScope: number;
  loading: boolean;
  /** Reloads every query of this list (keeps filter and page). */
  refresh: () => Promise<void>;
  /**
   * DELETEs `path` with the ids, says so, and reloads; rejects (already notified, unless `options`
   * asks for `silent`: a page that explains a refusal itself) when the server refuses.
   */
  remove: (ids: readonly Key[], options?: CallOptions) => Promise<void>;
};

export function useListPage<Row, Filter extends ListFilter = ListFilter>({
  query,
  defaultSort = [],
  initialFilter,
  defaultSize = PAGE_SIZES[0],
  onRemoved,
}: UseListPageOptions<Row, Filter>): ListPageState<Row, Filter> {
  const { key: queryKey, path } = query;
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const t = useListMessages();
  const [initial] = useState<Filter>(() => initialFilter ?? ({} as Filter));
  const [defaultOrder] = useState(() => [...defaultSort]);
  const [filter, setFilter] = useState<Filter>(initial);
  const [page, setPageState] = useState(0);
  const [size, setSize] = useState(defaultSize);
  const [sort, setSortState] = useState<readonly string[]>(defaultOrder);
  const [selection, setSelectionState] = useState<{ keys: Key[]; rows: Row[] }>({ keys: [], rows: [] });

  const clearSelection = useCallback(() => setSelectionState({ keys: [], rows: [] }), []);
  const exportParams = useMemo<Query>(() => ({ ...filter, sort }), [filter, sort]);
  const params = useMemo<Query>(() => ({ ...filter, page, size, sort }), [filter, page, size, sort]);

  const result: UseQueryResult<Page<Row>> = useQuery(query.page(params));

  const refresh = useCallback(async () => {
    clearSelection();
    await queryClient.invalidateQueries({ queryKey });
  }, [clearSelection, queryClient, queryKey]);

  const rows = useMemo(() => result.data?.content ?? [], [result.data]);
  const total = result.data?.totalElements ?? 0;

  const remove = useCallback(
    async (ids: readonly Key[], options?: CallOptions) => {
      await http.delete(path, ids, options);
      message.success(t('list.deleted'));
      onRemoved?.(ids);
      // Deleting the whole last page would otherwise leave an empty page with rows before it.
      if (page > 0 && ids.length >= rows.length) setPageState(page - 1);
      await refresh();
    },
    [message, onRemoved, page, path, refresh, rows.length, t],
  );

  return {
    queryKey,
    path,
    filter,
    search: (next) => {
      setFilter(next);
      setPageState(0);
      clearSelection();
    },
    reset: () => {
      setFilter(initial);
      setSortState(defaultOrder);
      setPageState(0);
      clearSelection();
    },
    page,
    size,
    setPage: (nextPage, nextSize = size) => {
      // A new page size starts over: the old page number means different rows.
      setPageState(nextSize === size ? nextPage : 0);
      setSize(nextSize);
      clearSelection();
    },
    sort,
    setSort: (next) => {
      setSortState(next.length === 0 ? defaultOrder : next);
      setPageState(0);
      clearSelection();
    },
    selectedKeys: selection.keys,
    selectedRows: selection.rows,
    setSelection: (keys, selectedRows) => setSelectionState({ keys, rows: selectedRows }),
    params,
    exportParams,
    result,
    rows,
    total,
    outsideScope: result.data?.outsideScope ?? 0,
    loading: result.isFetching,
    refresh,
    remove,
  };
}
