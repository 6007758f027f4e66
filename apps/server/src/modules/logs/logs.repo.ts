import { formatDateTime } from '@cloud-classroom/shared/display';
import { mapPage, type Page, type TimeRange } from '@cloud-classroom/shared/http';
import type { Log, LogQuery, LogType } from '@cloud-classroom/shared/logs';
import type { Insertable, Kysely } from 'kysely';
import { contains, within } from '../../db/list-filters.js';
import { paginate, type ListRequest, type Ordering } from '../../db/paginate.js';
import type { Database, LogTable } from '../../db/schema.js';

export async function insertLog(db: Kysely<Database>, entry: Insertable<LogTable>): Promise<void> {
  await db.insertInto('sys_log').values(entry).execute();
}

type LogSortField = LogQuery['sort'][number]['field'];

/** Newest first after the asked order. */
const ORDERING: Ordering<LogSortField> = {
  sortable: {
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
  } satisfies Record<LogSortField, keyof LogTable>,
  nullable: ['username', 'requestIp', 'browser'],
  tiebreak: [['id', 'desc']],
};

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

/** Entries matching the filter in the asked order; one page of them when paged, else all. */
export async function findLogs(db: Kysely<Database>, filter: LogFilter, request: ListRequest): Promise<Page<Log>> {
  // The stack trace stays out of lists: it can be long, and only administrators read it.
  const page = await paginate(
    logsMatching(db, filter),
    (query) =>
      query.select(['id', 'username', 'description', 'method', 'params', 'log_type', 'status', 'request_ip', 'browser', 'time', 'create_time']),
    ORDERING,
    request,
  );
  return mapPage(page, (row) => ({
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
