import { ReloadOutlined } from '@ant-design/icons';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { ServerMonitor, Usage } from '@cloud-classroom/shared/monitor';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Flex, Progress, Row, Skeleton, Switch, Typography, theme } from 'antd';
import { useState } from 'react';
import { serverMonitorQuery } from './monitor-api';
import { useMonitorMessages } from './monitor-messages';

type MonitorTranslate = ReturnType<typeof useMonitorMessages>;

export const REFRESH_INTERVAL_MS = 5000;

/** The server sends rates as text ("42.1"); anything unreadable counts as 0 rather than breaking the bar. */
function percentOf(rate: string): number {
  const value = Number.parseFloat(rate);
  return Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0;
}

function Gauge({ label, percent, lines, t }: { label: string; percent: number; lines: string[]; t: MonitorTranslate }) {
  const { token } = theme.useToken();
  // Amber from 70 %, red from 90 %: the points where someone should start looking, and act.
  const color = percent >= 90 ? token.colorError : percent >= 70 ? token.colorWarning : token.colorPrimary;
  return (
    <Card title={label} size="small" styles={{ body: { textAlign: 'center' } }}>
      <Progress
        type="dashboard"
        percent={percent}
        strokeColor={color}
        // Without it antd turns a full gauge's text green ("success") under a red ring.
        status="normal"
        format={(value) => `${(value ?? 0).toFixed(1)}%`}
        aria-label={t('monitor.usage', { label })}
      />
      {lines.map((line) => (
        <div key={line}>
          <Typography.Text type="secondary">{line}</Typography.Text>
        </div>
      ))}
    </Card>
  );
}

function usageLines(usage: Usage, t: MonitorTranslate): string[] {
  return [t('monitor.usedOfTotal', { used: usage.used, total: usage.total }), t('monitor.available', { available: usage.available })];
}

function Panels({ data, t }: { data: ServerMonitor; t: MonitorTranslate }) {
  const details = (title: string, items: Array<[string, string | number]>) => (
    <Card title={title} size="small" style={{ height: '100%' }}>
      <Descriptions
        column={1}
        size="small"
        items={items.map(([label, value]) => ({ key: label, label, children: value }))}
      />
    </Card>
  );
  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12} xl={6}>
          <Gauge
            label={t('monitor.cpu')}
            percent={percentOf(data.cpu.used)}
            lines={[`${t('monitor.logical')}: ${data.cpu.logic}`, `${t('monitor.cpuIdle')}: ${data.cpu.idle}%`]}
            t={t}
          />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Gauge label={t('monitor.memory')} percent={percentOf(data.memory.usageRate)} lines={usageLines(data.memory, t)} t={t} />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Gauge label={t('monitor.swap')} percent={percentOf(data.swap.usageRate)} lines={usageLines(data.swap, t)} t={t} />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Gauge label={t('monitor.disk')} percent={percentOf(data.disk.usageRate)} lines={usageLines(data.disk, t)} t={t} />
        </Col>
      </Row>
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col xs={24} lg={12}>
          {details(t('monitor.system'), [
            [t('monitor.os'), data.sys.os],
            [t('monitor.ip'), data.sys.ip],
            [t('monitor.systemUptime'), data.sys.day],
          ])}
        </Col>
        <Col xs={24} lg={12}>
          {details(t('monitor.cpu'), [
            [t('monitor.cpuName'), data.cpu.name],
            [t('monitor.packages'), data.cpu.package],
            [t('monitor.cores'), data.cpu.core],
            [t('monitor.logical'), data.cpu.logic],
            [t('monitor.cpuUsed'), `${data.cpu.used}%`],
            [t('monitor.cpuIdle'), `${data.cpu.idle}%`],
          ])}
        </Col>
        <Col xs={24} lg={12}>
          {details(t('monitor.runtime'), [
            [t('monitor.nodeVersion'), data.process.nodeVersion],
            [t('monitor.pid'), data.process.pid],
            [t('monitor.processUptime'), data.process.uptime],
            [t('monitor.rss'), data.process.rss],
            [t('monitor.heapUsed'), data.process.heapUsed],
          ])}
        </Col>
        <Col xs={24} lg={12}>
          {details(t('monitor.database'), [
            [t('monitor.dialect'), data.database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'],
            [t('monitor.dbVersion'), data.database.version],
            [t('monitor.dbSize'), data.database.size],
          ])}
        </Col>
      </Row>
    </>
  );
}

/**
 * `GET api/monitor`, polled every 5 s while the page is open and the browser tab visible
 * (TanStack Query stops the interval for hidden tabs and on unmount), with a switch to hold still.
 */
export default function ServerMonitorPage() {
  const t = useMonitorMessages();
  const [autoRefresh, setAutoRefresh] = useState(true);
  const { data, error, dataUpdatedAt, isFetching, refetch } = useQuery(serverMonitorQuery(autoRefresh ? REFRESH_INTERVAL_MS : false));

  return (
    <Flex vertical gap={16} className="server-monitor-page">
      <Card size="small">
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Flex align="center" gap={8} wrap>
            <Switch checked={autoRefresh} onChange={setAutoRefresh} aria-label={t('monitor.autoRefresh', { seconds: REFRESH_INTERVAL_MS / 1000 })} />
            <span>{t('monitor.autoRefresh', { seconds: REFRESH_INTERVAL_MS / 1000 })}</span>
            <Button icon={<ReloadOutlined spin={isFetching} />} onClick={() => void refetch()}>
              {t('monitor.refresh')}
            </Button>
          </Flex>
          <Flex gap={16} wrap>
            <Typography.Text type="secondary" aria-live="polite">
              {t('monitor.lastUpdated', { time: dataUpdatedAt === 0 ? t('monitor.never') : formatDateTime(dataUpdatedAt) })}
            </Typography.Text>
            {data && <Typography.Text type="secondary">{t('monitor.serverTime', { time: data.time })}</Typography.Text>}
          </Flex>
        </Flex>
      </Card>
      {error && (
        <Alert
          type="error"
          showIcon
          title={t('monitor.failed', { message: error.message })}
          description={data ? t('monitor.stale') : undefined}
        />
      )}
      {data ? <Panels data={data} t={t} /> : !error && <Skeleton active paragraph={{ rows: 8 }} />}
    </Flex>
  );
}
