import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import type { Menu } from '@cloud-classroom/shared/menus';
import { Tag, type TableColumnType } from 'antd';
import { useState } from 'react';
import { KeywordSearchBar, type KeywordFilter } from '../../components/list-page/keyword-search-bar';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListTable } from '../../components/list-page/list-table';
import { RowActions } from '../../components/list-page/row-actions';
import { removeTreeRows, TreeTableToolbar } from '../../components/list-page/tree-table-toolbar';
import { useListPage } from '../../components/list-page/use-list-page';
import { MenuIcon } from '../../components/menu-icon';
import { useCheckPermission } from '../../components/permission';
import { useMenuTitle } from '../../lib/use-menu-title';
import { MenuFormDialog } from './menu-form-dialog';
import { useMenuMessages } from './menus-messages';
import { menuChildrenQuery, menuList } from './menus-api';
import { useLazyTree } from '../../components/tree/use-lazy-tree';
import { selectionOf } from '../../components/list-page/table-bindings';

const ADD: readonly PermissionCheck[] = ['admin', 'menu:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'menu:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'menu:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'menu:list'];

type Dialog = { open: false } | { open: true; menu?: Menu };

/** System → menus: the lazy menu tree, its filters, and add / edit / delete / export. */
export default function MenuListPage() {
  const t = useMenuMessages();
  const tl = useListMessages();
  const can = useCheckPermission();
  const titleOf = useMenuTitle();
  const list = useListPage<Menu, KeywordFilter>({ query: menuList });
  const tree = useLazyTree({ rows: list.rows, childrenQuery: menuChildrenQuery });
  const [dialog, setDialog] = useState<Dialog>({ open: false });

  const flag = (value: boolean) => (value ? tl('list.yes') : tl('list.no'));
  const showActions = can(EDIT) || can(DEL);

  const columns: TableColumnType<Menu>[] = [
    { key: 'title', title: t('menus.col.title'), dataIndex: 'title', width: 200, ellipsis: true, render: (_title: string, menu) => titleOf(menu) },
    { key: 'icon', title: t('menus.col.icon'), dataIndex: 'icon', width: 60, align: 'center', render: (icon: string | null) => <MenuIcon name={icon} /> },
    {
      key: 'type',
      title: t('menus.col.type'),
      dataIndex: 'type',
      width: 80,
      render: (type: Menu['type']) => <Tag color={['blue', 'green', 'orange'][type]}>{t(`menus.type.${type}`)}</Tag>,
    },
    { key: 'menuSort', title: t('menus.col.sort'), dataIndex: 'menuSort', width: 70, align: 'center' },
    { key: 'permission', title: t('menus.col.permission'), dataIndex: 'permission', ellipsis: true },
    { key: 'component', title: t('menus.col.component'), dataIndex: 'component', ellipsis: true },
    { key: 'iFrame', title: t('menus.col.iFrame'), dataIndex: 'iFrame', width: 70, render: flag },
    { key: 'cache', title: t('menus.col.cache'), dataIndex: 'cache', width: 70, render: flag },
    { key: 'hidden', title: t('menus.col.visible'), dataIndex: 'hidden', width: 70, render: (hidden: boolean) => flag(!hidden) },
    { key: 'createTime', title: tl('list.createTime'), dataIndex: 'createTime', width: 170 },
  ];
  if (showActions) {
    columns.push({
      key: 'actions',
      title: tl('list.actions'),
      width: 130,
      fixed: 'right',
      render: (_value, menu) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => setDialog({ open: true, menu }) }}
          del={{ permission: DEL, name: menu.title, warning: menu.hasChildren ? t('menus.deleteSubtree') : undefined, onConfirm: () => removeTreeRows(list, tree, [menu.id]) }}
        />
      ),
    });
  }

  return (
    <div className="list-page">
      <KeywordSearchBar list={list} placeholder={t('menus.blurry')} keywordWidth={200} />
      <TreeTableToolbar
        list={list}
        tree={tree}
        add={{ permission: ADD, onClick: () => setDialog({ open: true }) }}
        edit={{ permission: EDIT, onClick: (menu) => setDialog({ open: true, menu }) }}
        exportFile={{ permission: LIST, fileName: t('menus.exportName') }}
        del={{
          permission: DEL,
          warning: (menus) => (menus.some((menu) => menu.hasChildren) ? t('menus.deleteSubtree') : undefined),
        }}
      />
      <ListTable<Menu>
        style={{ marginTop: 8 }}
        rowKey="id"
        columns={columns}
        dataSource={tree.data}
        loading={list.loading || tree.loading}
        pagination={false}
        expandable={{ expandedRowKeys: tree.expandedRowKeys, onExpand: tree.onExpand, indentSize: 16 }}
        rowSelection={
          can(EDIT) || can(DEL)
            ? selectionOf(list)
            : undefined
        }
      />
      {dialog.open && (
        <MenuFormDialog
          open
          menu={dialog.menu}
          onClose={() => setDialog({ open: false })}
          onSaved={() => void list.refresh()}
        />
      )}
    </div>
  );
}
