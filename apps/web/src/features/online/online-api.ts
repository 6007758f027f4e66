import { http } from '../../lib/http-client';

export const ONLINE_KEY = 'online';
export const ONLINE_PATH = 'auth/online';

/** Ends the sessions with these keys at once; their holders are sent to the login page. */
export const kickOut = (keys: readonly string[]) => http.delete(ONLINE_PATH, keys);
