import type { ServerMonitor } from '@cloud-classroom/shared/monitor';
import { http } from '../../lib/http-client';

export const monitorKeys = { server: ['monitor', 'server'] as const };

/**
 * Silent: the page polls, so a server that stopped answering would otherwise raise a new
 * notification every few seconds; the page shows the failure in place instead.
 */
export const fetchServerMonitor = (signal?: AbortSignal) => http.get<ServerMonitor>('api/monitor', undefined, { signal, silent: true });
