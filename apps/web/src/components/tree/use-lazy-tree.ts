import { childrenByParent } from '@cloud-classroom/shared/tree';
import { useQueries, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useState } from 'react';

/** What the server's lazily loaded trees (menus, departments) give every row. */
export type LazyTreeRow = { id: number; pid: number | null; hasChildren: boolean };

export type LazyTreeNode<Row extends LazyTreeRow> = Row & { children?: LazyTreeNode<Row>[] };

export type LazyTree<Row extends LazyTreeRow> = {
  /**
   * The table's dataSource: rows with children get `children` (empty until loaded, so antd offers
   * to expand); a filtered match whose parent is listed too sits under it, the parent open.
   */
  data: LazyTreeNode<Row>[];
  expandedRowKeys: number[];
  onExpand: (expanded: boolean, row: Row) => void;
  /** Forget rows that are gone (after a delete), so their children are not asked for again. */
  collapse: (ids: readonly number[]) => void;
  /** Some expanded row's children are still on their way. */
  loading: boolean;
};

/**
 * eladmin's lazy tree table: the list gives the top level (or, while filtered, matches at any
 * level) and each row's children are fetched when it is first expanded, by the feature's
 * `childrenQuery`; its keys hang below the list's, so the list's reload after a write reloads them too.
 */
export function useLazyTree<Row extends LazyTreeRow, Key extends QueryKey>({
  rows,
  childrenQuery,
}: {
  rows: readonly Row[];
  childrenQuery: (pid: number) => UseQueryOptions<Row[], Error, Row[], Key>;
}): LazyTree<Row> {
  const [expanded, setExpanded] = useState<number[]>([]);
  // Filtered matches shown under their listed parent start open; these are the ones closed by hand.
  const [closed, setClosed] = useState<number[]>([]);
  const results = useQueries({ queries: expanded.map((id) => childrenQuery(id)) });

  const loaded = new Map<number, Row[]>();
  expanded.forEach((id, index) => {
    const data = results[index]?.data;
    if (data !== undefined) loaded.set(id, data);
  });

  // A filtered list holds rows of several levels: one whose parent is listed too goes under it.
  const listedIds = new Set(rows.map((row) => row.id));
  const listedUnder = childrenByParent(rows);
  // A row reached twice (listed, and also loaded under an expanded ancestor) is shown once: keys must be unique.
  const seen = new Set<number>();
  const build = (level: readonly Row[]): LazyTreeNode<Row>[] =>
    level.flatMap((row): LazyTreeNode<Row>[] => {
      if (seen.has(row.id)) return [];
      seen.add(row.id);
      if (!row.hasChildren) return [{ ...row, children: undefined }];
      const children = loaded.get(row.id) ?? listedUnder.get(row.id) ?? [];
      return [{ ...row, children: build(children) }];
    });
  const data = build(rows.filter((row) => row.pid === null || !listedIds.has(row.pid)));

  const openListed = rows.filter((row) => listedUnder.has(row.id) && !closed.includes(row.id) && !expanded.includes(row.id)).map((row) => row.id);

  return {
    data,
    expandedRowKeys: [...expanded, ...openListed],
    onExpand: (open, row) => {
      setExpanded((keys) => (open ? (keys.includes(row.id) ? keys : [...keys, row.id]) : keys.filter((key) => key !== row.id)));
      setClosed((keys) => (open ? keys.filter((key) => key !== row.id) : [...keys, row.id]));
    },
    collapse: (ids) => setExpanded((keys) => keys.filter((key) => !ids.includes(key))),
    loading: results.some((result) => result.isPending),
  };
}
