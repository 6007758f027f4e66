import { formatDateTime } from '@cloud-classroom/shared/display';
import type { TimeRange } from '@cloud-classroom/shared/http';
import type { Log, LogQuery, LogType } from '@cloud-classroom/shared/logs';
import type { Insertable, Kysely } from 'kysely';
import { contains, countRows, within } from '../../db/list-filters.js';
import type { Database, LogTable } from '../../db/schema.js';

export async function insertLog(db: Kysely<Database>, entry: Insertable<LogTable>): Promise<void> {
  await db.insertInto('sys_log').values(entry).execute();
}

const LOG_COLUMNS = {
  id: 'id',
  username: 'username',
  description: 'description',
  method: 'method',
  logType: 'log_type',
  status: 'status',
  requestIp: 'request_ip',
  browser: 'browser',
  time: 'time',
  createTime: 'create_time',
} as const satisfies Record<LogQuery['sort'][number]['field'], keyof LogTable>;

export type LogFilter = {
  logType: LogType;
  /** Only this user's entries. */
  username?: string | undefined;
  blurry?: string | undefined;
  createTime?: TimeRange | undefined;
};

function logsMatching(db: Kysely<Database>, { logType, username, blurry, createTime }: LogFilter) {
  let query = db.selectFrom('sys_log').where('log_type', '=', logType);
  if (username !== undefined) query = query.where('username', '=', username);
  if (blurry) query = query.where(contains(['username', 'description', 'method', 'params', 'request_ip'], blurry));
  if (createTime !== undefined) query = query.where(within('create_time', createTime));
  return query;
}

/** Entries matching the filter in the given order (newest first by default); one page of them when paged. */
export async function findLogs(
  db: Kysely<Database>,
  filter: LogFilter,
  sort: LogQuery['sort'],
  paging?: { page: number; size: number },
): Promise<Log[]> {
  // The stack trace stays out of lists: it can be long, and only administrators read it.
  let query = logsMatching(db, filter).select([
    'id',
    'username',
    'description',
    'method',
    'params',
    'log_type',
    'status',
    'request_ip',
    'browser',
    'time',
    'create_time',
  ]);
  for (const { field, direction } of sort) query = query.orderBy(LOG_COLUMNS[field], direction);
  query = query.orderBy('id', 'desc');
  if (paging !== undefined) query = query.limit(paging.size).offset(paging.page * paging.size);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    description: row.description,
    method: row.method,
    params: row.params,
    logType: row.log_type,
    status: row.status,
    requestIp: row.request_ip,
    browser: row.browser,
    time: row.time,
    createTime: formatDateTime(row.create_time),
  }));
}

export async function countLogs(db: Kysely<Database>, filter: LogFilter): Promise<number> {
  return countRows(logsMatching(db, filter));
}

/** The stack trace of an ERROR entry: undefined when there is no such entry, null when none was kept. */
export async function findExceptionDetail(db: Kysely<Database>, id: number): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('sys_log')
    .select('exception_detail')
    .where('id', '=', id)
    .where('log_type', '=', 'ERROR')
    .executeTakeFirst();
  return row?.exception_detail;
}

export async function deleteLogsOfType(db: Kysely<Database>, logType: LogType): Promise<void> {
  await db.deleteFrom('sys_log').where('log_type', '=', logType).execute();
}
