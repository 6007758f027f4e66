import { TOKEN_COOKIE } from '@cloud-classroom/shared/constants';
import { isPermission } from '@cloud-classroom/shared/permission';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../test/test-app.js';
import { enforceRouteAccess, tokenFromCookie, type RouteAccess } from './route-access.js';

/** The methods inject() takes (light-my-request's list, which lacks fastify's rarer ones such as TRACE). */
type InjectMethod = NonNullable<InjectOptions['method']>;

// Path parameters get a value that parses as an id; the guard answers before anything reads it.
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x');

describe('every API route', () => {
  let app: FastifyInstance;
  let learner: string;
  beforeAll(async () => {
    app = await buildTestApp();
    await app.ready();
    learner = await loginAs(app, 'learner1');
  });
  afterAll(() => app.close());

  it('is listed with its declared access (an undeclared one stops the app from building)', () => {
    expect(app.apiRoutes.length).toBeGreaterThan(60);
  });

  it('answers 401 without a session unless it is public', async () => {
    const open: string[] = [];
    for (const route of app.apiRoutes) {
      if ('public' in route.access || route.method === 'HEAD') continue;
      const response = await app.inject({ method: route.method as InjectMethod, url: concrete(route.url) });
      if (response.statusCode !== 401) open.push(`${route.method} ${route.url} → ${response.statusCode}`);
    }
    expect(open).toEqual([]);
  });

  it('answers 403 to a learner when it needs a permission or an administrator', async () => {
    const open: string[] = [];
    for (const route of app.apiRoutes) {
      if (!('permissions' in route.access || 'admin' in route.access) || route.method === 'HEAD') continue;
      const response = await app.inject({
        method: route.method as InjectMethod,
        url: concrete(route.url),
        headers: { authorization: learner },
      });
      if (response.statusCode !== 403) open.push(`${route.method} ${route.url} → ${response.statusCode}`);
    }
    expect(open).toEqual([]);
  });

  it('answers 403 to a holder of every permission who is no administrator when it is for administrators', async () => {
    const { db } = app.services.database;
    const role = await db.selectFrom('sys_role').select('id').where('name', '=', 'teacher').executeTakeFirstOrThrow();
    const held = await db.selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', role.id).execute();
    const menus = await db.selectFrom('sys_menu').select('id').where('id', 'not in', [0, ...held.map((grant) => grant.menu_id)]).execute();
    await db.insertInto('sys_roles_menus').values(menus.map((menu) => ({ role_id: role.id, menu_id: menu.id }))).execute();
    // log:list among them once opened two of these, whose handlers alone asked for an administrator.
    const teacher = await loginAs(app, 'teacher');
    const adminOnly = app.apiRoutes.filter((route) => 'admin' in route.access && route.method !== 'HEAD');
    expect(adminOnly.map((route) => `${route.method} ${route.url}`).sort()).toEqual([
      'DELETE /api/logs/del/error',
      'DELETE /api/logs/del/info',
      'GET /api/logs/error/:id',
    ]);
    for (const route of adminOnly) {
      const response = await app.inject({ method: route.method as InjectMethod, url: concrete(route.url), headers: { authorization: teacher } });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(response.json()).toMatchObject({ status: 403 });
    }
    const admin = await loginAs(app, 'admin');
    expect((await app.inject({ method: 'DELETE', url: '/api/logs/del/error', headers: { authorization: admin } })).statusCode).toBe(200);
  });

  it('demands only permission codes the product knows, which is all the seeded menus carry', async () => {
    const demanded = app.apiRoutes.flatMap((route) => ('permissions' in route.access ? route.access.permissions : []));
    expect(demanded.filter((code) => !isPermission(code))).toEqual([]);
    const seeded = await app.services.database.db.selectFrom('sys_menu').select('permission').where('permission', 'is not', null).execute();
    expect(seeded.length).toBeGreaterThan(20);
    expect(seeded.map((menu) => menu.permission ?? '').filter((code) => !isPermission(code))).toEqual([]);

    // Checked by the compiler (npm run typecheck): each line below fails to compile without its comment.
    const declared: RouteAccess[] = [
      { permissions: ['user:list', 'roles:edit'] },
      // @ts-expect-error 'usr:list' is no permission code
      { permissions: ['usr:list'] },
      // @ts-expect-error an administrator-only route says { admin: true }, not the 'admin' wildcard
      { permissions: ['admin'] },
      // @ts-expect-error a route that demands permissions names at least one
      { permissions: [] },
    ];
    expect(declared).toHaveLength(4);
  });

  it('keeps the public ones few and deliberate', () => {
    const publicRoutes = app.apiRoutes
      .filter((route) => 'public' in route.access && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(publicRoutes).toEqual([
      'DELETE /auth/logout',
      'GET /api/health',
      'GET /api/health/ready',
      'GET /api/public/certificates/verify',
      'GET /api/public/downloads',
      'GET /api/public/downloads/:id/file',
      'GET /auth/code',
      'POST /auth/login',
    ]);
  });
});

describe('a route that takes its session from the token cookie (what a <video> or <img> loads)', () => {
  let app: FastifyInstance;
  let probe: FastifyInstance;
  let token: string;
  beforeAll(async () => {
    app = await buildTestApp();
    token = await loginAs(app, 'learner1');
    // A bare app with the real guard and the real sessions, holding one route of each kind.
    probe = Fastify();
    enforceRouteAccess(probe, { sessions: app.services.sessions, permissionsOf: (userId) => app.services.access.menuPermissionsOf(userId) });
    probe.get('/api/probe/cookie', { config: { access: { authenticated: true }, sessionCookie: true } }, (request) => ({ user: request.principal?.username }));
    probe.get('/api/probe/header', { config: { access: { authenticated: true } } }, (request) => ({ user: request.principal?.username }));
    await probe.ready();
  });
  afterAll(async () => {
    await probe.close();
    await app.close();
  });

  const cookie = (value: string) => `theme=dark; ${TOKEN_COOKIE}=${encodeURIComponent(value)}; sidebar=1`;

  it('accepts the session from the cookie there, and only there', async () => {
    const fromCookie = await probe.inject({ url: '/api/probe/cookie', headers: { cookie: cookie(token) } });
    expect(fromCookie.json()).toEqual({ user: 'learner1' });
    expect((await probe.inject({ url: '/api/probe/header', headers: { cookie: cookie(token) } })).statusCode).toBe(401);
  });

  it('refuses a missing, forged or ended session in the cookie', async () => {
    expect((await probe.inject({ url: '/api/probe/cookie' })).statusCode).toBe(401);
    expect((await probe.inject({ url: '/api/probe/cookie', headers: { cookie: cookie(`${token}x`) } })).statusCode).toBe(401);
    expect((await probe.inject({ url: '/api/probe/cookie', headers: { cookie: `${TOKEN_COOKIE}=%E0%A4%A` } })).statusCode).toBe(401);
  });

  it('is refused for a write when the app is built', async () => {
    const writer = Fastify();
    enforceRouteAccess(writer, { sessions: app.services.sessions, permissionsOf: async () => [] });
    expect(() => writer.post('/api/probe', { config: { access: { authenticated: true }, sessionCookie: true } }, () => ({}))).toThrow(/only reads may/);
    await writer.close();
  });
});

describe('tokenFromCookie', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['other=1', undefined],
    [`${TOKEN_COOKIE}=Bearer%20abc`, 'Bearer abc'],
    [`a=1;  ${TOKEN_COOKIE} = Bearer%20abc ; b=2`, 'Bearer abc'],
    [`x${TOKEN_COOKIE}=Bearer%20abc`, undefined],
    [`${TOKEN_COOKIE}=%E0%A4%A`, undefined],
  ])('%j → %j', (header, token) => {
    expect(tokenFromCookie(header)).toBe(token);
  });
});
