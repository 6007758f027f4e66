import { ReloadOutlined } from '@ant-design/icons';
import { STATEMENT_ORDERS, type DatabaseMonitor, type StatementFigures, type StatementOrder } from '@cloud-classroom/shared/monitor';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Flex, Popconfirm, Row, Segmented, Skeleton, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { Permission } from '../../components/permission';
import { showToast } from '../../lib/toast';
import { useMonitorMessages } from './monitor-messages';
import { databaseMonitorKeys, databaseMonitorQuery, resetStatementCounters } from './monitor-api';
import { useDatabaseMonitorMessages } from './database-monitor-messages';
import { REFRESH_INTERVAL_MS } from './server-monitor-page';

type Translate = ReturnType<typeof useDatabaseMonitorMessages>;

const ORDER_LABELS: Record<StatementOrder, Parameters<Translate>[0]> = {
  totalMs: 'druid.totalTime',
  count: 'druid.count',
  maxMs: 'druid.maxTime',
  errors: 'druid.errors',
  rows: 'druid.rows',
};

function Facts({ data, t }: { data: DatabaseMonitor; t: Translate }) {
  const card = (title: string, items: Array<[string, string | number]>) => (
    <Card title={title} size="small" style={{ height: '100%' }}>
      <Descriptions column={1} size="small" items={items.map(([label, value]) => ({ key: label, label, children: value }))} />
    </Card>
  );
  const ms = (value: number) => t('druid.ms', { value: value.toLocaleString(undefined, { maximumFractionDigits: 1 }) });
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={8}>
        {card(t('druid.engine'), [
          [t('druid.dialect'), data.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'],
          [t('druid.version'), data.version],
          [t('druid.size'), data.size],
        ])}
      </Col>
      <Col xs={24} lg={8}>
        {data.sqlite
          ? card('SQLite', [
              [t('druid.journalMode'), data.sqlite.journalMode.toUpperCase()],
              [t('druid.pageSize'), `${data.sqlite.pageSize} B`],
              [t('druid.cacheSize'), data.sqlite.cacheBytes],
              [t('druid.walFile'), data.sqlite.walFileSize],
              [t('druid.walFrames'), data.sqlite.walFrames],
              [t('druid.autoCheckpoint'), data.sqlite.autoCheckpoint],
            ])
          : card(t('druid.pool'), [
              [t('druid.poolSize'), `${data.pool?.size ?? 0} / ${data.pool?.max ?? 0}`],
              [t('druid.poolIdle'), data.pool?.idle ?? 0],
              [t('druid.poolWaiting'), data.pool?.waiting ?? 0],
            ])}
      </Col>
      <Col xs={24} lg={8}>
        {card(t('druid.totals', { since: data.since }), [
          [t('druid.distinct'), data.totals.statements],
          [t('druid.runs'), data.totals.count],
          [t('druid.errors'), data.totals.errors],
          [t('druid.totalTime'), ms(data.totals.totalMs)],
          [t('druid.rows'), data.totals.rows],
        ])}
      </Col>
    </Row>
  );
}

function Statements({ data, t }: { data: DatabaseMonitor; t: Translate }) {
  const ms = (value: number) => value.toLocaleString(undefined, { maximumFractionDigits: 3 });
  return (
    <Table<StatementFigures>
      size="small"
      rowKey="sql"
      dataSource={data.statements}
      pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
      // The statement takes what the figures leave, at least 360 px: on a narrow screen the table scrolls.
      scroll={{ x: 1140 }}
      columns={[
        {
          key: 'sql',
          title: t('druid.sql'),
          dataIndex: 'sql',
          render: (text: string) => (
            <Typography.Paragraph code copyable ellipsis={{ rows: 2, expandable: true }} style={{ marginBottom: 0, wordBreak: 'break-all' }}>
              {text}
            </Typography.Paragraph>
          ),
        },
        { key: 'count', title: t('druid.count'), dataIndex: 'count', width: 70, align: 'right' },
        { key: 'errors', title: t('druid.errors'), dataIndex: 'errors', width: 64, align: 'right', render: (value: number) => (value > 0 ? <Typography.Text type="danger">{value}</Typography.Text> : value) },
        { key: 'totalMs', title: `${t('druid.totalTime')} (ms)`, dataIndex: 'totalMs', width: 96, align: 'right', render: ms },
        { key: 'maxMs', title: `${t('druid.maxTime')} (ms)`, dataIndex: 'maxMs', width: 90, align: 'right', render: ms },
        { key: 'avgMs', title: `${t('druid.avgTime')} (ms)`, dataIndex: 'avgMs', width: 90, align: 'right', render: ms },
        { key: 'rows', title: t('druid.rows'), dataIndex: 'rows', width: 70, align: 'right' },
        {
          key: 'lastParameters',
          title: t('druid.lastParameters'),
          dataIndex: 'lastParameters',
          width: 150,
          // One line: a statement with many parameters would make its row as tall as the list.
          render: (parameters: string[]) => (
            <Typography.Text type="secondary" ellipsis={{ tooltip: parameters.join(', ') }} style={{ width: 130 }}>
              {parameters.join(', ')}
            </Typography.Text>
          ),
        },
        { key: 'lastRunAt', title: t('druid.lastRun'), dataIndex: 'lastRunAt', width: 150 },
      ]}
    />
  );
}

