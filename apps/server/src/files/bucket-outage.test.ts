import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { localStorageSchema } from '@cloud-classroom/shared/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3TestServer, type S3TestServer } from '../test/s3-test-server.js';
import { buildTestApp, call, loginAs } from '../test/test-app.js';
import { S3_SPOOL_FOLDER } from './create-file-store.js';

/**
 * Issue 31's bucket unreachable: `STORAGE=s3` and the bucket's host gone after the server
 * started. What needs the bucket answers 502 in words, at once; what does not goes on; nothing
 * is half-written; once the bucket is back, uploads work again without a restart.
 */

const INDEX = '<!doctype html><html lang="en"><body><main id="root"></main></body></html>';

async function uploadFile(app: FastifyInstance, token: string, fileName: string, content: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([content]), fileName);
  const encoded = new Response(form);
  return app.inject({
    method: 'POST',
    url: '/api/localStorage',
    headers: { 'content-type': encoded.headers.get('content-type') ?? '', authorization: token },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
}

/** Every file in the upload spool, where an upload waits for the bucket. */
function spooled(app: FastifyInstance): string[] {
  const spool = path.join(app.services.config.dataDir, S3_SPOOL_FOLDER);
  if (!fs.existsSync(spool)) return [];
  return (fs.readdirSync(spool, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(spool, entry)).isFile());
}

describe('the bucket unreachable (STORAGE=s3)', () => {
  let s3: S3TestServer;
  let app: FastifyInstance;
  let admin: string;
  let dist: string;
  let before: { url: string };
  const notes = Buffer.from('notes kept in the bucket\n'.repeat(1000));

  beforeAll(async () => {
    s3 = await startS3TestServer('outage');
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    app = await buildTestApp({
      webDistDir: dist,
      storage: {
        kind: 's3',
        // Short, for the test of a silent host; long enough for s3rver to answer in a busy test run.
        bucket: { endpoint: s3.endpoint, region: 'us-east-1', bucket: s3.bucket, accessKeyId: s3.accessKey, secretAccessKey: s3.secretKey, pathStyle: true, silenceMs: 3000 },
        prefix: 'classroom/',
      },
    });
    admin = await loginAs(app, 'admin');
    const stored = await uploadFile(app, admin, 'before.txt', notes);
    expect(stored.statusCode, stored.body).toBe(201);
    before = localStorageSchema.parse(stored.json());
    await s3.stop();
  });
  afterAll(async () => {
    await app?.close();
    await s3?.close();
    if (dist !== undefined) fs.rmSync(dist, { recursive: true, force: true });
  });

  it('refuses an upload with a 502 saying the bucket cannot be reached, keeping no row and no spool file', async () => {
    const listed = (await call(app, 'GET', '/api/localStorage', admin)).json().totalElements as number;
    const response = await uploadFile(app, admin, 'during.txt', notes);
    expect(response.statusCode, response.body).toBe(502);
    expect(response.json().message).toMatch(/^the bucket could not be reached: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
    expect((await call(app, 'GET', '/api/localStorage', admin)).json().totalElements).toBe(listed);
    expect(spooled(app)).toEqual([]);
  });

  it('answers a stored file, whose bytes are in the bucket, with a 502 in words', async () => {
    const response = await call(app, 'GET', before.url, admin);
    expect(response.statusCode, response.body).toBe(502);
    expect(response.json().message).toMatch(/^the bucket could not be reached: /);
  });

  it('goes on answering what does not need the bucket: the list, the health check, the web app', async () => {
    const list = await call(app, 'GET', '/api/localStorage', admin);
    expect(list.statusCode).toBe(200);
    expect(list.json().content.map((file: { url: string }) => file.url)).toContain(before.url);
    expect((await call(app, 'GET', '/api/health')).statusCode).toBe(200);
    const page = await call(app, 'GET', '/tools/storage');
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(INDEX);
  });

  it('gives up on a bucket host that takes the connection and never answers, with a 502 in words', async () => {
    // What a hung or overloaded host does: without a limit on its silence, the upload waited for ever.
    const sockets = new Set<net.Socket>();
    const mute = net.createServer((socket) => {
      sockets.add(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => mute.listen(Number(new URL(s3.endpoint).port), '127.0.0.1', resolve));
    try {
      const listed = (await call(app, 'GET', '/api/localStorage', admin)).json().totalElements as number;
      const response = await uploadFile(app, admin, 'during.txt', notes);
      expect(response.statusCode, response.body).toBe(502);
      expect(response.json().message).toBe('the bucket could not be reached: it did not answer in time');
      expect((await call(app, 'GET', '/api/localStorage', admin)).json().totalElements).toBe(listed);
      expect(spooled(app)).toEqual([]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => mute.close(resolve));
    }
  });

  it('takes uploads again once the bucket is back, and serves what it held', async () => {
    await s3.restart();
    const response = await uploadFile(app, admin, 'after.txt', notes);
    expect(response.statusCode, response.body).toBe(201);
    const after = localStorageSchema.parse(response.json());
    for (const file of [before, after]) {
      const served = await call(app, 'GET', file.url, admin);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(notes)).toBe(true);
    }
    expect(spooled(app)).toEqual([]);
  });
});
