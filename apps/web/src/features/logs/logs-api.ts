import type { LogException, LogType } from '@cloud-classroom/shared/logs';
import { http } from '../../lib/http-client';

export const LOGS_KEY = 'logs';
export const LOGS_PATH = 'api/logs';
export const ERROR_LOGS_KEY = 'error-logs';
export const ERROR_LOGS_PATH = 'api/logs/error';

/** The stack trace of one error entry; the server shows it to administrators only. */
export const fetchErrorDetail = (id: number) => http.get<LogException>(`${ERROR_LOGS_PATH}/${id}`);

/** Empties one of the two logs (administrators only); the clearing itself is then the first entry. */
export const clearLogs = (type: LogType) => http.delete(`api/logs/del/${type === 'INFO' ? 'info' : 'error'}`);
