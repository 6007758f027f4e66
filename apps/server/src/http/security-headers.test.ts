import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../test/test-app.js';

function writeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-abc.js"></script></body></html>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1);');
  return dir;
}

/** The policy's directives by name, each with its sources. */
function directives(response: LightMyRequestResponse): Map<string, string[]> {
  const header = response.headers['content-security-policy'];
  expect(typeof header, `no Content-Security-Policy on ${response.statusCode} ${response.body.slice(0, 80)}`).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0] !== '')
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

function expectSecurityHeaders(response: LightMyRequestResponse, frameAncestors = "'none'"): void {
  const policy = directives(response);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  // No inline or evaluated script, from anywhere but the app's own origin.
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'self'"]);
  expect(policy.get('frame-ancestors')).toEqual([frameAncestors]);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(response.headers['x-frame-options']).toBe(frameAncestors === "'none'" ? 'DENY' : 'SAMEORIGIN');
}

describe('security headers', () => {
  let app: FastifyInstance;
  let dist: string;
  beforeAll(async () => {
    dist = writeDist();
    app = await buildTestApp({ webDistDir: dist });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('are sent with the app, its assets and a deep link', async () => {
    for (const url of ['/', '/assets/index-abc.js', '/system/user']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expectSecurityHeaders(response);
    }
  });

  it('are sent with API answers and errors of every kind', async () => {
    const token = await loginAs(app, 'admin');
    const answers = [
      await app.inject({ method: 'GET', url: '/api/health' }),
      await app.inject({ method: 'GET', url: '/api/users', headers: { authorization: token } }),
      await app.inject({ method: 'GET', url: '/auth/code' }),
      await app.inject({ method: 'GET', url: '/api/users' }),
      await app.inject({ method: 'GET', url: '/api/no-such-thing' }),
      await app.inject({ method: 'GET', url: '/assets/missing.js' }),
      await app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' }),
      await app.inject({ method: 'POST', url: '/auth/login', payload: { username: 7 } }),
      await app.inject({ method: 'GET', url: '/v3/api-docs' }),
    ];
    expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 200, 401, 404, 404, 400, 400, 200]);
    for (const response of answers) expectSecurityHeaders(response);
  });

  it('let the back office frame Swagger UI, from its own origin only', async () => {
    for (const url of ['/swagger-ui.html', '/swagger-ui/', '/swagger-ui/static/swagger-ui-bundle.js']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeLessThan(400);
      expectSecurityHeaders(response, "'self'");
    }
  });
});
