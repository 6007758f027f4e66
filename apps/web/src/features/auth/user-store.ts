import type { AuthInfo, LoginBody } from '@cloud-classroom/shared/auth';
import { ADMIN_PERMISSION, ROLE_SYSTEM_DEFAULT, TOKEN_COOKIE, tokenCookieExpiryDays } from '@cloud-classroom/shared/constants';
import type { User } from '@cloud-classroom/shared/users';
import Cookies from 'js-cookie';
import { create } from 'zustand';
import { API_BASE } from '../../lib/http-client';
import { deleteLogout, getInfo, postLogin } from './auth-api';

/** SPEC §3's user session: the token lives in its cookie, the rest in memory until the next reload. */
type UserState = {
  token: string | undefined;
  user: User | undefined;
  roles: string[];
  /** Set by a login in this page's life: the shell then fetches the menu tree once. */
  loadMenus: boolean;
  login: (body: LoginBody & { rememberMe: boolean }) => Promise<void>;
  getInfo: () => Promise<void>;
  logout: () => Promise<void>;
  /** Forgets the session without asking the server (401, failed info). */
  resetToken: () => void;
};

export function rolesOf(info: AuthInfo): string[] {
  return info.roles.length === 0 ? [ROLE_SYSTEM_DEFAULT] : info.roles;
}

/**
 * The back office is for users the server grants at least one permission; learners get none
 * (their roles come back empty and become ROLE_SYSTEM_DEFAULT).
 */
export function canUseBackOffice(roles: readonly string[]): boolean {
  return roles.includes(ADMIN_PERMISSION) || roles.some((role) => role !== ROLE_SYSTEM_DEFAULT);
}

export function avatarUrl(user: User | undefined): string | undefined {
  return user?.avatarName ? `${API_BASE}avatar/${encodeURIComponent(user.avatarName)}` : undefined;
}

export const useUserStore = create<UserState>()((set) => ({
  token: Cookies.get(TOKEN_COOKIE),
  user: undefined,
  roles: [],
  loadMenus: false,
  async login({ rememberMe, ...body }) {
    const answer = await postLogin(body);
    Cookies.set(TOKEN_COOKIE, answer.token, { expires: tokenCookieExpiryDays(rememberMe), sameSite: 'strict' });
    set({ token: answer.token, user: answer.user.user, roles: rolesOf(answer.user), loadMenus: true });
  },
  async getInfo() {
    const info = await getInfo();
    set({ user: info.user, roles: rolesOf(info) });
  },
  async logout() {
    // SPEC §4: the local session ends whether or not the server hears about it.
    try {
      await deleteLogout();
    } catch {
      // Already logged out on the server, or unreachable: nothing more to do here.
    }
    useUserStore.getState().resetToken();
  },
  resetToken() {
    Cookies.remove(TOKEN_COOKIE);
    set({ token: undefined, user: undefined, roles: [], loadMenus: false });
  },
}));
