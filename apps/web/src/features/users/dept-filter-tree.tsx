import { Card, Empty, Input, Spin, Tree } from 'antd';
import { useState } from 'react';
import { useDeptTree } from './use-dept-tree';
import { useUserMessages } from './user-messages';

/**
 * The user page's department picker: a click filters the list by that department (and those
 * below it, on the server); clicking it again shows all departments again.
 */
export function DeptFilterTree({ selected, onSelect }: { selected: number | undefined; onSelect: (deptId: number | undefined) => void }) {
  const t = useUserMessages();
  const [search, setSearch] = useState('');
  const depts = useDeptTree({ search });

  return (
    <Card size="small" styles={{ body: { padding: 8 } }}>
      <Input.Search
        allowClear
        placeholder={t('users.deptSearch')}
        aria-label={t('users.deptSearch')}
        onSearch={(value) => setSearch(value)}
        style={{ marginBottom: 8 }}
      />
      <Spin spinning={depts.loading}>
        <div style={{ maxHeight: '60vh', overflow: 'auto' }}>
          {depts.treeData.length === 0 && !depts.loading ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
          ) : (
            <Tree
              blockNode
              treeData={depts.treeData}
              selectedKeys={selected === undefined ? [] : [selected]}
              loadData={(node) => depts.loadChildren(Number(node.key))}
              onSelect={(keys) => onSelect(keys.length === 0 ? undefined : Number(keys[0]))}
            />
          )}
        </div>
      </Spin>
    </Card>
  );
}
