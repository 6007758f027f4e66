import type { Dept } from '@cloud-classroom/shared/depts';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { App, Form, Input, Select, Switch, type TableColumnType } from 'antd';
import { useState } from 'react';
import { DateRangeFilter, type TimeRangeValue } from '../../components/list-page/date-range-filter';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListTable } from '../../components/list-page/list-table';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { removeTreeRows, TreeTableToolbar } from '../../components/list-page/tree-table-toolbar';
import { useListPage } from '../../components/list-page/use-list-page';
import { useCheckPermission } from '../../components/permission';
import { useLazyTree } from '../../components/tree/use-lazy-tree';
import { DeptFormDialog } from './dept-form-dialog';
import { useDeptMessages } from './depts-messages';
import { deptChildrenQuery, deptList, updateDept } from './depts-api';
import { paginationOf, selectionOf } from '../../components/list-page/table-bindings';

type DeptFilter = { name?: string; enabled?: 'true' | 'false'; createTime?: TimeRangeValue };

const ADD: readonly PermissionCheck[] = ['admin', 'dept:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'dept:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'dept:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'dept:list'];

type Dialog = { open: false } | { open: true; dept?: Dept };

/** System → departments: the lazy department tree, its filters, add / edit / enable / delete / export. */
export default function DeptListPage() {
  const t = useDeptMessages();
  const tl = useListMessages();
  const { modal, message } = App.useApp();
  const can = useCheckPermission();
  const list = useListPage<Dept, DeptFilter>({ query: deptList, defaultSort: ['deptSort,asc'] });
  const tree = useLazyTree({ rows: list.rows, childrenQuery: deptChildrenQuery });
  const [dialog, setDialog] = useState<Dialog>({ open: false });

  const confirmEnabled = (dept: Dept, enabled: boolean) => {
    modal.confirm({
      title: t(enabled ? 'depts.enableTitle' : 'depts.disableTitle'),
      content: t(enabled ? 'depts.enableConfirm' : 'depts.disableConfirm', { name: dept.name }),
      okText: tl('common.confirm'),
      cancelText: tl('common.cancel'),
      onOk: async () => {
        try {
          await updateDept({ id: dept.id, name: dept.name, pid: dept.pid, deptSort: dept.deptSort, enabled });
          message.success(tl('list.updated'));
          await list.refresh();
        } catch {
          // Already notified by the http client.
        }
      },
    });
  };

  const canEdit = can(EDIT);
  const columns: TableColumnType<Dept>[] = [
    { key: 'name', title: t('depts.name'), dataIndex: 'name', width: 240, ellipsis: true },
    { key: 'deptSort', title: t('depts.col.sort'), dataIndex: 'deptSort', width: 80, align: 'center' },
    {
      key: 'enabled',
      title: t('depts.enabled'),
      dataIndex: 'enabled',
      width: 100,
      align: 'center',
      render: (enabled: boolean, dept) => (
        <Switch
          size="small"
          checked={enabled}
          disabled={!canEdit}
          aria-label={`${dept.name}: ${enabled ? t('depts.enable') : t('depts.disable')}`}
          onChange={(next) => confirmEnabled(dept, next)}
        />
      ),
    },
    { key: 'createTime', title: tl('list.createTime'), dataIndex: 'createTime', width: 170 },
  ];
  if (canEdit || can(DEL)) {
    columns.push({
      key: 'actions',
      title: tl('list.actions'),
      width: 130,
      fixed: 'right',
      render: (_value, dept) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => setDialog({ open: true, dept }) }}
          del={{ permission: DEL, name: dept.name, warning: t('depts.deleteSubtree'), onConfirm: () => removeTreeRows(list, tree, [dept.id]) }}
        />
      ),
    });
  }

  return (
    <div className="list-page">
      <SearchBar list={list}>
        {/* Own ids: the dialog's form has fields of the same names, and antd derives ids from names. */}
        <Form.Item name="name">
          <Input id="dept-search-name" allowClear placeholder={t('depts.namePlaceholder')} aria-label={t('depts.name')} style={{ width: 200, maxWidth: '100%' }} />
        </Form.Item>
        <Form.Item name="enabled">
          <Select
            id="dept-search-enabled"
            allowClear
            aria-label={t('depts.enabled')}
            placeholder={t('depts.enabledPlaceholder')}
            style={{ width: 120 }}
            options={[
              { value: 'true', label: t('depts.enable') },
              { value: 'false', label: t('depts.disable') },
            ]}
          />
        </Form.Item>
        <Form.Item name="createTime">
          <DateRangeFilter />
        </Form.Item>
      </SearchBar>
      <TreeTableToolbar
        list={list}
        tree={tree}
        add={{ permission: ADD, onClick: () => setDialog({ open: true }) }}
        edit={{ permission: EDIT, onClick: (dept) => setDialog({ open: true, dept }) }}
        exportFile={{ permission: LIST, fileName: t('depts.exportName') }}
        del={{ permission: DEL, warning: () => t('depts.deleteSubtree') }}
      />
      <ListTable<Dept>
        style={{ marginTop: 8 }}
        rowKey="id"
        columns={columns}
        dataSource={tree.data}
        loading={list.loading || tree.loading}
        expandable={{ expandedRowKeys: tree.expandedRowKeys, onExpand: tree.onExpand, indentSize: 16 }}
        rowSelection={
          canEdit || can(DEL) ? selectionOf(list) : undefined
        }
        pagination={paginationOf(list, tl)}
      />
      {dialog.open && (
        <DeptFormDialog open dept={dialog.dept} onClose={() => setDialog({ open: false })} onSaved={() => void list.refresh()} />
      )}
    </div>
  );
}
