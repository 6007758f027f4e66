import { Table, type TableProps } from 'antd';
import { useLayoutEffect, useRef, useState, type Key, type RefObject } from 'react';

/** The key that marks a table's row actions column, on every list. */
export const ACTIONS_COLUMN_KEY = 'actions';

type FlexibleColumn = { key?: Key; fixed?: boolean | string; width?: number | string };

const pinnedRight = (fixed: FlexibleColumn['fixed']) => fixed === 'right' || fixed === 'end';

/**
 * The columns of a table that does not fit: the actions column moves next to the first column, where
 * a phone shows it without scrolling, and nothing is pinned on the right. A column pinned on the
 * right of a table that scrolls covers the columns scrolled beneath it: that hid the users'
 * roles and status at 1440 px, and the whole list but the names at 375 px. Columns pinned on the
 * left stay: at rest they cover nothing, and they keep the row's name in view while scrolling.
 */
export function compactColumns<Column extends FlexibleColumn>(columns: readonly Column[]): Column[] {
  const actions = columns.find((column) => column.key === ACTIONS_COLUMN_KEY);
  const others = columns
    .filter((column) => column !== actions)
    .map((column) => (pinnedRight(column.fixed) ? { ...column, fixed: undefined } : column));
  if (actions === undefined) return others;
  // Its width was set for the spelled-out buttons; on a phone they fold (RowActions) to less.
  const folded = { ...actions, fixed: undefined, width: undefined };
  return [...others.slice(0, 1), folded, ...others.slice(1)];
}

type Fit = { compact: boolean; wideWidth: number };

/**
 * Whether the table at `wrapper` needs its compact columns. Measured after every render (before
 * the browser paints) and whenever the table or its frame change size. Back to the full columns
 * only once the frame is as wide as they needed, so the two layouts never take turns.
 */
function useCompactFit(wrapper: RefObject<HTMLDivElement | null>): boolean {
  const [fit, setFit] = useState<Fit>({ compact: false, wideWidth: 0 });

  // No dependencies: new rows or columns change the table's width as much as a resize does.
  useLayoutEffect(() => {
    const frame = wrapper.current?.querySelector<HTMLElement>('.ant-table-content, .ant-table-body');
    const table = frame?.querySelector('table');
    if (!frame || !table) return;
    const measure = () => {
      const available = frame.clientWidth;
      // A hidden page (a tab kept alive in the background) has no width to go by.
      if (available === 0) return;
      if (!fit.compact && table.scrollWidth > available + 1) setFit({ compact: true, wideWidth: table.scrollWidth });
      else if (fit.compact && available >= fit.wideWidth) setFit({ compact: false, wideWidth: 0 });
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(frame);
    observer.observe(table);
    return () => observer.disconnect();
  });

  return fit.compact;
}

/**
 * antd's Table as every list draws it: scrolling sideways when its columns need more room than
 * the page has, and then compact (see `compactColumns`), so no column covers another and the
 * row actions stay in reach without scrolling. Mark the row actions column with `key: 'actions'`.
 */
export function ListTable<Row extends object>(props: TableProps<Row>) {
  const wrapper = useRef<HTMLDivElement>(null);
  const compact = useCompactFit(wrapper);
  const columns = compact && props.columns ? compactColumns(props.columns) : props.columns;
  return (
    <div ref={wrapper} className={compact ? 'list-table list-table-compact' : 'list-table'}>
      <Table<Row> {...props} columns={columns} scroll={{ x: 'max-content', ...props.scroll }} />
    </div>
  );
}
