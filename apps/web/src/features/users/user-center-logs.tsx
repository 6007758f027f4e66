import type { Log } from '@cloud-classroom/shared/logs';
import { auditDescription } from '@cloud-classroom/shared/audit-messages';
import { Tag } from 'antd';
import { KeywordSearchBar, type KeywordFilter } from '../../components/list-page/keyword-search-bar';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { useListPage } from '../../components/list-page/use-list-page';
import { useLanguage } from '../../lib/use-menu-title';
import { myLogList } from '../logs/logs-api';
import type { UserCenterTranslate } from './user-center-messages';

/** The person's own audit trail (`GET api/logs/user`), newest first. */
export function UserCenterLogs({ t }: { t: UserCenterTranslate }) {
  const language = useLanguage();
  const list = useListPage<Log, KeywordFilter>({ query: myLogList, defaultSort: ['createTime,desc'] });

  const columns: ListColumn<Log>[] = [
    {
      key: 'description',
      dataIndex: 'description',
      title: t('userCenter.logDescription'),
      // Stored in Chinese; shown in the reader's language.
      render: (description: string) => auditDescription(language, description),
    },
    { key: 'requestIp', dataIndex: 'requestIp', title: t('userCenter.logIp') },
    { key: 'browser', dataIndex: 'browser', title: t('userCenter.logBrowser') },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('userCenter.logStatus'),
      render: (status: number) => <Tag color={status >= 400 ? 'red' : 'green'}>{status}</Tag>,
    },
    { key: 'time', dataIndex: 'time', title: t('userCenter.logTime'), sortable: true, render: (ms: number) => t('userCenter.ms', { ms }) },
    {
      key: 'createTime',
      dataIndex: 'createTime',
      title: t('userCenter.logCreateTime'),
      sortable: true,
      // Newest first is the default order; descending first lets one click reach the oldest.
      sortDirections: ['descend', 'ascend'],
    },
  ];

  return (
    <ListPage
      list={list}
      rowKey="id"
      columns={columns}
      search={
        <KeywordSearchBar list={list} placeholder={t('userCenter.logSearch')} />
      }
    />
  );
}
