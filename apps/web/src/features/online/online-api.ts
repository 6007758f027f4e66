import type { OnlineSession } from '@cloud-classroom/shared/online';
import { listQuery } from '../../components/list-page/list-query';
import { http } from '../../lib/http-client';

const ONLINE_PATH = 'auth/online';

export const onlineKeys = { all: ['online'] as const };

export const onlineList = listQuery<OnlineSession>(onlineKeys.all, ONLINE_PATH);

/** Ends the sessions with these keys at once; their holders are sent to the login page. */
export const kickOut = (keys: readonly string[]) => http.delete(ONLINE_PATH, keys);
