import { Spin, Tree } from 'antd';
import { useDeptTree } from '../users/use-dept-tree';

/**
 * Departments to tick for a custom data scope, as a form control (`value`: ids). Each tick
 * stands alone: the server already extends a chosen department to everything below it.
 */
export function DeptCheckTree({
  value,
  onChange,
  openTo,
  id,
}: {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** Opened down to these on first show (the role's current departments). */
  openTo: readonly number[];
  id?: string;
}) {
  const depts = useDeptTree({ openTo });
  return (
    <Spin spinning={depts.loading}>
      <div id={id} style={{ maxHeight: 260, overflow: 'auto', border: '1px solid rgba(5, 5, 5, 0.06)', borderRadius: 6, padding: 4 }}>
        <Tree
          checkable
          checkStrictly
          selectable={false}
          treeData={depts.treeData}
          loadData={(node) => depts.loadChildren(Number(node.key))}
          checkedKeys={value ?? []}
          onCheck={(checked) => {
            const keys = Array.isArray(checked) ? checked : checked.checked;
            onChange?.(keys.map(Number));
          }}
        />
      </div>
    </Spin>
  );
}