/**
 * The database monitor (`/druid/index.html` and the menu's `monitor/sql/index`: Druid's, for our
 * database): the engine's facts and the statements counted by the server since its start or the
 * last reset, polled every 5 s like the server's monitor.
 */
export default function DatabaseMonitorPage() {
  const t = useDatabaseMonitorMessages();
  const tm = useMonitorMessages();
  const queryClient = useQueryClient();
  const [autoRefresh, setAutoRefresh] = useState(true);
  const [sort, setSort] = useState<StatementOrder>('totalMs');
  const { data, error, isFetching, refetch } = useQuery(databaseMonitorQuery(sort, autoRefresh ? REFRESH_INTERVAL_MS : false));
  const reset = useMutation({
    mutationFn: resetStatementCounters,
    onSuccess: async () => {
      showToast(t('druid.resetDone'), 'success');
      await queryClient.invalidateQueries({ queryKey: databaseMonitorKeys.all });
    },
  });

  return (
    <Flex vertical gap={16} className="database-monitor-page">
      <Card size="small">
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Flex align="center" gap={8} wrap>
            <Switch checked={autoRefresh} onChange={setAutoRefresh} aria-label={tm('monitor.autoRefresh', { seconds: REFRESH_INTERVAL_MS / 1000 })} />
            <span>{tm('monitor.autoRefresh', { seconds: REFRESH_INTERVAL_MS / 1000 })}</span>
            <Button icon={<ReloadOutlined spin={isFetching} />} onClick={() => void refetch()}>
              {tm('monitor.refresh')}
            </Button>
            <Permission roles={['monitor:reset']}>
              <Popconfirm title={t('druid.resetConfirm')} onConfirm={() => reset.mutate()}>
                <Button danger loading={reset.isPending}>
                  {t('druid.reset')}
                </Button>
              </Popconfirm>
            </Permission>
          </Flex>
          {data && <Typography.Text type="secondary">{tm('monitor.serverTime', { time: data.time })}</Typography.Text>}
        </Flex>
      </Card>
      {error && <Alert type="error" showIcon title={tm('monitor.failed', { message: error.message })} description={data ? tm('monitor.stale') : undefined} />}
      {data ? (
        <>
          <Facts data={data} t={t} />
          {!data.collecting && <Alert type="info" showIcon title={t('druid.off')} />}
          {data.untracked.count > 0 && (
            <Alert type="warning" showIcon title={t('druid.untracked', { max: data.maxStatements, statements: data.untracked.statements, count: data.untracked.count })} />
          )}
          <Card
            size="small"
            title={t('druid.statements')}
            extra={
              <Flex align="center" gap={8} wrap>
                <span>{t('druid.sortBy')}</span>
                <Segmented<StatementOrder>
                  size="small"
                  value={sort}
                  onChange={setSort}
                  options={STATEMENT_ORDERS.map((order) => ({ value: order, label: t(ORDER_LABELS[order]) }))}
                />
              </Flex>
            }
          >
            <Statements data={data} t={t} />
          </Card>
        </>
      ) : (
        !error && <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </Flex>
  );
}
