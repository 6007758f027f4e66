import type { Dept, DeptTree } from '@cloud-classroom/shared/depts';
import { bestLevel, type Standing } from '@cloud-classroom/shared/role-level';
import type {
  ResetPassword,
  ResetPasswordResult,
  User,
  UserCreate,
  UserCreated,
  UserUpdate,
} from '@cloud-classroom/shared/users';
import { queryOptions } from '@tanstack/react-query';
import type { Page } from '@cloud-classroom/shared/http';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';
import { fetchAllRoles, fetchRoleLevel } from '../roles/roles-api';

const USERS_PATH = 'api/users';

/**
 * The caller's level and the role options hang below the list's key, so a write on the page,
 * which reloads the list, reloads them too (the dashboard's count starts with it as well).
 */
export const usersKeys = {
  all: ['users'] as const,
  callerLevel: ['users', 'caller-level'] as const,
  roleOptions: ['users', 'role-options'] as const,
};

export const userList = listQuery<User>(usersKeys.all, USERS_PATH);

/** The caller's best role level: users holding a role above it are out of reach. */
export const callerLevelQuery = () => queryOptions({ queryKey: usersKeys.callerLevel, queryFn: fetchRoleLevel });

/** Every role, for the user form's picker. */
export const roleOptionsQuery = () => queryOptions({ queryKey: usersKeys.roleOptions, queryFn: fetchAllRoles });

export const createUser = (body: UserCreate, options?: CallOptions) => http.post<UserCreated>(USERS_PATH, body, options);
export const updateUser = (body: UserUpdate, options?: CallOptions) => http.put(USERS_PATH, body, options);

/** Answers the generated passwords when none is given; nothing (204) when one is set. */
export const resetPasswords = (body: ResetPassword, options?: CallOptions) =>
  http.put<ResetPasswordResult | undefined>(`${USERS_PATH}/resetPwd`, body, options);

// Department lists are paged like every list; a tree level is never near this many.
const WHOLE_LEVEL = { size: 9999, sort: ['deptSort,asc', 'id,asc'] } as const;

/** Top-level departments (within the caller's data scope) without `pid`, else the children of `pid`. */
const fetchDeptLevel = (pid?: number) =>
  http.get<Page<Dept>>('api/dept', { ...WHOLE_LEVEL, pid }).then((page) => page.content);

/** The department pickers' tree (user form, user filter, a role's custom scope). */
export const deptPickerKeys = { all: ['dept-tree'] as const };

/** The top level, or with `openTo` the tree opened down to each of them: their siblings and their ancestors' siblings. */
export const deptPickerRootsQuery = (openTo: readonly number[]) =>
  queryOptions<readonly (Dept | DeptTree)[]>({
    queryKey: [...deptPickerKeys.all, 'roots', openTo],
    queryFn: () => (openTo.length > 0 ? http.post<DeptTree[]>('api/dept/superior', openTo) : fetchDeptLevel()),
  });

/** The children of one department, loaded as it opens. */
export const deptPickerChildrenQuery = (pid: number) =>
  queryOptions({ queryKey: [...deptPickerKeys.all, 'children', pid], queryFn: () => fetchDeptLevel(pid) });

/** Departments whose name matches, at any depth. */
export const deptPickerSearchQuery = (name: string) =>
  queryOptions({
    queryKey: [...deptPickerKeys.all, 'search', name],
    queryFn: () => http.get<Page<Dept>>('api/dept', { ...WHOLE_LEVEL, name }).then((page) => page.content),
  });

/** A user as the update endpoint takes it, with what the row shows (for the enable switch). */
export function toUserUpdate(user: User, changes: Partial<UserUpdate> = {}): UserUpdate {
  return {
    id: user.id,
    username: user.username,
    nickName: user.nickName,
    gender: user.gender === '男' || user.gender === '女' ? user.gender : null,
    phone: user.phone,
    email: user.email,
    enabled: user.enabled,
    dept: { id: user.dept?.id ?? 0 },
    roles: user.roles.map((role) => ({ id: role.id })),
    ...changes,
  };
}

/** A listed user as the level rule (`mayManage`) sees them; the list does not say who is an administrator, the server does. */
export function standingOf(user: Pick<User, 'roles'>): Standing {
  return { isAdmin: false, level: bestLevel(user.roles.map((role) => role.level)) };
}
