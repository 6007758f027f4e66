import type { CensusRow, CensusUser } from '@cloud-classroom/shared/census';
import { queryOptions } from '@tanstack/react-query';
import { listQuery } from '../../components/list-page/list-query';
import { downloadFile } from '../../lib/download';
import { http } from '../../lib/http-client';

export const CENSUS_USERS_PATH = 'api/census/users';

/** The census list's menu (0019-census: `census` under the course directory) and the hidden record page. */
export const CENSUS_LIST_PATH = '/course/census';
export const CENSUS_USER_PATH = '/edu/user-census-detail';

/** The days a record or the list counts, `yyyy-MM-dd`; none: the server's defaults. */
export type CensusRange = { from?: string; to?: string };

export const censusKeys = {
  all: ['census'] as const,
  users: ['census', 'users'] as const,
  user: (id: number, range: CensusRange) => ['census', 'user', id, range] as const,
};

/** Filter by `blurry` (username or name), `deptId` (its subtree), `courseId`, `from`/`to` days; sortable by every figure. */
export const censusList = listQuery<CensusRow>(censusKeys.users, CENSUS_USERS_PATH);

/** One person's record over the range (the server's default: the last 30 days). */
export const censusUserQuery = (id: number, range: CensusRange) =>
  queryOptions({
    queryKey: censusKeys.user(id, range),
    queryFn: ({ signal }) => http.get<CensusUser>(`${CENSUS_USERS_PATH}/${id}`, range, { signal }),
    // Another range of the same person keeps the page showing the last one while it loads, not blanking it; another person's never stands in.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === id ? previous : undefined),
  });

/** Saves the record's workbook (a sheet per section) of those days, as the list's export saves its own. */
export const downloadCensusUser = (id: number, range: CensusRange, name: string) => downloadFile(`${CENSUS_USERS_PATH}/${id}/download`, range, name);

/** The record page's address, for the list's name links. */
export const censusUserPath = (id: number) => `${CENSUS_USER_PATH}?id=${id}`;
