import type { DatabaseMonitor, ServerMonitor, StatementOrder } from '@cloud-classroom/shared/monitor';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../lib/http-client';

export const monitorKeys = { all: ['monitor'] as const, server: ['monitor', 'server'] as const };

/**
 * `GET api/monitor` for the monitor page, polled every `interval` ms (false: held still).
 * Silent: a server that stopped answering would otherwise raise a new notification every few
 * seconds; the page shows the failure in place instead.
 */
export const serverMonitorQuery = (interval: number | false) =>
  queryOptions({
    queryKey: monitorKeys.server,
    queryFn: ({ signal }) => http.get<ServerMonitor>('api/monitor', undefined, { signal, silent: true }),
    refetchInterval: interval,
    // TanStack Query stops the interval for hidden tabs and on unmount.
    refetchIntervalInBackground: false,
  });

export const databaseMonitorKeys = { all: ['monitor', 'database'] as const };

/** `GET api/monitor/database`: the engine's facts and the statements counted, slowest total first. */
export const databaseMonitorQuery = (sort: StatementOrder, interval: number | false) =>
  queryOptions({
    queryKey: [...databaseMonitorKeys.all, sort] as const,
    queryFn: ({ signal }) => http.get<DatabaseMonitor>('api/monitor/database', { sort, limit: 100 }, { signal, silent: true }),
    refetchInterval: interval,
    refetchIntervalInBackground: false,
  });

/** `DELETE api/monitor/database/statements`: counting starts again from now. */
export const resetStatementCounters = () => http.delete('api/monitor/database/statements');
