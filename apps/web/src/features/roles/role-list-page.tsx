import { roleDescription } from '@cloud-classroom/shared/display';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { mayManage, roleStanding } from '@cloud-classroom/shared/role-level';
import type { Role } from '@cloud-classroom/shared/roles';
import { useQuery } from '@tanstack/react-query';
import { Col, Row, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { KeywordSearchBar, type KeywordFilter } from '../../components/list-page/keyword-search-bar';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { useListPage } from '../../components/list-page/use-list-page';
import { useLanguage } from '../../lib/use-menu-title';
import { MenuAssignPanel } from './menu-assign-panel';
import { RoleFormDialog } from './role-form-dialog';
import { useRoleMessages } from './roles-messages';
import { callerLevelQuery, callerStanding, roleList } from './roles-api';

const ADD: readonly PermissionCheck[] = ['admin', 'roles:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'roles:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'roles:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'roles:list'];

/** 角色管理: the role list, and beside it (below on narrow screens) the clicked role's menus. */
export default function RoleListPage() {
  const t = useRoleMessages();
  const language = useLanguage();
  const [current, setCurrent] = useState<Role | undefined>(undefined);
  const list = useListPage<Role, KeywordFilter>({
    query: roleList,
    defaultSort: ['level,asc', 'id,asc'],
    // Synchronously, so the panel has let go before the reload would fetch the deleted role.
    onRemoved: (ids) => flushSync(() => setCurrent((role) => (role !== undefined && ids.includes(role.id) ? undefined : role))),
  });
  const callerLevel = useQuery(callerLevelQuery()).data?.level;
  const [editing, setEditing] = useState<Role | null | undefined>(undefined);

  // The server refuses changes to roles above the caller's level; say so up front.
  const me = callerStanding(callerLevel);
  const canManage = (role: Role) => me !== undefined && mayManage(me, roleStanding(role.level));

  const columns: ListColumn<Role>[] = [
    { key: 'name', title: t('roles.name'), dataIndex: 'name', sortable: true },
    { key: 'level', title: t('roles.level'), dataIndex: 'level', sortable: true },
    {
      key: 'dataScope',
      title: t('roles.dataScope'),
      dataIndex: 'dataScope',
      sortable: true,
      render: (_, role) => (
        <Tooltip title={role.dataScope === '自定义' ? role.depts.map((dept) => dept.name).join(', ') : undefined}>
          {t(`roles.scope.${role.dataScope}`)}
        </Tooltip>
      ),
    },
    // In the reader's language; the form shows both.
    { key: 'description', title: t('roles.description'), dataIndex: 'description', sortable: true, ellipsis: true, render: (_, role) => roleDescription(role, language) },
    { key: 'createTime', title: t('roles.createTime'), dataIndex: 'createTime', sortable: true },
    {
      key: 'actions',
      title: t('roles.actions'),
      fixed: 'right',
      render: (_, role) =>
        canManage(role) ? (
          // The row's click picks it for the menu panel; its buttons should not.
          <span onClick={(event) => event.stopPropagation()}>
            <RowActions
              edit={{ permission: EDIT, onClick: () => setEditing(role) }}
              del={{ permission: DEL, name: role.name, onConfirm: () => list.remove([role.id]) }}
            />
          </span>
        ) : (
          <Tooltip title={t('roles.outOfReach')}>
            <Tag>—</Tag>
          </Tooltip>
        ),
    },
  ];

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={16}>
        <ListPage<Role, KeywordFilter>
          list={list}
          rowKey="id"
          columns={columns}
          canSelect={canManage}
          search={<KeywordSearchBar list={list} placeholder={t('roles.blurry')} />}
          add={{ permission: ADD, onClick: () => setEditing(null) }}
          edit={{ permission: EDIT, onClick: (role) => setEditing(role) }}
          del={{ permission: DEL, rowName: (role) => role.name }}
          exportFile={{ permission: LIST, fileName: t('roles.exportName') }}
          tableProps={{
            onRow: (role) => ({ onClick: () => setCurrent(role), style: { cursor: 'pointer' } }),
            rowClassName: (role) => (role.id === current?.id ? 'ant-table-row-selected' : ''),
          }}
        />
      </Col>
      <Col xs={24} xl={8}>
        <MenuAssignPanel roleId={current?.id} editable={current !== undefined && canManage(current)} />
      </Col>
      <RoleFormDialog
        editing={editing}
        callerLevel={callerLevel}
        onClose={() => setEditing(undefined)}
        onSaved={() => void list.refresh()}
      />
    </Row>
  );
}
