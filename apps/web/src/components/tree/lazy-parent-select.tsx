import { filterTree, mapTree, withLoadedChildren } from '@cloud-classroom/shared/tree';
import { TreeSelect } from 'antd';
import { useState } from 'react';

/** The fields of a menu or department the parent picker reads (`label` is the server's copy of the name). */
export type ParentRow = { id: number; label: string; hasChildren: boolean; children?: ParentRow[] };

type PickerNode = { value: number; title: string; isLeaf: boolean; disabled?: boolean; children?: PickerNode[] };

export type LazyParentSelectProps<Row extends ParentRow> = {
  value?: number | null;
  onChange?: (value: number) => void;
  id?: string;
  /** The tree as far as the server sent it; rows with children but none listed load them on expand. */
  roots: readonly Row[];
  loadChildren: (pid: number) => Promise<Row[]>;
  /** A row that may not become the parent (the one being edited): it and its subtree are left out. */
  exclude?: number;
  /** Rows shown but not pickable (a menu button cannot hold menus). */
  isDisabled?: (row: Row) => boolean;
  /** A fake root with id 0 (eladmin's 顶级类目) holding `roots`. */
  topLabel?: string;
  /** What a row is called; the server's `label` unless given (menus show their title in the chosen language). */
  labelOf?: (row: Row) => string;
  placeholder?: string;
  loading?: boolean;
};

/** eladmin's treeselect with load-options: the parent picker of the menu and department forms. */
export function LazyParentSelect<Row extends ParentRow>({
  value,
  onChange,
  id,
  roots,
  loadChildren,
  exclude,
  isDisabled,
  topLabel,
  labelOf = (row) => row.label,
  placeholder,
  loading,
}: LazyParentSelectProps<Row>) {
  const [loaded, setLoaded] = useState<ReadonlyMap<number, Row[]>>(new Map());

  // The server's rows carry children of their own type, so the rows below a Row are Rows too.
  type Node = Row & { children?: Node[] };
  const toNodes = (rows: readonly Row[]): PickerNode[] =>
    mapTree(
      filterTree(
        withLoadedChildren(rows as readonly Node[], (row) => loaded.get(row.id) as Node[] | undefined),
        (row) => row.id !== exclude,
      ),
      (row, children): PickerNode => ({
        value: row.id,
        title: labelOf(row),
        isLeaf: !row.hasChildren,
        disabled: isDisabled?.(row) ?? false,
        children,
      }),
    );

  const nodes = toNodes(roots);
  const treeData: PickerNode[] = topLabel === undefined ? nodes : [{ value: 0, title: topLabel, isLeaf: nodes.length === 0, children: nodes }];

  return (
    <TreeSelect<number>
      id={id}
      value={value ?? undefined}
      onChange={(next) => onChange?.(next)}
      treeData={treeData}
      loadData={async (node) => {
        const pid = Number(node.value);
        if (pid === 0 || loaded.has(pid) || node.props.children !== undefined) return;
        const children = await loadChildren(pid);
        setLoaded((before) => new Map(before).set(pid, children));
      }}
      treeDefaultExpandedKeys={topLabel === undefined ? undefined : [0]}
      showSearch
      treeNodeFilterProp="title"
      placeholder={placeholder}
      loading={loading}
      style={{ width: '100%' }}
      styles={{ popup: { root: { maxHeight: 400, overflow: 'auto' } } }}
    />
  );
}
