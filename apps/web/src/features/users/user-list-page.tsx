import { KeyOutlined } from '@ant-design/icons';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { mayManage } from '@cloud-classroom/shared/role-level';
import type { User } from '@cloud-classroom/shared/users';
import { useQuery } from '@tanstack/react-query';
import { Button, Col, Form, Row, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { KeywordSearchBar, type KeywordFilter } from '../../components/list-page/keyword-search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { Permission, useCheckPermission } from '../../components/permission';
import { useUserStore } from '../auth/user-store';
import { DeptFilterTree } from './dept-filter-tree';
import { PasswordResultDialog, type ShownPassword } from './password-result-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';
import { UserEnabledSwitch } from './user-enabled-switch';
import { UserFormDialog } from './user-form-dialog';
import { useUserMessages } from './user-messages';
import { callerStanding } from '../roles/roles-api';
import { callerLevelQuery, standingOf, userList } from './users-api';

type UserFilter = KeywordFilter & { deptId?: number; enabled?: boolean };

const ADD: readonly PermissionCheck[] = ['admin', 'user:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'user:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'user:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'user:list'];

/** 用户管理: the department tree on the left filters the user list on the right. */
export default function UserListPage() {
  const t = useUserMessages();
  const tl = useListMessages();
  const checkPermission = useCheckPermission();
  const me = useUserStore((state) => state.user);
  const list = useListPage<User, UserFilter>({ query: userList, defaultSort: ['id,desc'] });
  const callerLevel = useQuery(callerLevelQuery()).data?.level;

  const [editing, setEditing] = useState<User | null | undefined>(undefined);
  const [resetting, setResetting] = useState<User[] | undefined>(undefined);
  const [shown, setShown] = useState<{ passwords: ShownPassword[]; createdUser?: string } | undefined>(undefined);

  // The server refuses changes to users holding a role above the caller's level; say so up front.
  const canManage = (user: User) => {
    const caller = callerStanding(callerLevel);
    return caller !== undefined && mayManage(caller, standingOf(user));
  };
  const canChange = (user: User) => canManage(user) && user.id !== me?.id;
  const mayEdit = checkPermission(EDIT);

  const genderLabel = (gender: string | null) => (gender === '男' ? t('users.male') : gender === '女' ? t('users.female') : gender);

  const columns: ListColumn<User>[] = [
    { key: 'username', title: t('users.username'), dataIndex: 'username', sortable: true, fixed: 'left' },
    { key: 'nickName', title: t('users.nickName'), dataIndex: 'nickName', sortable: true },
    { key: 'gender', title: t('users.gender'), dataIndex: 'gender', sortable: true, render: genderLabel },
    { key: 'phone', title: t('users.phone'), dataIndex: 'phone', sortable: true },
    { key: 'email', title: t('users.email'), dataIndex: 'email', sortable: true },
    { key: 'dept', title: t('users.dept'), render: (_, user) => user.dept?.name },
    {
      key: 'roles',
      title: t('users.roles'),
      render: (_, user) => (
        <Space size={[0, 4]} wrap>
          {user.roles.map((role) => (
            <Tag key={role.id}>{role.name}</Tag>
          ))}
        </Space>
      ),
    },
    {
      key: 'enabled',
      title: t('users.enabled'),
      dataIndex: 'enabled',
      sortable: true,
      render: (_, user) => (
        <UserEnabledSwitch user={user} disabled={!mayEdit || !canChange(user)} onChanged={() => void list.refresh()} />
      ),
    },
    { key: 'createTime', title: t('users.createTime'), dataIndex: 'createTime', sortable: true },
    {
      key: 'actions',
      title: t('users.actions'),
      fixed: 'right',
      render: (_, user) =>
        canManage(user) ? (
          <RowActions
            edit={{ permission: EDIT, onClick: () => setEditing(user) }}
            del={user.id === me?.id ? undefined : { permission: DEL, name: user.username, onConfirm: () => list.remove([user.id]) }}
          >
            <Permission roles={EDIT}>
              <Button type="link" size="small" onClick={() => setResetting([user])}>
                {t('users.resetPassword')}
              </Button>
            </Permission>
          </RowActions>
        ) : (
          <Tooltip title={t('users.outOfReach')}>
            <Tag>—</Tag>
          </Tooltip>
        ),
    },
  ];

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={7} lg={5}>
        <DeptFilterTree selected={list.filter.deptId} onSelect={(deptId) => list.search({ ...list.filter, deptId })} />
      </Col>
      <Col xs={24} md={17} lg={19}>
        <ListPage<User, UserFilter>
          list={list}
          rowKey="id"
          columns={columns}
          canSelect={canChange}
          search={
            <KeywordSearchBar list={list} placeholder={t('users.blurry')}>
              <Form.Item name="enabled">
                <Select
                  allowClear
                  placeholder={t('users.enabledFilter')}
                  aria-label={t('users.enabledFilter')}
                  style={{ minWidth: 110 }}
                  options={[
                    { value: true, label: tl('list.enabled') },
                    { value: false, label: tl('list.disabled') },
                  ]}
                />
              </Form.Item>
            </KeywordSearchBar>
          }
          add={{ permission: ADD, onClick: () => setEditing(null) }}
          edit={{ permission: EDIT, onClick: (user) => setEditing(user) }}
          del={{ permission: DEL, rowName: (user) => user.username }}
          exportFile={{ permission: LIST, fileName: t('users.exportName') }}
          toolbarExtra={
            <Permission roles={EDIT}>
              <Button icon={<KeyOutlined />} disabled={list.selectedRows.length === 0} onClick={() => setResetting(list.selectedRows)}>
                {t('users.resetPassword')}
              </Button>
            </Permission>
          }
        />
      </Col>
      <UserFormDialog
        editing={editing}
        callerLevel={callerLevel}
        onClose={() => setEditing(undefined)}
        onSaved={(created) => {
          void list.refresh();
          if (created) setShown({ passwords: [created], createdUser: created.username });
        }}
      />
      <ResetPasswordDialog
        users={resetting}
        onClose={() => setResetting(undefined)}
        onGenerated={(passwords) => setShown({ passwords })}
      />
      <PasswordResultDialog passwords={shown?.passwords} createdUser={shown?.createdUser} onClose={() => setShown(undefined)} />
    </Row>
  );
}
