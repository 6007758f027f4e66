import {
  DashboardOutlined,
  HistoryOutlined,
  TeamOutlined,
  UserOutlined,
  WarningOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import { DEFAULT_LOCALE, isLocale } from '@cloud-classroom/shared/locale';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { auditDescription } from '@cloud-classroom/shared/audit-messages';
import { timeAgo } from '@cloud-classroom/shared/display';
import type { Log } from '@cloud-classroom/shared/logs';
import { useQuery } from '@tanstack/react-query';
import { Avatar, Button, Card, Col, Empty, Flex, Row, Skeleton, Statistic, Tag } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useCheckPermission } from '../../components/permission';
import { avatarUrl, useUserStore } from '../auth/user-store';
import {
  errorLogCountQuery,
  onlineCountQuery,
  recentLogsQuery,
  serverSnapshotQuery,
  todayOperationCountQuery,
  userCountQuery,
  type RecentScope,
} from './dashboard-api';
import { useDashboardMessages } from './dashboard-messages';
import { TrainingFigures } from './training-figures';
import './dashboard-page.css';

type DashboardTranslate = ReturnType<typeof useDashboardMessages>;

// The server snapshot on the home page is a glance, not the monitor page: a slower pace is enough.
const SERVER_REFRESH_MS = 30_000;

function greetingKey(hour: number) {
  if (hour < 12) return 'dashboard.morning' as const;
  if (hour < 18) return 'dashboard.afternoon' as const;
  return 'dashboard.evening' as const;
}

function WelcomeCard({ t }: { t: DashboardTranslate }) {
  const user = useUserStore((state) => state.user);
  const navigate = useNavigate();
  const [hour] = useState(() => new Date().getHours());
  if (user === undefined) {
    return (
      <Card>
        <Skeleton avatar active paragraph={{ rows: 1 }} />
      </Card>
    );
  }
  return (
    <Card>
      <Flex gap={16} align="center" wrap justify="space-between">
        <Flex gap={16} align="center" style={{ minWidth: 0 }}>
          <Avatar size={64} src={avatarUrl(user)} icon={<UserOutlined />} alt={user.nickName} />
          <div style={{ minWidth: 0 }}>
            <h2 className="dashboard-title">
              {t(greetingKey(hour), { name: user.nickName })}
            </h2>
            <span className="dashboard-secondary">{t('dashboard.welcome')}</span>
            <Flex gap={8} wrap align="center" style={{ marginTop: 8 }}>
              <span className="dashboard-secondary">{t('dashboard.dept')}:</span>
              <span>{user.dept?.name ?? t('dashboard.noDept')}</span>
              <span className="dashboard-secondary">{t('dashboard.roles')}:</span>
              {user.roles.length === 0 ? (
                <span>{t('dashboard.noRoles')}</span>
              ) : (
                user.roles.map((role) => (
                  <Tag key={role.id} color="processing" style={{ marginInlineEnd: 0 }}>
                    {role.name}
                  </Tag>
                ))
              )}
            </Flex>
          </div>
        </Flex>
        <Button icon={<UserOutlined />} onClick={() => void navigate('/user/center')}>
          {t('dashboard.profile')}
        </Button>
      </Flex>
    </Card>
  );
}

type StatCardProps = {
  title: string;
  to: string;
  icon: ReactNode;
  value: number | undefined;
  loading: boolean;
};

/** The whole card is the link, so a tap anywhere on it opens the list behind the figure. */
function StatCard({ title, to, icon, value, loading }: StatCardProps) {
  return (
    <Link to={to} aria-label={value === undefined ? title : `${title}: ${value}`} style={{ display: 'block' }}>
      <Card hoverable>
        <Statistic title={title} value={value ?? '—'} loading={loading} prefix={icon} />
      </Card>
    </Link>
  );
}

