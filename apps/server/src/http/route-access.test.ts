import { isPermission } from '@cloud-classroom/shared/permission';
import Fastify, { type FastifyInstance, type HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../test/test-app.js';
import { enforceRouteAccess, type RouteAccess } from './route-access.js';

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
      const response = await app.inject({ method: route.method as HTTPMethods, url: concrete(route.url) });
      if (response.statusCode !== 401) open.push(`${route.method} ${route.url} → ${response.statusCode}`);
    }
    expect(open).toEqual([]);
  });

  it('answers 403 to a learner when it needs a permission or an administrator', async () => {
    const open: string[] = [];
    for (const route of app.apiRoutes) {
      if (!('permissions' in route.access || 'admin' in route.access) || route.method === 'HEAD') continue;
      const response = await app.inject({
        method: route.method as HTTPMethods,
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
      const response = await app.inject({ method: route.method as HTTPMethods, url: concrete(route.url), headers: { authorization: teacher } });
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
    expect(publicRoutes).toEqual(['DELETE /auth/logout', 'GET /api/health', 'GET /auth/code', 'POST /auth/login']);
  });
});

describe('the token cookie', () => {
  it('is taken by GET routes only: a write declaring it stops the app from building', async () => {
    const app = Fastify();
    enforceRouteAccess(app, { sessions: {} as never, permissionsOf: async () => [] });
    expect(() => app.post('/api/things', { config: { access: { authenticated: true }, tokenCookie: true } }, async () => 'x')).toThrow(
      /only GET routes may/,
    );
    app.get('/api/things', { config: { access: { authenticated: true }, tokenCookie: true } }, async () => 'x');
    await app.close();
  });
});
