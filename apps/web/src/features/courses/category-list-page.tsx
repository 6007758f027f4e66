import type { Category, CategoryTree } from '@cloud-classroom/shared/courses';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { flattenTree, parentKeys } from '@cloud-classroom/shared/tree';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, type TableColumnType } from 'antd';
import { useState, type Key } from 'react';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListTable } from '../../components/list-page/list-table';
import { ListToolbar } from '../../components/list-page/list-toolbar';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { Permission, useCheckPermission } from '../../components/permission';
import { downloadFile } from '../../lib/download';
import { CategoryFormDialog } from './category-form-dialog';
import { useCourseMessages } from './courses-messages';
import { categoryTreeQuery, coursesKeys, deleteCategories } from './courses-api';
import { useDeleteRefusal } from './use-delete-refusal';

const LIST: readonly PermissionCheck[] = ['admin', 'course:list'];
const ADD: readonly PermissionCheck[] = ['admin', 'course:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'course:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'course:del'];

type CategoryFilter = { name?: string };
type Dialog = { open: false } | { open: true; category?: Category; parent?: Category };
/** A row of the table: leaves get no `children`, or antd would offer to open them. */
type CategoryRow = Omit<CategoryTree, 'children'> & { children?: CategoryRow[] };

/** The categories whose name holds `name`, with the categories above them, so each match shows where it sits. */
function matching(nodes: readonly CategoryTree[], name: string): CategoryRow[] {
  const needle = name.trim().toLowerCase();
  return nodes.flatMap((node): CategoryRow[] => {
    const children = matching(node.children ?? [], name);
    const { children: _children, ...category } = node;
    if (needle !== '' && !category.name.toLowerCase().includes(needle) && children.length === 0) return [];
    return [children.length === 0 ? category : { ...category, children }];
  });
}

/**
 * Courses → categories: the whole category tree (tens of rows, so it comes at once and opens
 * fully), filtered by name in the page, with add (at the top or below a row), edit and delete.
 */
export default function CategoryListPage() {
  const t = useCourseMessages();
  const tl = useListMessages();
  const { message } = App.useApp();
  const can = useCheckPermission();
  const queryClient = useQueryClient();
  const refusal = useDeleteRefusal();
  const categories = useQuery(categoryTreeQuery());
  const [filter, setFilter] = useState<CategoryFilter>({});
  const [dialog, setDialog] = useState<Dialog>({ open: false });
  const [selected, setSelected] = useState<Key[]>([]);
  const [collapsed, setCollapsed] = useState<Key[]>([]);
  const [hidden, setHidden] = useState<string[]>([]);

  const rows = matching(categories.data ?? [], filter.name ?? '');
  const expanded = parentKeys(rows, (row) => row.id).filter((id) => !collapsed.includes(id));
  const selectedRows = flattenTree(rows).filter((row) => selected.includes(row.id));

  const refresh = async () => {
    setSelected([]);
    await queryClient.invalidateQueries({ queryKey: coursesKeys.categories });
  };

  const remove = async (ids: number[]) => {
    try {
      await deleteCategories(ids, { silent: true });
    } catch (error) {
      refusal(error, t('courses.category.refused'));
      return;
    }
    message.success(tl('list.deleted'));
    await refresh();
  };

  const canEdit = can(EDIT);
  const canDelete = can(DEL);
  const columns: (TableColumnType<CategoryRow> & { key: string; title: string })[] = [
    { key: 'name', title: t('courses.category.name'), dataIndex: 'name', width: 240, ellipsis: true },
    { key: 'sort', title: t('courses.category.sort'), dataIndex: 'sort', width: 80, align: 'center' },
    { key: 'courseCount', title: t('courses.category.courseCount'), dataIndex: 'courseCount', width: 100, align: 'center' },
    { key: 'createTime', title: tl('list.createTime'), dataIndex: 'createTime', width: 170 },
  ];
  if (can(ADD) || canEdit || canDelete) {
    columns.push({
      key: 'actions',
      title: tl('list.actions'),
      width: 200,
      fixed: 'right',
      render: (_value, category: CategoryRow) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => setDialog({ open: true, category }) }}
          del={{ permission: DEL, name: category.name, warning: t('courses.category.deleteWarning'), onConfirm: () => remove([category.id]) }}
        >
          <Permission roles={ADD}>
            <Button type="link" size="small" onClick={() => setDialog({ open: true, parent: category })}>
              {t('courses.category.addChild')}
            </Button>
          </Permission>
        </RowActions>
      ),
    });
  }

  return (
    <div className="list-page">
      <SearchBar<CategoryFilter> list={{ filter, search: setFilter, reset: () => setFilter({}) }}>
        <Form.Item name="name">
          <Input
            id="category-search-name"
            allowClear
            placeholder={t('courses.category.search')}
            aria-label={t('courses.category.search')}
            style={{ width: 220, maxWidth: '100%' }}
          />
        </Form.Item>
      </SearchBar>
      <ListToolbar
        add={{ permission: ADD, onClick: () => setDialog({ open: true }) }}
        edit={{ permission: EDIT, onClick: () => selectedRows[0] && setDialog({ open: true, category: selectedRows[0] }) }}
        del={{
          permission: DEL,
          name: selectedRows.length === 1 ? selectedRows[0]?.name : undefined,
          warning: t('courses.category.deleteWarning'),
          onConfirm: () => remove(selectedRows.map((row) => row.id)),
        }}
        exportFile={{ permission: LIST, onClick: () => downloadFile('api/categories/download', {}, t('courses.category.exportName')) }}
        onRefresh={() => void refresh()}
        refreshing={categories.isFetching}
        selectedCount={selectedRows.length}
        columns={columns.map(({ key, title }) => ({ key, title }))}
        hiddenColumns={hidden}
        onHiddenColumnsChange={setHidden}
      />
      <ListTable<CategoryRow>
        style={{ marginTop: 8 }}
        rowKey="id"
        columns={columns.filter((column) => !hidden.includes(column.key))}
        dataSource={rows}
        loading={categories.isFetching}
        locale={{ emptyText: t('courses.category.none') }}
        expandable={{
          expandedRowKeys: expanded,
          onExpand: (open, row) => setCollapsed((keys) => (open ? keys.filter((key) => key !== row.id) : [...keys, row.id])),
          indentSize: 16,
        }}
        rowSelection={canEdit || canDelete ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys), checkStrictly: true } : undefined}
        pagination={false}
      />
      {dialog.open && (
        <CategoryFormDialog
          category={dialog.category}
          parent={dialog.parent}
          onClose={() => setDialog({ open: false })}
          onSaved={() => {
            void refresh();
            // A course shows its category's name.
            void queryClient.invalidateQueries({ queryKey: coursesKeys.courses });
          }}
        />
      )}
    </div>
  );
}
