import type { Log, LogException, LogType } from '@cloud-classroom/shared/logs';
import { queryOptions } from '@tanstack/react-query';
import { listQuery } from '../../components/list-page/list-query';
import { http } from '../../lib/http-client';

const ERROR_LOGS_PATH = 'api/logs/error';

/**
 * The operation log and the caller's own entries share the first key, so clearing the log (itself
 * an operation) reloads both; the dashboard's figures start with these keys too.
 */
export const logsKeys = {
  all: ['logs'] as const,
  mine: ['logs', 'mine'] as const,
  errors: ['error-logs'] as const,
};

export const logList = listQuery<Log>(logsKeys.all, 'api/logs');
export const errorLogList = listQuery<Log>(logsKeys.errors, ERROR_LOGS_PATH);
/** The caller's own audit entries; every signed-in user may read them. */
export const myLogList = listQuery<Log>(logsKeys.mine, 'api/logs/user');

/** The stack trace of one error entry; the server shows it to administrators only. */
export const errorDetailQuery = (id: number) =>
  queryOptions({
    queryKey: [...logsKeys.errors, 'detail', id],
    queryFn: () => http.get<LogException>(`${ERROR_LOGS_PATH}/${id}`),
    // A stack trace never changes once written.
    staleTime: Infinity,
  });

/** Empties one of the two logs (administrators only); the clearing itself is then the first entry. */
export const clearLogs = (type: LogType) => http.delete(`api/logs/del/${type === 'INFO' ? 'info' : 'error'}`);
