import type { ReactNode } from 'react';
import { downloadFile } from '../../lib/download';
import type { LazyTree, LazyTreeRow } from '../tree/use-lazy-tree';
import { ListToolbar, type ToolbarAction } from './list-toolbar';
import type { ListFilter, ListPageState } from './use-list-page';

/** Deletes rows of a tree table: says so and reloads the list, and the tree forgets them, so their children are not asked for again. */
export async function removeTreeRows<Row extends LazyTreeRow>(
  list: Pick<ListPageState<Row, ListFilter>, 'remove'>,
  tree: Pick<LazyTree<Row>, 'collapse'>,
  ids: readonly number[],
): Promise<void> {
  await list.remove(ids);
  tree.collapse(ids);
}

export type TreeTableToolbarProps<Row extends LazyTreeRow, Filter extends ListFilter> = {
  list: ListPageState<Row, Filter>;
  tree: LazyTree<Row>;
  add: ToolbarAction & { onClick: () => void };
  /** Opens the selected row (one selected). */
  edit: ToolbarAction & { onClick: (row: Row) => void };
  /** `warning` for the selected rows (a menu with children takes them with it). */
  del: ToolbarAction & { warning?: (rows: readonly Row[]) => ReactNode };
  /** Exports to `<list path>/download` with the current filter. */
  exportFile: ToolbarAction & { fileName: string };
};

/**
 * The toolbar of a lazy tree table (menus, departments): add, edit the selected row, delete the
 * selection with its subtrees, export, and refresh, which spins while the list or an opened
 * level is loading.
 */
export function TreeTableToolbar<Row extends LazyTreeRow, Filter extends ListFilter>({
  list,
  tree,
  add,
  edit,
  del,
  exportFile,
}: TreeTableToolbarProps<Row, Filter>) {
  return (
    <ListToolbar
      add={add}
      edit={{ permission: edit.permission, onClick: () => list.selectedRows[0] && edit.onClick(list.selectedRows[0]) }}
      exportFile={{
        permission: exportFile.permission,
        onClick: () => downloadFile(`${list.path}/download`, list.exportParams, exportFile.fileName),
      }}
      del={{
        permission: del.permission,
        warning: del.warning?.(list.selectedRows),
        onConfirm: () => removeTreeRows(list, tree, list.selectedRows.map((row) => row.id)),
      }}
      onRefresh={() => void list.refresh()}
      refreshing={list.loading || tree.loading}
      selectedCount={list.selectedKeys.length}
    />
  );
}
