import { serverMonitorSchema } from '@cloud-classroom/shared/monitor';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../../test/test-app.js';
import { formatBytes, formatDuration } from './monitor.service.js';

const SIZE = /^\d+(\.\d)? (B|KiB|MiB|GiB|TiB|PiB)$/;
const RATE = /^\d{1,3}\.\d$/;

describe('GET /api/monitor', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    app = await buildTestApp();
  });
  afterEach(async () => {
    await app.close();
  });

  it('describes the machine, the process and the database', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/monitor', headers: { authorization: await loginAs(app, 'admin') } });
    expect(response.statusCode).toBe(200);
    const body = serverMonitorSchema.parse(response.json());

    expect(body.sys.os).not.toBe('');
    expect(body.sys.day).toMatch(/^(\d+d )?(\d+h )?(\d+m )?\d+s$/);
    expect(body.sys.ip).not.toBe('');
    expect(body.cpu.logic).toBeGreaterThan(0);
    expect(body.cpu.coreNumber).toBe(body.cpu.core);
    expect(body.cpu.core).toBeGreaterThan(0);
    expect(body.cpu.core).toBeLessThanOrEqual(body.cpu.logic);
    expect(body.cpu.package).toBeGreaterThan(0);
    for (const rate of [body.cpu.used, body.cpu.idle]) {
      expect(rate).toMatch(RATE);
      expect(Number(rate)).toBeLessThanOrEqual(100);
    }
    expect(Number(body.cpu.used) + Number(body.cpu.idle)).toBeCloseTo(100, 0);
    for (const usage of [body.memory, body.swap, body.disk]) {
      for (const size of [usage.total, usage.available, usage.used]) expect(size).toMatch(SIZE);
      expect(usage.usageRate).toMatch(RATE);
    }
    expect(body.memory.total).not.toBe('0 B');
    expect(body.disk.total).not.toBe('0 B');
    expect(body.process).toMatchObject({ pid: process.pid, nodeVersion: process.version });
    expect(body.process.rss).toMatch(SIZE);
    expect(body.process.heapUsed).toMatch(SIZE);
    expect(body.database.dialect).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');
    expect(body.database.version).toMatch(/^\d+\.\d+/);
    expect(body.database.size).toMatch(SIZE);
    expect(body.database.size).not.toBe('0 B');
    expect(body.time).toMatch(/^\d{2}:\d{2}:\d{2}$/);
  });

  it('answers 401 without a session and 403 without monitor:list', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/monitor' })).statusCode).toBe(401);
    const learner = await loginAs(app, 'learner1');
    const response = await app.inject({ method: 'GET', url: '/api/monitor', headers: { authorization: learner } });
    expect(response.statusCode).toBe(403);
    expect(response.json().status).toBe(403);
  });
});

describe('monitor figures', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [8_160_437_862, '7.6 GiB'],
    [1024 ** 4 * 3.25, '3.3 TiB'],
  ])('writes %d bytes as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it.each([
    [0, '0s'],
    [59.9, '59s'],
    [61, '1m 1s'],
    [3600, '1h 0m 0s'],
    [2 * 86_400 + 7, '2d 0h 0m 7s'],
  ])('writes %d seconds as %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});
