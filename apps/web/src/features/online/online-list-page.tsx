import { LogoutOutlined } from '@ant-design/icons';
import type { OnlineSession } from '@cloud-classroom/shared/online';
import { timeAgo } from '@cloud-classroom/shared/display';
import { DEFAULT_LOCALE, isLocale } from '@cloud-classroom/shared/locale';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { App, Button, Form, Input, Tag, Tooltip, type TableColumnType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../components/list-page/list-table';
import { ListToolbar } from '../../components/list-page/list-toolbar';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { Permission, useCheckPermission } from '../../components/permission';
import { downloadFile } from '../../lib/download';
import { useUserStore } from '../auth/user-store';
import { kickOut, onlineList } from './online-api';
import { useOnlineMessages } from './online-messages';
import { paginationOf, selectionOf } from '../../components/list-page/table-bindings';

type OnlineFilter = { username?: string };

const KICK: readonly PermissionCheck[] = ['admin', 'online:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'online:list'];

/**
 * 在线用户: the live sessions, newest login first, with kick-out of one or many. The table is
 * the list pattern's pieces put together by hand: its toolbar's delete would say "delete" where
 * staff expect "kick out".
 */
export default function OnlineListPage() {
  const t = useOnlineMessages();
  const listText = useListMessages();
  const { i18n } = useTranslation();
  const locale = isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
  const { message, modal } = App.useApp();
  const can = useCheckPermission();
  const me = useUserStore((state) => state.user?.username);
  const list = useListPage<OnlineSession, OnlineFilter>({ query: onlineList });
  const [hidden, setHidden] = useState<string[]>([]);

  const confirmKick = (sessions: readonly OnlineSession[]) => {
    const own = sessions.some((session) => session.userName === me);
    const question =
      sessions.length === 1 ? t('online.kickOne', { name: sessions[0]?.nickName ?? '' }) : t('online.kickMany', { count: sessions.length });
    modal.confirm({
      title: t('online.kickTitle'),
      content: own ? `${question} ${t('online.kickOwn')}` : question,
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await kickOut(sessions.map((session) => session.key));
        } catch {
          return; // The http client has shown why.
        }
        message.success(t('online.kicked', { count: sessions.length }));
        await list.refresh();
      },
    });
  };

  const columns: (TableColumnType<OnlineSession> & { key: string; title: string })[] = [
    {
      key: 'userName',
      title: t('online.userName'),
      dataIndex: 'userName',
      render: (name: string) => (
        <>
          {name}
          {name === me && (
            <Tag color="processing" style={{ marginInlineStart: 6 }}>
              {t('online.you')}
            </Tag>
          )}
        </>
      ),
    },
    { key: 'nickName', title: t('online.nickName'), dataIndex: 'nickName' },
    { key: 'dept', title: t('online.dept'), dataIndex: 'dept', render: (dept: string | null) => dept ?? t('online.noDept') },
    { key: 'ip', title: t('online.ip'), dataIndex: 'ip' },
    { key: 'browser', title: t('online.browser'), dataIndex: 'browser', ellipsis: true },
    { key: 'loginTime', title: t('online.loginTime'), dataIndex: 'loginTime' },
    {
      key: 'lastSeenTime',
      title: t('online.lastSeen'),
      dataIndex: 'lastSeenTime',
      render: (time: string) => (
        <Tooltip title={time}>
          <span>{timeAgo(time, locale)}</span>
        </Tooltip>
      ),
    },
  ];
  if (can(KICK)) {
    columns.push({
      key: 'actions',
      title: t('online.actions'),
      fixed: 'right',
      render: (_, session) => (
        <Button type="link" size="small" danger onClick={() => confirmKick([session])}>
          {t('online.kick')}
        </Button>
      ),
    });
  }

  return (
    <div className="list-page">
      <SearchBar list={list}>
        <Form.Item name="username">
          <Input allowClear placeholder={t('online.search')} aria-label={t('online.search')} />
        </Form.Item>
      </SearchBar>
      <ListToolbar
        selectedCount={list.selectedKeys.length}
        exportFile={{
          permission: LIST,
          onClick: () => downloadFile(`${list.path}/download`, list.exportParams, t('online.exportName')),
        }}
        extra={
          <Permission roles={KICK}>
            <Button danger icon={<LogoutOutlined />} disabled={list.selectedRows.length === 0} onClick={() => confirmKick(list.selectedRows)}>
              {t('online.kickSelected')}
            </Button>
          </Permission>
        }
        onRefresh={() => void list.refresh()}
        refreshing={list.loading}
        columns={columns.map(({ key, title }) => ({ key, title }))}
        hiddenColumns={hidden}
        onHiddenColumnsChange={setHidden}
      />
      <ListTable<OnlineSession>
        style={{ marginTop: 8 }}
        rowKey="key"
        columns={columns.filter((column) => !hidden.includes(column.key))}
        dataSource={list.rows}
        loading={list.loading}
        rowSelection={
          can(KICK)
            ? selectionOf(list)
            : undefined
        }
        pagination={paginationOf(list, listText)}
      />
    </div>
  );
}
