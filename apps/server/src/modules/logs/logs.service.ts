import type { Log, LogException, LogQuery, LogType } from '@cloud-classroom/shared/logs';
import type { Page } from '@cloud-classroom/shared/http';
import type { Insertable, Kysely } from 'kysely';
import type { Database, LogTable } from '../../db/schema.js';
import { notFound } from '../../domain-error.js';
import { deleteLogsOfType, findExceptionDetail, findLogs, insertLog, type LogFilter } from './logs.repo.js';

/** Which entries a list shows: one type, and only the caller's own when `username` is given. */
export type LogScope = { logType: LogType; username?: string };

export class LogService {
  constructor(private readonly db: Kysely<Database>) {}

  /** Writes one audit entry (`http/audit-log.ts` says what goes in it). */
  async record(entry: Insertable<LogTable>): Promise<void> {
    await insertLog(this.db, entry);
  }

  async page(scope: LogScope, query: LogQuery): Promise<Page<Log>> {
    return findLogs(this.db, filterOf(scope, query), { page: query.page, size: query.size, sort: query.sort });
  }

  /** Every matching entry, unpaged, for the downloads. */
  async all(scope: LogScope, query: LogQuery): Promise<Log[]> {
    return (await findLogs(this.db, filterOf(scope, query), { sort: query.sort })).content;
  }

  async exceptionOf(id: number): Promise<LogException> {
    const detail = await findExceptionDetail(this.db, id);
    if (detail === undefined) throw notFound(`id: no error log with id ${id}`);
    return { exception: detail ?? '' };
  }

  async clear(logType: LogType): Promise<void> {
    await deleteLogsOfType(this.db, logType);
  }
}

function filterOf({ logType, username }: LogScope, { blurry, createTime }: LogQuery): LogFilter {
  return { logType, username, blurry, createTime };
}
