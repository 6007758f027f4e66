import type { TrainingDashboard } from '@cloud-classroom/shared/dashboard';
import type { OnlineSession } from '@cloud-classroom/shared/online';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Log } from '@cloud-classroom/shared/logs';
import type { ServerMonitor } from '@cloud-classroom/shared/monitor';
import type { User } from '@cloud-classroom/shared/users';
import { queryOptions } from '@tanstack/react-query';
import type { Page } from '@cloud-classroom/shared/http';
import { http } from '../../lib/http-client';
import { logsKeys } from '../logs/logs-api';
import { monitorKeys } from '../monitor/monitor-api';
import { onlineKeys } from '../online/online-api';
import { usersKeys } from '../users/users-api';

// Only the count is wanted: one row keeps the answer small.
const ONE = { page: 0, size: 1 } as const;

export const RECENT_LOG_COUNT = 8;

/** 'all': everyone's (needs log:list); 'mine': the caller's own, which every signed-in user may read. */
export type RecentScope = 'all' | 'mine';

/*
 * The keys start with the list's own key, so a write on the users, online or logs page (which
 * reloads its list by that key) also refreshes the figure here.
 */
export const dashboardKeys = {
  users: [...usersKeys.all, 'dashboard-count'] as const,
  online: [...onlineKeys.all, 'dashboard-count'] as const,
  errors: [...logsKeys.errors, 'dashboard-count'] as const,
  today: [...logsKeys.all, 'dashboard-today'] as const,
  recent: (scope: RecentScope) => [...logsKeys.all, 'dashboard-recent', scope] as const,
  monitor: [...monitorKeys.all, 'dashboard'] as const,
  training: (days: number) => ['dashboard', 'training', days] as const,
};

export const userCountQuery = () =>
  queryOptions({ queryKey: dashboardKeys.users, queryFn: async () => (await http.get<Page<User>>('api/users', ONE)).totalElements });

export const onlineCountQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.online,
    queryFn: async () => (await http.get<Page<OnlineSession>>('auth/online', ONE)).totalElements,
  });

export const errorLogCountQuery = () =>
  queryOptions({ queryKey: dashboardKeys.errors, queryFn: async () => (await http.get<Page<Log>>('api/logs/error', ONE)).totalElements });

/** Operations recorded since local midnight. */
export async function fetchTodayOperationCount(now: Date = new Date()): Promise<number> {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const createTime = [formatDateTime(midnight), formatDateTime(now)];
  return (await http.get<Page<Log>>('api/logs', { ...ONE, createTime })).totalElements;
}

export const todayOperationCountQuery = () => queryOptions({ queryKey: dashboardKeys.today, queryFn: () => fetchTodayOperationCount() });

export const recentLogsQuery = (scope: RecentScope) =>
  queryOptions({
    queryKey: dashboardKeys.recent(scope),
    queryFn: async () =>
      (
        await http.get<Page<Log>>(scope === 'all' ? 'api/logs' : 'api/logs/user', {
          page: 0,
          size: RECENT_LOG_COUNT,
          sort: 'createTime,desc',
        })
      ).content,
  });

/** The server card's figures, polled every `interval` ms. */
export const serverSnapshotQuery = (interval: number) =>
  queryOptions({ queryKey: dashboardKeys.monitor, queryFn: () => http.get<ServerMonitor>('api/monitor'), refetchInterval: interval });

/** The training figures over the last `days` days (the charts' span), within the caller's data scope. */
export const trainingQuery = (days: number) =>
  queryOptions({ queryKey: dashboardKeys.training(days), queryFn: () => http.get<TrainingDashboard>('api/dashboard/training', { days }) });
