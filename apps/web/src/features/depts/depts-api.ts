import type { Dept, DeptCreate, DeptTree, DeptUpdate } from '@cloud-classroom/shared/depts';
import type { Page } from '@cloud-classroom/shared/http';
import { http } from '../../lib/http-client';

/** The pageQuerySchema maximum: one request brings every child of a department. */
const ALL = 9999;

/** The children of `pid`; none gives the top level (of the caller's data scope). */
export async function fetchDeptChildren(pid: number | undefined, signal?: AbortSignal): Promise<Dept[]> {
  const page = await http.get<Page<Dept>>('api/dept', { pid, page: 0, size: ALL, sort: 'deptSort,asc' }, { signal });
  return page.content;
}

/** The parent picker's tree around these departments, leaving them and everything below them out. */
export function fetchDeptSuperior(ids: readonly number[]): Promise<DeptTree[]> {
  return http.post<DeptTree[]>('api/dept/superior', ids, { query: { exclude: true } });
}

export function createDept(body: DeptCreate): Promise<void> {
  return http.post('api/dept', body);
}

export function updateDept(body: DeptUpdate): Promise<void> {
  return http.put('api/dept', body);
}
