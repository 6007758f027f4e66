import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../test/test-app.js';

const BOUNDARY = 'cc-test-boundary';
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const uploads = [
  { url: '/api/localStorage', field: 'file' },
  { url: '/api/localStorage/pictures', field: 'file' },
  { url: '/api/users/updateAvatar', field: 'avatar' },
];

const partHead = (field: string) =>
  `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${field}"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n`;

/** Hand-made bodies that no browser sends, each with the content type it comes with. */
const malformations = [
  {
    name: 'multipart/form-data without a boundary',
    contentType: 'multipart/form-data',
    body: (field: string) => Buffer.concat([Buffer.from(partHead(field)), PNG_HEAD, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]),
    message: 'body: multipart/form-data needs a boundary in its Content-Type',
  },
  {
    name: 'a body cut off in the middle of the file',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: (field: string) => Buffer.concat([Buffer.from(partHead(field)), PNG_HEAD, Buffer.alloc(64, 0x30)]),
    message: 'body: multipart data ends before its closing boundary',
  },
  {
    name: 'a body cut off in the middle of a part header',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: (field: string) => Buffer.from(partHead(field).slice(0, 40)),
    message: 'body: multipart data ends before its closing boundary',
  },
];

describe('malformed multipart uploads', () => {
  let app: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
  });

  const errorEntries = async () => {
    await app.auditLogSettled();
    return app.services.database.db.selectFrom('sys_log').select(['method', 'status']).where('status', '>=', 500).execute();
  };

  describe.each(uploads)('POST $url', ({ url, field }) => {
    it.each(malformations)('answers 400 naming the body for $name, and logs no error', async ({ contentType, body, message }) => {
      const response = await app.inject({
        method: 'POST',
        url,
        headers: { authorization: admin, 'content-type': contentType },
        payload: body(field),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ status: 400, message });
      expect(await errorEntries()).toEqual([]);
      // Nothing of a cut-off file is kept.
      const { db } = app.services.database;
      expect(await db.selectFrom('sys_local_storage').select('id').execute()).toEqual([]);
      expect(await db.selectFrom('sys_user').select('avatar_name').where('username', '=', 'admin').execute()).toEqual([{ avatar_name: null }]);
    });
  });

  it('keeps the connection answering after a refused malformed upload', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (options: http.RequestOptions, body?: Buffer) =>
      new Promise<{ status: number; body: string; socket: unknown }>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, agent, ...options }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, socket: request.socket }));
        });
        request.on('error', reject);
        request.end(body);
      });
    try {
      for (const malformation of malformations) {
        const refused = await send(
          { method: 'POST', path: '/api/localStorage/pictures', headers: { authorization: admin, 'content-type': malformation.contentType } },
          malformation.body('file'),
        );
        expect(refused.status, refused.body).toBe(400);
        const next = await send({ method: 'GET', path: '/api/health' });
        expect(next.status).toBeLessThan(500);
      }
    } finally {
      agent.destroy();
    }
  });
});
