import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorBodySchema } from '@cloud-classroom/shared/http';
import { buildTestApp } from '../test/test-app.js';
import { DomainError, type DomainErrorKind } from '../domain-error.js';
import { toErrorBody } from './error-handler.js';
import { HttpError } from './http-error.js';

describe('errors on the wire', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    app = await buildTestApp();
    const open = { access: { public: true as const } };
    const typed = app.withTypeProvider<ZodTypeProvider>();
    typed.post(
      '/api/test/echo',
      { config: open, schema: { body: z.object({ name: z.string().min(2), tags: z.array(z.string()).optional() }) } },
      async (request) => request.body,
    );
    typed.get(
      '/api/test/page',
      { config: open, schema: { querystring: z.object({ page: z.coerce.number().int().min(0) }) } },
      async (request) => request.query,
    );
    app.get('/api/test/conflict', { config: open }, async () => {
      throw new HttpError(409, 'username: already taken');
    });
    typed.delete(
      '/api/test/ids',
      { config: open, schema: { body: z.array(z.number().int()) } },
      async (request) => request.body,
    );
    app.get('/api/test/duplicate', { config: open }, async () => {
      const db = app.services.database.db;
      const row = { key: 'k', value: 'v', updated_at: 1 };
      await db.insertInto('app_setting').values(row).execute();
      await db.insertInto('app_setting').values(row).execute();
    });
    typed.get(
      '/api/test/domain',
      { config: open, schema: { querystring: z.object({ kind: z.string() }) } },
      async (request) => {
        throw new DomainError(request.query.kind as DomainErrorKind, 'name: says what went wrong');
      },
    );
    app.get('/api/test/crash', { config: open }, async () => {
      throw new Error('connection string postgres://secret@db leaked?');
    });
  });
  afterEach(() => app.close());

  function expectErrorShape(body: unknown, status: number): { message: string } {
    const parsed = errorBodySchema.parse(body);
    expect(parsed.status).toBe(status);
    expect(Math.abs(parsed.timestamp - Date.now())).toBeLessThan(60_000);
    return parsed;
  }

  it.each(['/api/nothing-here', '/auth/nothing-here', '/api', '/api/health/extra?x=1'])('%s is a JSON 404', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(expectErrorShape(response.json(), 404).message).toContain(url.split('?')[0]);
  });

  it.each([
    ['invalid', 400],
    ['unauthenticated', 401],
    ['forbidden', 403],
    ['not-found', 404],
    ['conflict', 409],
    ['too-large', 413],
    ['rate-limited', 429],
    ['unreachable', 502],
    ['disk-full', 507],
  ])('maps a service\'s %s error to %i with its message', async (kind, status) => {
    const response = await app.inject({ method: 'GET', url: `/api/test/domain?kind=${kind}` });
    expect(response.statusCode).toBe(status);
    expect(expectErrorShape(response.json(), status).message).toBe('name: says what went wrong');
  });

  it('refuses a NUL character in any field with 400 naming it, before it reaches the database', async () => {
    const inBody = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { name: 'ab', tags: ['ok', 'a\u0000b'] } });
    expect(inBody.statusCode).toBe(400);
    expect(expectErrorShape(inBody.json(), 400).message).toBe('tags.1: must not contain a NUL character');
    const inQuery = await app.inject({ method: 'GET', url: '/api/test/page?page=%00' });
    expect(expectErrorShape(inQuery.json(), 400).message).toBe('page: must not contain a NUL character');
  });

  it('answers a body nested thousands of levels deep with 400, not a 500 from a stack overflow', async () => {
    const nested = `${'['.repeat(5000)}0${']'.repeat(5000)}`;
    const response = await app.inject({ method: 'POST', url: '/api/test/echo', headers: { 'content-type': 'application/json' }, payload: `{"name": "ab", "tags": ${nested}}` });
    expect(response.statusCode, response.body).toBe(400);
    expect(expectErrorShape(response.json(), 400).message).toBe('body: is nested more than 64 levels deep');
  });

  it('answers a body that is not JSON with 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "ab",',
    });
    expect(response.statusCode).toBe(400);
    expect(expectErrorShape(response.json(), 400).message).toBe('body: is not valid JSON');
  });

  it('names the field that failed validation', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { name: 'a' } });
    expect(response.statusCode).toBe(400);
    expect(expectErrorShape(response.json(), 400).message).toMatch(/^name: /);

    const nested = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { name: 'ab', tags: [1] } });
    expect(expectErrorShape(nested.json(), 400).message).toMatch(/^tags\.0: /);

    const query = await app.inject({ method: 'GET', url: '/api/test/page?page=-1' });
    expect(expectErrorShape(query.json(), 400).message).toMatch(/^page: /);
  });

  it('names the body for an item of a top-level array', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/api/test/ids', payload: [1, 'x'] });
    expect(response.statusCode).toBe(400);
    expect(expectErrorShape(response.json(), 400).message).toMatch(/^body\.1: /);
  });

  it('answers a unique-index race with 409, not 500', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/duplicate' });
    expect(response.statusCode).toBe(409);
    expect(expectErrorShape(response.json(), 409).message).toMatch(/^conflict: /);
  });

  it('names the body when it is missing altogether', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/test/echo' });
    expect(response.statusCode).toBe(400);
    expect(expectErrorShape(response.json(), 400).message).toMatch(/^body: /);
  });

  it('answers a body over the limit with 413', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(response.statusCode).toBe(413);
    expectErrorShape(response.json(), 413);
  });

  it('answers a URL the router cannot read in the one error shape, with the security headers', async () => {
    const badEncoding = await app.inject({ method: 'GET', url: '/api/roles/%E4%B8' });
    expect(badEncoding.statusCode).toBe(400);
    expect(errorBodySchema.parse(badEncoding.json())).toMatchObject({ status: 400, message: 'url: /api/roles/%E4%B8 is not a valid URL' });
    expect(badEncoding.headers['x-content-type-options']).toBe('nosniff');
    expect(badEncoding.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const longParam = await app.inject({ method: 'GET', url: `/api/roles/${'x'.repeat(1000)}` });
    expect(longParam.statusCode).toBe(414);
    expect(errorBodySchema.parse(longParam.json()).message).toBe('url: a path parameter is too long');
  });

  it('passes an HttpError through with its status', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/conflict' });
    expect(response.statusCode).toBe(409);
    expect(expectErrorShape(response.json(), 409).message).toBe('username: already taken');
  });

  // A real full disk, and SQLite's SQLITE_FULL, are in files/disk-full.test.ts.
  it.each([
    ['a quota run out (EDQUOT)', Object.assign(new Error('write failed'), { code: 'EDQUOT' }), "the server's disk is full; nothing was saved"],
    ['a full disk behind another error', new Error('could not store', { cause: Object.assign(new Error('write'), { code: 'ENOSPC' }) }), "the server's disk is full; nothing was saved"],
    ["PostgreSQL's disk full (53100)", Object.assign(new Error('could not extend file'), { code: '53100' }), "the database server's disk is full; nothing was saved"],
  ])('answers %s with 507 in words', (_case, error, message) => {
    expect(toErrorBody(error)).toMatchObject({ status: 507, message });
  });

  it('hides the details of an unexpected failure', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/crash' });
    expect(response.statusCode).toBe(500);
    expect(expectErrorShape(response.json(), 500).message).toBe('internal server error');
    expect(response.body).not.toContain('secret');
  });
});

describe('route access declarations', () => {
  it('refuse an API route that declares no access', async () => {
    const app = await buildTestApp();
    try {
      expect(() => app.get('/api/undeclared', async () => 'open')).toThrow(/declares no access/);
      expect(() => app.get('/auth/undeclared', async () => 'open')).toThrow(/declares no access/);
    } finally {
      await app.close();
    }
  });

  it('lists every API route with its access', async () => {
    const app = await buildTestApp();
    try {
      await app.ready();
      expect(app.apiRoutes).toContainEqual({ method: 'GET', url: '/api/health', access: { public: true } });
      expect(app.apiRoutes.every((route) => route.access !== undefined)).toBe(true);
    } finally {
      await app.close();
    }
  });
});
