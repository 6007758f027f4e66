import type { Log } from '@cloud-classroom/shared/logs';
import { Form, Input } from 'antd';
import { DateRangeFilter, type TimeRangeValue } from '../../components/list-page/date-range-filter';
import { ListPage } from '../../components/list-page/list-page';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { useLanguage } from '../../lib/use-menu-title';
import { LogClearButton } from './log-clear-button';
import { logColumns, LogRowDetails } from './log-columns';
import { LOGS_KEY, LOGS_PATH } from './logs-api';
import { useLogsMessages } from './logs-messages';

export type LogFilter = { blurry?: string; createTime?: TimeRangeValue };

/** 操作日志: who did what, when, from where and how long it took; a row opens to its parameters. */
export default function LogListPage() {
  const t = useLogsMessages();
  const language = useLanguage();
  const list = useListPage<Log, LogFilter>({ queryKey: LOGS_KEY, path: LOGS_PATH, defaultSort: ['createTime,desc'] });
  return (
    <ListPage<Log, LogFilter>
      list={list}
      rowKey="id"
      columns={logColumns(t, language)}
      search={
        <SearchBar list={list}>
          <Form.Item name="blurry">
            <Input allowClear placeholder={t('logs.blurry')} aria-label={t('logs.blurry')} />
          </Form.Item>
          <Form.Item name="createTime">
            <DateRangeFilter />
          </Form.Item>
        </SearchBar>
      }
      exportFile={{ permission: ['admin', 'log:list'], fileName: t('logs.exportInfo') }}
      toolbarExtra={<LogClearButton type="INFO" t={t} />}
      tableProps={{ expandable: { expandedRowRender: (log) => <LogRowDetails log={log} t={t} /> } }}
    />
  );
}
