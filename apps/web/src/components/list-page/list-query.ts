import type { Page } from '@cloud-classroom/shared/http';
import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query';
import { http, type Query } from '../../lib/http-client';

/**
 * A paged list as a feature's api file declares it (`export const userList = listQuery<User>(usersKeys.all, 'api/users')`)
 * and `useListPage` reads it. Kept free of antd so the shell can import api files.
 */
export function listQuery<Row>(key: QueryKey, path: string) {
  return {
    /** Every query of this list starts with it: invalidating it reloads the list and whatever hangs below the key. */
    key,
    /** The list endpoint without a leading slash; deletes go to the same path, exports to `<path>/download`. */
    path,
    /** One page of it, with the filter, page, size and sort as the server reads them. */
    page: (params: Query) =>
      queryOptions({
        queryKey: [...key, 'list', params] as const,
        queryFn: ({ signal }) => http.get<Page<Row>>(path, params, { signal }),
        // The table keeps showing the last page while the next loads, instead of flashing empty.
        placeholderData: keepPreviousData,
      }),
  };
}

export type ListQuery<Row> = ReturnType<typeof listQuery<Row>>;
