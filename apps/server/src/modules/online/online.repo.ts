import type { OnlineSession } from '@cloud-classroom/shared/online';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { mapPage, type Page } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import { contains } from '../../db/list-filters.js';
import { paginate, type ListRequest, type Ordering } from '../../db/paginate.js';
import type { Database } from '../../db/schema.js';

export type OnlineFilter = {
  /** Part of the user name or the nick name. */
  text?: string | undefined;
  now: number;
};

/** Sessions not yet expired, of users still enabled: the ones that still let someone in. */
function liveSessions(db: Kysely<Database>, { text, now }: OnlineFilter) {
  let query = db
    .selectFrom('sys_session as s')
    .innerJoin('sys_user as u', 'u.id', 's.user_id')
    .where('s.expires_at', '>', now)
    .where('u.enabled', '=', 1);
  if (text) query = query.where(contains(['u.username', 'u.nick_name'], text));
  return query;
}

/** Newest login first; the list offers no other order. */
const ORDERING: Ordering<never> = {
  sortable: {},
  byDefault: [['s.created_at', 'desc']],
  tiebreak: [['s.id', 'asc']],
};

/** Live sessions, newest login first; one page of them when paged, else all. */
export async function findOnlineSessions(
  db: Kysely<Database>,
  filter: OnlineFilter,
  paging: Pick<ListRequest, 'page' | 'size'>,
): Promise<Page<OnlineSession>> {
  const page = await paginate(
    liveSessions(db, filter),
    (query) =>
      query
        .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
        .select(['s.id', 's.ip', 's.browser', 's.created_at', 's.last_seen_at', 'u.username', 'u.nick_name', 'd.name as dept_name']),
    ORDERING,
    { page: paging.page, size: paging.size },
  );
  return mapPage(page, (row) => ({
    key: row.id,
    userName: row.username,
    nickName: row.nick_name,
    dept: row.dept_name,
    browser: row.browser,
    ip: row.ip,
    loginTime: formatDateTime(row.created_at),
    lastSeenTime: formatDateTime(row.last_seen_at),
  }));
}

/** The users these sessions belong to, expired or not; keys naming no session are skipped. */
export async function findSessionUserIds(db: Kysely<Database>, keys: readonly string[]): Promise<number[]> {
  if (keys.length === 0) return [];
  const rows = await db.selectFrom('sys_session').select('user_id').distinct().where('id', 'in', [...keys]).execute();
  return rows.map((row) => row.user_id);
}
