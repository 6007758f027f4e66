import type { OnlineSession } from '@cloud-classroom/shared/online';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Log } from '@cloud-classroom/shared/logs';
import type { ServerMonitor } from '@cloud-classroom/shared/monitor';
import type { User } from '@cloud-classroom/shared/users';
import type { Page } from '@cloud-classroom/shared/http';
import { http } from '../../lib/http-client';

// Only the count is wanted: one row keeps the answer small.
const ONE = { page: 0, size: 1 } as const;

export const RECENT_LOG_COUNT = 8;

/*
 * The keys start with the list's own query key, so a write on the users, online or logs page
 * (which invalidates its list key) also refreshes the figure here.
 */
export const dashboardKeys = {
  users: ['users', 'dashboard-count'] as const,
  online: ['online', 'dashboard-count'] as const,
  errors: ['error-logs', 'dashboard-count'] as const,
  today: ['logs', 'dashboard-today'] as const,
  recent: (scope: RecentScope) => ['logs', 'dashboard-recent', scope] as const,
  monitor: ['monitor', 'dashboard'] as const,
};

export const fetchUserCount = async () => (await http.get<Page<User>>('api/users', ONE)).totalElements;

export const fetchOnlineCount = async () => (await http.get<Page<OnlineSession>>('auth/online', ONE)).totalElements;

export const fetchErrorLogCount = async () => (await http.get<Page<Log>>('api/logs/error', ONE)).totalElements;

/** Operations recorded since local midnight. */
export async function fetchTodayOperationCount(now: Date = new Date()): Promise<number> {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const createTime = [formatDateTime(midnight), formatDateTime(now)];
  return (await http.get<Page<Log>>('api/logs', { ...ONE, createTime })).totalElements;
}

/** 'all': everyone's (needs log:list); 'mine': the caller's own, which every signed-in user may read. */
export type RecentScope = 'all' | 'mine';

export const fetchRecentLogs = async (scope: RecentScope) =>
  (
    await http.get<Page<Log>>(scope === 'all' ? 'api/logs' : 'api/logs/user', {
      page: 0,
      size: RECENT_LOG_COUNT,
      sort: 'createTime,desc',
    })
  ).content;

export const fetchServerSnapshot = () => http.get<ServerMonitor>('api/monitor');
