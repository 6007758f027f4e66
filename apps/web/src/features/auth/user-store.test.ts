import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttpClient } from '../../lib/http-client';
import { avatarUrl, canUseBackOffice, rolesOf, useUserStore } from './user-store';

const TOKEN_COOKIE = 'TW-PLATFORM-TOEKN';
const DAY_MS = 24 * 60 * 60 * 1000;

const user = {
  id: 1,
  username: 'admin',
  nickName: '管理员',
  gender: '男',
  phone: null,
  email: 'admin@example.com',
  avatarName: 'avatar-1.png',
  enabled: true,
  pwdResetTime: null,
  dept: { id: 2, name: '研发部' },
  roles: [{ id: 1, name: '超级管理员', level: 1, dataScope: '全部' as const }],
  createBy: null,
  updateBy: null,
  createTime: '2026-01-01 00:00:00',
  updateTime: '2026-01-01 00:00:00',
};

let requests: { url: string; init: RequestInit }[] = [];

function answerWith(respond: (url: string) => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return respond(url);
    }),
  );
}

/** Everything js-cookie writes to document.cookie, attributes included. */
function recordCookieWrites(): string[] {
  const writes: string[] = [];
  const native = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
    writes.push(value);
    native?.set?.call(document, value);
  });
  return writes;
}

const state = () => useUserStore.getState();
const loginBody = { username: 'admin', password: 'secret', code: '8', uuid: 'captcha-1' };

describe('user store', () => {
  beforeEach(() => {
    requests = [];
    configureHttpClient({ notifyError: () => {} });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    state().resetToken();
  });

  describe('login', () => {
    it('stores the token in its cookie and the session in the store, and asks for the menus', async () => {
      answerWith(() => Response.json({ token: 'Bearer t1', user: { user, roles: ['admin'], dataScopes: [] } }));
      await state().login({ ...loginBody, rememberMe: false });
      expect(Cookies.get(TOKEN_COOKIE)).toBe('Bearer t1');
      expect(state()).toMatchObject({ token: 'Bearer t1', user: { username: 'admin' }, roles: ['admin'], loadMenus: true });
    });

    it('posts username, password, code and uuid to auth/login, never the remember-me flag', async () => {
      answerWith(() => Response.json({ token: 'Bearer t1', user: { user, roles: ['admin'], dataScopes: [] } }));
      await state().login({ ...loginBody, rememberMe: true });
      expect(requests[0]?.url).toBe('/auth/login');
      expect(requests[0]?.init.method).toBe('POST');
      expect(JSON.parse(String(requests[0]?.init.body))).toEqual(loginBody);
    });

    it('without remember me the token cookie is a session cookie (no expiry)', async () => {
      const writes = recordCookieWrites();
      answerWith(() => Response.json({ token: 'Bearer t1', user: { user, roles: ['admin'], dataScopes: [] } }));
      await state().login({ ...loginBody, rememberMe: false });
      const written = writes.find((value) => value.startsWith(`${TOKEN_COOKIE}=`));
      expect(written).toBeDefined();
      expect(written?.toLowerCase()).not.toContain('expires=');
    });

    it('with remember me the token cookie lasts one day', async () => {
      const writes = recordCookieWrites();
      answerWith(() => Response.json({ token: 'Bearer t1', user: { user, roles: ['admin'], dataScopes: [] } }));
      await state().login({ ...loginBody, rememberMe: true });
      const written = writes.find((value) => value.startsWith(`${TOKEN_COOKIE}=`)) ?? '';
      const expires = /expires=([^;]+)/i.exec(written)?.[1] ?? '';
      const days = (Date.parse(expires) - Date.now()) / DAY_MS;
      expect(days).toBeGreaterThan(0.99);
      expect(days).toBeLessThanOrEqual(1);
    });

    it('gives a user without roles the single role ROLE_SYSTEM_DEFAULT', async () => {
      answerWith(() => Response.json({ token: 'Bearer t2', user: { user, roles: [], dataScopes: [] } }));
      await state().login({ ...loginBody, rememberMe: false });
      expect(state().roles).toEqual(['ROLE_SYSTEM_DEFAULT']);
    });

    it('a refused login rejects with the server message and leaves no session behind', async () => {
      answerWith(() => Response.json({ status: 400, message: '用户名或密码错误' }, { status: 400 }));
      await expect(state().login({ ...loginBody, rememberMe: false })).rejects.toMatchObject({ status: 400, message: '用户名或密码错误' });
      expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined();
      expect(state()).toMatchObject({ token: undefined, roles: [], loadMenus: false });
    });
  });

  describe('getInfo', () => {
    it('fills user and roles, ROLE_SYSTEM_DEFAULT when none', async () => {
      answerWith(() => Response.json({ user, roles: [], dataScopes: [] }));
      await state().getInfo();
      expect(requests[0]?.url).toBe('/auth/info');
      expect(state()).toMatchObject({ user: { id: 1 }, roles: ['ROLE_SYSTEM_DEFAULT'] });
    });
  });

  describe('logout', () => {
    function signedIn() {
      Cookies.set(TOKEN_COOKIE, 'Bearer t3');
      useUserStore.setState({ token: 'Bearer t3', user, roles: ['admin'], loadMenus: true });
    }

    it('tells the server, then clears token, cookie and roles', async () => {
      signedIn();
      answerWith(() => new Response(null, { status: 204 }));
      await state().logout();
      expect(requests.map((request) => [request.init.method, request.url])).toEqual([['DELETE', '/auth/logout']]);
      expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined();
      expect(state()).toMatchObject({ token: undefined, user: undefined, roles: [], loadMenus: false });
    });

    it('clears the session even when the server answers with an error', async () => {
      signedIn();
      answerWith(() => Response.json({ status: 500, message: 'boom' }, { status: 500 }));
      await state().logout();
      expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined();
      expect(state()).toMatchObject({ token: undefined, roles: [] });
    });

    it('clears the session even when the server cannot be reached', async () => {
      signedIn();
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => {
          throw new TypeError('Failed to fetch');
        }),
      );
      await expect(state().logout()).resolves.toBeUndefined();
      expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined();
      expect(state()).toMatchObject({ token: undefined, roles: [] });
    });
  });

  describe('rolesOf, canUseBackOffice, avatarUrl', () => {
    it('rolesOf keeps given roles and defaults an empty list', () => {
      expect(rolesOf({ user, roles: ['user:list'], dataScopes: [] })).toEqual(['user:list']);
      expect(rolesOf({ user, roles: [], dataScopes: [] })).toEqual(['ROLE_SYSTEM_DEFAULT']);
    });

    it.each([
      [['admin'], true],
      [['user:list'], true],
      [['ROLE_SYSTEM_DEFAULT', 'menu:list'], true],
      [['ROLE_SYSTEM_DEFAULT'], false],
      [[], false],
    ])('canUseBackOffice(%j) is %s', (roles, allowed) => {
      expect(canUseBackOffice(roles)).toBe(allowed);
    });

    it('builds the avatar address from the base and the avatar name', () => {
      expect(avatarUrl(user)).toBe('/avatar/avatar-1.png');
      expect(avatarUrl({ ...user, avatarName: 'a b.png' })).toBe('/avatar/a%20b.png');
      expect(avatarUrl({ ...user, avatarName: null })).toBeUndefined();
      expect(avatarUrl(undefined)).toBeUndefined();
    });
  });
});
