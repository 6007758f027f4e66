import type { Dept, DeptCreate, DeptTree, DeptUpdate } from '@cloud-classroom/shared/depts';
import { queryOptions } from '@tanstack/react-query';
import type { Page } from '@cloud-classroom/shared/http';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';

/** The pageQuerySchema maximum: one request brings every child of a department. */
const ALL = 9999;

export const deptsKeys = { all: ['depts'] as const };

/** Unfiltered, the top level (of the caller's data scope) a page at a time; filtered, matches at any level. */
export const deptList = listQuery<Dept>(deptsKeys.all, 'api/dept');

/** The children of `pid`; none gives the top level (of the caller's data scope). */
async function fetchDeptChildren(pid: number | undefined, signal?: AbortSignal): Promise<Dept[]> {
  const page = await http.get<Page<Dept>>('api/dept', { pid, page: 0, size: ALL, sort: 'deptSort,asc' }, { signal });
  return page.content;
}

export const deptChildrenQuery = (pid: number) =>
  queryOptions({ queryKey: [...deptsKeys.all, 'children', pid], queryFn: ({ signal }) => fetchDeptChildren(pid, signal) });

/**
 * The parent picker's tree: around the department being edited, leaving it and everything below
 * it out; the top level when adding.
 */
export const deptParentsQuery = (deptId: number | undefined) =>
  queryOptions<(Dept | DeptTree)[]>({
    queryKey: [...deptsKeys.all, 'superior', deptId ?? null],
    queryFn: ({ signal }) =>
      deptId === undefined
        ? fetchDeptChildren(undefined, signal)
        : http.post<DeptTree[]>('api/dept/superior', [deptId], { query: { exclude: true }, signal }),
  });

export function createDept(body: DeptCreate, options?: CallOptions): Promise<void> {
  return http.post('api/dept', body, options);
}

export function updateDept(body: DeptUpdate, options?: CallOptions): Promise<void> {
  return http.put('api/dept', body, options);
}
