import { z } from 'zod';
import { createTimeRangeSchema, idTextSchema, pageQuerySchema, sortableBy } from './http.js';

export const LOG_TYPES = ['INFO', 'ERROR'] as const;
export type LogType = (typeof LOG_TYPES)[number];

/** An audit-log entry as the lists show it; an error's stack is only in `GET api/logs/error/{id}`. */
export const logSchema = z.object({
  id: z.number().int(),
  username: z.string().nullable(),
  description: z.string(),
  method: z.string(),
  /** The request's query, path parameters and body as JSON, secrets masked. */
  params: z.string().nullable(),
  logType: z.enum(LOG_TYPES),
  status: z.number().int(),
  requestIp: z.string().nullable(),
  browser: z.string().nullable(),
  /** How long the request took, in milliseconds. */
  time: z.number().int(),
  createTime: z.string(),
});
export type Log = z.infer<typeof logSchema>;

export const LOG_SORT_FIELDS = [
  'id',
  'username',
  'description',
  'method',
  'logType',
  'status',
  'requestIp',
  'browser',
  'time',
  'createTime',
] as const;

/** `GET api/logs`, `api/logs/error`, `api/logs/user` and the downloads; `blurry` matches user, description, method, params or IP. */
export const logQuerySchema = pageQuerySchema.extend({
  blurry: z.string().trim().max(100).optional(),
  createTime: createTimeRangeSchema.optional(),
  sort: sortableBy(LOG_SORT_FIELDS),
});
export type LogQuery = z.output<typeof logQuerySchema>;

export const logIdParamsSchema = z.object({ id: idTextSchema });

export const logExceptionSchema = z.object({ exception: z.string() });
export type LogException = z.infer<typeof logExceptionSchema>;
