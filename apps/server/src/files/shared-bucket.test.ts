import fs from 'node:fs';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { localStorageSchema } from '@cloud-classroom/shared/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3TestServer, type S3TestServer } from '../test/s3-test-server.js';
import { solidPng } from '../test/solid-png.js';
import { buildTestAppPair, loginAs } from '../test/test-app.js';

/**
 * `STORAGE=s3`: two server processes on machines of their own (a data folder each) and one
 * bucket. What one of them stored, the other serves; what one deletes is gone for both.
 */
describe('two server processes sharing one bucket (STORAGE=s3)', () => {
  let s3: S3TestServer;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let admin: string;
  const picture = solidPng(40, 30, [200, 30, 30]);

  beforeAll(async () => {
    s3 = await startS3TestServer('shared-media');
    [first, second] = await buildTestAppPair(
      {
        storage: {
          kind: 's3',
          bucket: { endpoint: s3.endpoint, region: 'us-east-1', bucket: s3.bucket, accessKeyId: s3.accessKey, secretAccessKey: s3.secretKey, pathStyle: true },
          prefix: 'classroom/',
        },
      },
      { ownDataDirs: true },
    );
    admin = await loginAs(first, 'admin');
  });
  afterAll(async () => {
    await first?.close();
    await s3?.close();
  });

  it('serves from the second process, by range too, a picture uploaded through the first, which kept no copy of it', async () => {
    const form = new FormData();
    form.append('file', new Blob([picture]), 'logo.png');
    const encoded = new Response(form);
    const uploaded = await first.inject({
      method: 'POST',
      url: '/api/localStorage',
      headers: { 'content-type': encoded.headers.get('content-type') ?? '', authorization: admin },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const file = localStorageSchema.parse(uploaded.json());

    const keys = (await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents?.map((object) => object.Key);
    expect(keys).toEqual([`classroom/${file.url.replace(/^\/file\//, 'files/')}`]);
    for (const app of [first, second]) expect(fs.existsSync(path.join(app.services.config.dataDir, 'files'))).toBe(false);
    expect(first.services.config.dataDir).not.toBe(second.services.config.dataDir);

    const whole = await second.inject({ method: 'GET', url: file.url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(picture)).toBe(true);
    const range = await second.inject({ method: 'GET', url: file.url, headers: { range: 'bytes=1-3' } });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 1-3/${picture.length}`);
    expect(range.rawPayload.toString('latin1')).toBe('PNG');
    const again = await second.inject({ method: 'GET', url: file.url, headers: { 'if-none-match': String(whole.headers.etag) } });
    expect(again.statusCode).toBe(304);

    const deleted = await second.inject({ method: 'DELETE', url: '/api/localStorage', headers: { authorization: await loginAs(second, 'admin') }, payload: [file.id] });
    expect(deleted.statusCode).toBe(200);
    expect((await first.inject({ method: 'GET', url: file.url })).statusCode).toBe(404);
    expect((await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? []).toEqual([]);
  });
});