function useLocale() {
  const { i18n } = useTranslation();
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

function RecentLogItem({ log, t }: { log: Log; t: DashboardTranslate }) {
  const locale = useLocale();
  return (
    <li style={{ padding: '10px 0', borderBottom: '1px solid rgba(5, 5, 5, 0.06)' }}>
      <Flex justify="space-between" gap={8} wrap>
        <strong className="dashboard-ellipsis">
          {auditDescription(locale, log.description)}
        </strong>
        <span className="dashboard-secondary" title={log.createTime}>
          {timeAgo(log.createTime, locale)}
        </span>
      </Flex>
      <Flex gap={8} wrap align="center">
        <span className="dashboard-secondary dashboard-small">
          {t('dashboard.by', { user: log.username ?? t('dashboard.anonymous'), ip: log.requestIp ?? '—' })}
        </span>
        <span className="dashboard-secondary dashboard-small">
          {t('dashboard.duration', { ms: log.time })}
        </span>
        {log.status >= 400 && (
          <Tag color="red" style={{ marginInlineEnd: 0 }}>
            {t('dashboard.failed')} {log.status}
          </Tag>
        )}
      </Flex>
    </li>
  );
}

function RecentLogsCard({ scope, t }: { scope: RecentScope; t: DashboardTranslate }) {
  const { data, isPending } = useQuery(recentLogsQuery(scope));
  return (
    <Card
      title={
        <span>
          <HistoryOutlined /> {t(scope === 'all' ? 'dashboard.recentAll' : 'dashboard.recentMine')}
        </span>
      }
      extra={<Link to={scope === 'all' ? '/monitor/logs' : '/user/center?tab=logs'}>{t('dashboard.more')}</Link>}
    >
      {isPending ? (
        <Skeleton active />
      ) : (data ?? []).length === 0 ? (
        <Empty description={t('dashboard.noRecent')} />
      ) : (
        <ul aria-label={t(scope === 'all' ? 'dashboard.recentAll' : 'dashboard.recentMine')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {data?.map((log) => <RecentLogItem key={log.id} log={log} t={t} />)}
        </ul>
      )}
    </Card>
  );
}

function UsageLine({ label, percent }: { label: string; percent: number }) {
  return (
    <div>
      <Flex justify="space-between">
        <span>{label}</span>
        <span>{percent.toFixed(1)}%</span>
      </Flex>
      {/* A plain bar rather than antd's Progress, which would weigh on the shell's first route. */}
      <div
        className={`usage-bar${percent >= 90 ? ' usage-bar--high' : ''}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
      >
        <div className="usage-bar__fill" style={{ width: `${Math.max(0, Math.min(100, percent))}%` }} />
      </div>
    </div>
  );
}

function ServerCard({ t }: { t: DashboardTranslate }) {
  const { data, isPending } = useQuery(serverSnapshotQuery(SERVER_REFRESH_MS));
  return (
    <Card
      title={
        <span>
          <DashboardOutlined /> {t('dashboard.server')}
        </span>
      }
      extra={<Link to="/monitor/server">{t('dashboard.details')}</Link>}
    >
      {isPending || data === undefined ? (
        <Skeleton active />
      ) : (
        <Flex vertical gap={12}>
          <UsageLine label={t('dashboard.cpu')} percent={Number(data.cpu.used) || 0} />
          <UsageLine label={t('dashboard.memory')} percent={Number(data.memory.usageRate) || 0} />
          <UsageLine label={t('dashboard.disk')} percent={Number(data.disk.usageRate) || 0} />
          <span className="dashboard-secondary">
            {t('dashboard.uptime')}: {data.process.uptime}
          </span>
        </Flex>
      )}
    </Card>
  );
}

/** Whoever may look at a list the training figures summarise (the route's own access). */
const TRAINING: readonly PermissionCheck[] = ['applicant:list', 'exam:list', 'mark:list', 'cert:list', 'census:list'];

/**
 * The back office home: who is signed in, the training figures first (for those who may read
 * the lists behind them), then the system's figures and what happened lately. Each figure is
 * asked for only when the person may open the list behind it, so a teacher without `user:list`
 * sees no broken card.
 */
export default function DashboardPage() {
  const t = useDashboardMessages();
  const can = useCheckPermission();
  const canUsers = can(['user:list']);
  const canOnline = can(['online:list']);
  const canLogs = can(['log:list']);
  const canMonitor = can(['monitor:list']);
  const canTraining = can(TRAINING);

  const users = useQuery({ ...userCountQuery(), enabled: canUsers });
  const online = useQuery({ ...onlineCountQuery(), enabled: canOnline });
  const today = useQuery({ ...todayOperationCountQuery(), enabled: canLogs });
  const errors = useQuery({ ...errorLogCountQuery(), enabled: canLogs });

  const stats: StatCardProps[] = [];
  if (canUsers) {
    stats.push({ title: t('dashboard.users'), to: '/system/user', icon: <TeamOutlined />, value: users.data, loading: users.isPending });
  }
  if (canOnline) {
    stats.push({ title: t('dashboard.online'), to: '/monitor/online', icon: <WifiOutlined />, value: online.data, loading: online.isPending });
  }
  if (canLogs) {
    stats.push(
      { title: t('dashboard.todayOperations'), to: '/monitor/logs', icon: <HistoryOutlined />, value: today.data, loading: today.isPending },
      { title: t('dashboard.errorLogs'), to: '/monitor/errorLog', icon: <WarningOutlined />, value: errors.data, loading: errors.isPending },
    );
  }

  return (
    <Row gutter={[16, 16]} className="dashboard-page">
      <Col xs={24}>
        <WelcomeCard t={t} />
      </Col>
      {canTraining && (
        <Col xs={24}>
          <TrainingFigures t={t} />
        </Col>
      )}
      {stats.map((stat) => (
        <Col key={stat.to + stat.title} xs={24} sm={12} xl={24 / Math.max(stats.length, 1)}>
          <StatCard {...stat} />
        </Col>
      ))}
      <Col xs={24} lg={canMonitor ? 16 : 24}>
        <RecentLogsCard scope={canLogs ? 'all' : 'mine'} t={t} />
      </Col>
      {canMonitor && (
        <Col xs={24} lg={8}>
          <ServerCard t={t} />
        </Col>
      )}
    </Row>
  );
}
