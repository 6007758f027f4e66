import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../test/test-app.js';
import { trustedProxies } from './client-address.js';

describe('trustedProxies', () => {
  it.each([
    [[], '10.0.0.1', false],
    [['10.0.0.1'], '10.0.0.1', true],
    [['10.0.0.1'], '10.0.0.2', false],
    [['10.0.0.0/8'], '::ffff:10.20.30.40', true],
    [['172.16.0.0/12'], '172.32.0.1', false],
    [['fd00::/8'], 'fd12::1', true],
    [['loopback'], '127.0.0.1', true],
    [['loopback'], '::1', true],
    [['uniquelocal'], '192.168.1.9', true],
    [['uniquelocal'], '8.8.8.8', false],
    [['10.0.0.0/8'], undefined, false],
  ] as const)('%j trusts %s: %s', (entries, address, trusted) => {
    expect(trustedProxies(entries)(address)).toBe(trusted);
  });
});

describe("the client's address", () => {
  let app: FastifyInstance;
  afterEach(async () => {
    await app?.close();
  });

  async function appBehind(trustProxy: string[]): Promise<(remoteAddress: string, headers?: Record<string, string>) => Promise<string>> {
    app = await buildTestApp({ trustProxy });
    app.get('/api/test/address', { config: { access: { public: true } } }, async (request) => ({ ip: request.ip }));
    return async (remoteAddress, headers = {}) => (await app.inject({ method: 'GET', url: '/api/test/address', remoteAddress, headers })).json<{ ip: string }>().ip;
  }

  it('is the peer when no proxy is trusted, whatever the headers say', async () => {
    const addressOf = await appBehind([]);
    expect(await addressOf('198.51.100.4', { 'x-forwarded-for': '1.2.3.4', 'x-real-ip': '5.6.7.8' })).toBe('198.51.100.4');
  });

  it("is the right-most address a trusted proxy did not add, never what the client wrote before it", async () => {
    const addressOf = await appBehind(['10.0.0.0/24', '10.1.0.5']);
    expect(await addressOf('10.0.0.2', { 'x-forwarded-for': '203.0.113.7' })).toBe('203.0.113.7');
    // A client that writes its own header: the proxy appends the real peer, which is what counts.
    expect(await addressOf('10.0.0.2', { 'x-forwarded-for': '1.1.1.1, 203.0.113.7' })).toBe('203.0.113.7');
    // Two trusted hops (a load balancer before nginx).
    expect(await addressOf('10.0.0.2', { 'x-forwarded-for': '203.0.113.7, 10.1.0.5' })).toBe('203.0.113.7');
    // An untrusted peer's header is not believed.
    expect(await addressOf('198.51.100.4', { 'x-forwarded-for': '203.0.113.7' })).toBe('198.51.100.4');
  });

  it('takes X-Real-IP from a trusted proxy that sends no X-Forwarded-For', async () => {
    const addressOf = await appBehind(['10.0.0.2']);
    expect(await addressOf('10.0.0.2', { 'x-real-ip': '203.0.113.8' })).toBe('203.0.113.8');
    expect(await addressOf('10.0.0.2', { 'x-real-ip': 'not an address' })).toBe('10.0.0.2');
    expect(await addressOf('10.0.0.2', { 'x-real-ip': '203.0.113.8', 'x-forwarded-for': '203.0.113.9' })).toBe('203.0.113.9');
    expect(await addressOf('10.0.0.3', { 'x-real-ip': '203.0.113.8' })).toBe('10.0.0.3');
  });

  it('is what the sessions and the audit log record', async () => {
    app = await buildTestApp({ trustProxy: ['10.0.0.2'] });
    const response = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { username: 'learner1', password: 'test-password-1' },
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(response.statusCode).toBe(200);
    await loginAs(app, 'admin');
    const db = app.services.database.db;
    const sessions = await db.selectFrom('sys_session').innerJoin('sys_user', 'sys_user.id', 'sys_session.user_id').select(['username', 'ip']).execute();
    expect(sessions.find((session) => session.username === 'learner1')?.ip).toBe('203.0.113.7');
    await app.auditLogSettled();
    const logged = await db.selectFrom('sys_log').select('request_ip').where('description', '=', '用户登录').execute();
    expect(logged.map((row) => row.request_ip)).toContain('203.0.113.7');
  });
});
