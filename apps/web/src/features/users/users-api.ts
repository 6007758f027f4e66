import type { Dept, DeptTree } from '@cloud-classroom/shared/depts';
import type { Page } from '@cloud-classroom/shared/http';
import { bestLevel, type Standing } from '@cloud-classroom/shared/role-level';
import type {
  ResetPassword,
  ResetPasswordResult,
  User,
  UserCreate,
  UserCreated,
  UserUpdate,
} from '@cloud-classroom/shared/users';
import { http } from '../../lib/http-client';

export const USERS_PATH = 'api/users';
/** The list's query key; the dept tree and role options hang below it so one invalidation reloads all. */
export const USERS_KEY = 'users';

export const createUser = (body: UserCreate) => http.post<UserCreated>(USERS_PATH, body);
export const updateUser = (body: UserUpdate) => http.put(USERS_PATH, body);

/** Answers the generated passwords when none is given; nothing (204) when one is set. */
export const resetPasswords = (body: ResetPassword) => http.put<ResetPasswordResult | undefined>(`${USERS_PATH}/resetPwd`, body);

// Department lists are paged like every list; a tree level is never near this many.
const WHOLE_LEVEL = { size: 9999, sort: ['deptSort,asc', 'id,asc'] } as const;

/** Top-level departments (within the caller's data scope) without `pid`, else the children of `pid`. */
export const fetchDeptLevel = (pid?: number) =>
  http.get<Page<Dept>>('api/dept', { ...WHOLE_LEVEL, pid }).then((page) => page.content);

/** Departments whose name matches, at any depth. */
export const searchDepts = (name: string) =>
  http.get<Page<Dept>>('api/dept', { ...WHOLE_LEVEL, name }).then((page) => page.content);

/** The tree opened down to each given department: its siblings and its ancestors' siblings. */
export const fetchDeptSuperior = (ids: readonly number[]) => http.post<DeptTree[]>('api/dept/superior', ids);

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
