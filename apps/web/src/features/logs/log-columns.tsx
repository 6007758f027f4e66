import type { Locale } from '@cloud-classroom/shared/locale';
import type { Log } from '@cloud-classroom/shared/logs';
import { auditDescription } from '@cloud-classroom/shared/audit-messages';
import { Descriptions, Tag, Typography } from 'antd';
import type { ListColumn } from '../../components/list-page/list-page';
import type { LogsTranslate } from './logs-messages';

// Requests slower than this are worth a second look; the colour draws the eye to them.
const SLOW_MS = 1000;

/**
 * The columns both logs share; the error log adds its details action. Descriptions are stored
 * in Chinese and shown in `language` (text the catalogue does not know, as stored).
 */
export function logColumns(t: LogsTranslate, language: Locale): ListColumn<Log>[] {
  return [
    { key: 'username', title: t('logs.username'), dataIndex: 'username', sortable: true, render: (name: string | null) => name ?? t('logs.anonymous') },
    { key: 'requestIp', title: t('logs.ip'), dataIndex: 'requestIp', sortable: true },
    {
      key: 'description',
      title: t('logs.description'),
      dataIndex: 'description',
      sortable: true,
      render: (description: string) => auditDescription(language, description),
    },
    { key: 'method', title: t('logs.method'), dataIndex: 'method', sortable: true, ellipsis: true },
    {
      key: 'status',
      title: t('logs.status'),
      dataIndex: 'status',
      sortable: true,
      render: (status: number) => <Tag color={status >= 500 ? 'red' : status >= 400 ? 'orange' : 'green'}>{status}</Tag>,
    },
    { key: 'browser', title: t('logs.browser'), dataIndex: 'browser', sortable: true, ellipsis: true },
    {
      key: 'time',
      title: t('logs.time'),
      dataIndex: 'time',
      sortable: true,
      render: (ms: number) => (ms >= SLOW_MS ? <Tag color="orange">{t('logs.ms', { ms })}</Tag> : t('logs.ms', { ms })),
    },
    {
      key: 'createTime',
      title: t('logs.createTime'),
      dataIndex: 'createTime',
      sortable: true,
      // Newest first is the default order; descending first lets one click reach the oldest.
      sortDirections: ['descend', 'ascend'],
    },
  ];
}

/** Parameters as the server stored them (JSON, secrets masked), laid out to be read. */
function prettyParams(params: string): string {
  try {
    return JSON.stringify(JSON.parse(params), null, 2);
  } catch {
    return params;
  }
}

/** The expanded row: the full method and parameters, which the columns cut short. */
export function LogRowDetails({ log, t }: { log: Log; t: LogsTranslate }) {
  return (
    <Descriptions
      size="small"
      column={1}
      items={[
        { key: 'method', label: t('logs.method'), children: <Typography.Text code>{log.method}</Typography.Text> },
        {
          key: 'params',
          label: t('logs.params'),
          children: log.params ? (
            <pre style={{ margin: 0, maxHeight: 240, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {prettyParams(log.params)}
            </pre>
          ) : (
            <Typography.Text type="secondary">{t('logs.noParams')}</Typography.Text>
          ),
        },
        { key: 'browser', label: t('logs.browser'), children: log.browser ?? '—' },
      ]}
    />
  );
}
