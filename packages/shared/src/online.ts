import { z } from 'zod';
import { pageQuerySchema } from './http.js';

export const onlineSessionSchema = z.object({
  /** The session id: what `DELETE auth/online` takes to end it. */
  key: z.string(),
  userName: z.string(),
  nickName: z.string(),
  dept: z.string().nullable(),
  browser: z.string(),
  ip: z.string(),
  loginTime: z.string(),
  lastSeenTime: z.string(),
});
export type OnlineSession = z.infer<typeof onlineSessionSchema>;

/** `GET auth/online` and its download: `username` matches part of the user name or the nick name. */
export const onlineQuerySchema = pageQuerySchema.pick({ page: true, size: true }).extend({
  username: z.string().trim().max(64).optional(),
});
export type OnlineQuery = z.output<typeof onlineQuerySchema>;

/** `DELETE auth/online`: the keys of the sessions to end. */
export const onlineKeysSchema = z.array(z.string().min(1).max(64)).min(1, 'is required').max(1000);
