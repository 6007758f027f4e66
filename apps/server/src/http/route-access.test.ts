import type { FastifyInstance, HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../test/test-app.js';

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

  it('answers 403 to a learner when it needs a permission', async () => {
    const open: string[] = [];
    for (const route of app.apiRoutes) {
      if (!('permissions' in route.access) || route.method === 'HEAD') continue;
      const response = await app.inject({
        method: route.method as HTTPMethods,
        url: concrete(route.url),
        headers: { authorization: learner },
      });
      if (response.statusCode !== 403) open.push(`${route.method} ${route.url} → ${response.statusCode}`);
    }
    expect(open).toEqual([]);
  });

  it('keeps the public ones few and deliberate', () => {
    const publicRoutes = app.apiRoutes
      .filter((route) => 'public' in route.access && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(publicRoutes).toEqual(['DELETE /auth/logout', 'GET /api/health', 'GET /auth/code', 'POST /auth/login']);
  });
});
