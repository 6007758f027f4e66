import type { Log } from '@cloud-classroom/shared/logs';
import { KeywordSearchBar, type KeywordFilter } from '../../components/list-page/keyword-search-bar';
import { ListPage } from '../../components/list-page/list-page';
import { useListPage } from '../../components/list-page/use-list-page';
import { useLanguage } from '../../lib/use-menu-title';
import { LogClearButton } from './log-clear-button';
import { logColumns, LogRowDetails } from './log-columns';
import { logList } from './logs-api';
import { useLogsMessages } from './logs-messages';

/** 操作日志: who did what, when, from where and how long it took; a row opens to its parameters. */
export default function LogListPage() {
  const t = useLogsMessages();
  const language = useLanguage();
  const list = useListPage<Log, KeywordFilter>({ query: logList, defaultSort: ['createTime,desc'] });
  return (
    <ListPage<Log, KeywordFilter>
      list={list}
      rowKey="id"
      columns={logColumns(t, language)}
      search={<KeywordSearchBar list={list} placeholder={t('logs.blurry')} />}
      exportFile={{ permission: ['admin', 'log:list'], fileName: t('logs.exportInfo') }}
      toolbarExtra={<LogClearButton type="INFO" t={t} />}
      tableProps={{ expandable: { expandedRowRender: (log) => <LogRowDetails log={log} t={t} /> } }}
    />
  );
}
