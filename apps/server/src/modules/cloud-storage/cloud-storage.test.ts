import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { cloudConfigSchema, cloudFileSchema, type CloudConfigInput, type CloudFile } from '@cloud-classroom/shared/cloud-storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { startS3TestServer, type S3TestServer } from '../../test/s3-test-server.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

const SECRET = 'a-storage-secret-for-tests-only';

async function multipart(name: string, content: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  const encoded = new Response(form);
  return { headers: { 'content-type': encoded.headers.get('content-type') ?? '' }, payload: Buffer.from(await encoded.arrayBuffer()) };
}

async function upload(app: FastifyInstance, token: string, name: string, content: Buffer) {
  const { headers, payload } = await multipart(name, content);
  return app.inject({ method: 'POST', url: '/api/qiNiuContent', headers: { ...headers, authorization: token }, payload });
}

async function keysIn(s3: S3TestServer): Promise<string[]> {
  const answer = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  return (answer.Contents ?? []).map((object) => object.Key ?? '').sort();
}

const settingsOf = (s3: S3TestServer, extra: Partial<CloudConfigInput> = {}): CloudConfigInput => ({
  endpoint: s3.endpoint,
  region: 'us-east-1',
  bucket: s3.bucket,
  accessKey: s3.accessKey,
  secretKey: s3.secretKey,
  pathStyle: true,
  publicDomain: 'https://cdn.example.com/',
  ...extra,
});

describe('cloud storage: who may', () => {
  itRefusesOutsiders([
    ['GET', '/api/qiNiuContent'],
    ['GET', '/api/qiNiuContent/config'],
    ['PUT', '/api/qiNiuContent/config', { endpoint: 'http://127.0.0.1:1', region: 'us-east-1', bucket: 'abc', accessKey: 'a', secretKey: 'b' }],
    ['POST', '/api/qiNiuContent/config/check'],
    ['POST', '/api/qiNiuContent'],
    ['POST', '/api/qiNiuContent/synchronize'],
    ['GET', '/api/qiNiuContent/download/1'],
    ['DELETE', '/api/qiNiuContent', [1]],
  ]);
});

describe('cloud storage without STORAGE_SECRET_KEY', () => {
  let app: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    app = await buildTestApp({ storageSecretKey: undefined });
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses to save a secret key, saying what the server lacks, and saves nothing', async () => {
    const response = await call(app, 'PUT', '/api/qiNiuContent/config', admin, { endpoint: 'http://127.0.0.1:9', region: 'us-east-1', bucket: 'abc', accessKey: 'a', secretKey: 'b' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^secretKey: cannot be saved: the server has no STORAGE_SECRET_KEY/);
    const config = cloudConfigSchema.parse((await call(app, 'GET', '/api/qiNiuContent/config', admin)).json());
    expect(config).toMatchObject({ configured: false, secretsEnabled: false, secretKeySet: false });
  });

  it('lists nothing and refuses uploads (409) before anything is configured', async () => {
    expect((await call(app, 'GET', '/api/qiNiuContent', admin)).json()).toMatchObject({ totalElements: 0, content: [] });
    const response = await upload(app, admin, 'a.txt', Buffer.from('hello'));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('not configured');
  });
});

describe('cloud storage on an S3-compatible server', () => {
  let s3: S3TestServer;
  let app: FastifyInstance;
  let admin: string;
  let teacher: string;
  beforeAll(async () => {
    s3 = await startS3TestServer();
    app = await buildTestApp({ storageSecretKey: SECRET });
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
    await s3.close();
  });

  it('refuses staff without storage permissions', async () => {
    expect((await call(app, 'GET', '/api/qiNiuContent', teacher)).statusCode).toBe(403);
    expect((await call(app, 'PUT', '/api/qiNiuContent/config', teacher, settingsOf(s3))).statusCode).toBe(403);
  });

  it.each([
    ['an endpoint that is no address', { endpoint: 'minio:9000' }, 'endpoint: must be an http'],
    ['a bucket with capitals', { bucket: 'My_Bucket' }, 'bucket: lower-case letters'],
    ['no access key', { accessKey: '' }, 'accessKey: is required'],
    ['a region with a space', { region: 'us east' }, 'region: letters, digits'],
    ['a public domain with a query', { publicDomain: 'https://cdn.example.com/?a=1' }, 'publicDomain: must be an http'],
  ])('refuses settings with %s (400 naming the field)', async (_what, change, message) => {
    const response = await call(app, 'PUT', '/api/qiNiuContent/config', admin, settingsOf(s3, change));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('refuses a first configuration without a secret key', async () => {
    const response = await call(app, 'PUT', '/api/qiNiuContent/config', admin, settingsOf(s3, { secretKey: '' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('secretKey: is required');
  });

  it('saves the settings with the secret key encrypted, never sending it back; a blank one keeps it', async () => {
    const saved = await call(app, 'PUT', '/api/qiNiuContent/config', admin, settingsOf(s3));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(cloudConfigSchema.parse(saved.json())).toEqual({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: s3.bucket,
      accessKey: s3.accessKey,
      pathStyle: true,
      publicDomain: 'https://cdn.example.com',
      secretKeySet: true,
      secretsEnabled: true,
      configured: true,
    });
    const row = await app.services.database.db.selectFrom('app_setting').select('value').where('key', '=', 'cloud-storage').executeTakeFirstOrThrow();
    expect(row.value).not.toContain(`"${s3.secretKey}"`);
    expect(JSON.parse(row.value).sealedSecret).toMatch(/^v1:/);

    const again = await call(app, 'PUT', '/api/qiNiuContent/config', admin, settingsOf(s3, { secretKey: '' }));
    expect(again.statusCode).toBe(200);
    expect(JSON.stringify(again.json())).not.toContain(s3.secretKey);
    expect((await call(app, 'POST', '/api/qiNiuContent/config/check', admin)).statusCode).toBe(204);
  });

  let uploaded: CloudFile;
  it('uploads a file into the bucket under a key of its own and lists it with its public link', async () => {
    const content = Buffer.from('第一课 notes\n'.repeat(1000));
    const response = await upload(app, admin, 'C:\\课件\\第一课 notes.txt', content);
    expect(response.statusCode, response.body).toBe(201);
    uploaded = cloudFileSchema.parse(response.json());
    expect(uploaded).toMatchObject({ name: '第一课 notes.txt', suffix: 'txt', size: content.length, bucket: s3.bucket, createBy: 'admin' });
    expect(uploaded.key).toMatch(/^\d{6}\/[0-9a-f]{16}-第一课 notes\.txt$/);
    expect(uploaded.url).toBe(`https://cdn.example.com/${uploaded.key.split('/').map(encodeURIComponent).join('/')}`);
    expect(await keysIn(s3)).toEqual([uploaded.key]);
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: uploaded.key }));
    expect(head.ContentLength).toBe(content.length);

    const listed = await call(app, 'GET', '/api/qiNiuContent?blurry=notes', admin);
    expect(listed.json()).toMatchObject({ totalElements: 1, content: [{ id: uploaded.id, key: uploaded.key }] });
    expect((await call(app, 'GET', '/api/qiNiuContent?blurry=nothing-like-it', admin)).json()).toMatchObject({ totalElements: 0 });
    expect((await call(app, 'GET', '/api/qiNiuContent?createTime=2000-01-01 00:00:00&createTime=2000-01-02 00:00:00', admin)).json()).toMatchObject({ totalElements: 0 });
    const badRange = await call(app, 'GET', '/api/qiNiuContent?createTime=yesterday', admin);
    expect(badRange.statusCode).toBe(400);
    expect(badRange.json().message).toMatch(/^createTime/);
  });

  it('refuses an empty upload, naming the field', async () => {
    const response = await upload(app, admin, 'empty.txt', Buffer.alloc(0));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('file: is empty');
  });

  it('answers a signed link that downloads the file under its name', async () => {
    const response = await call(app, 'GET', `/api/qiNiuContent/download/${uploaded.id}`, admin);
    expect(response.statusCode, response.body).toBe(200);
    const { url } = response.json();
    expect(url).toContain('X-Amz-Signature=');
    expect(url).toContain('X-Amz-Expires=300');
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-disposition')).toContain('attachment');
    expect((await fetched.text()).startsWith('第一课 notes')).toBe(true);
    expect((await call(app, 'GET', '/api/qiNiuContent/download/999999', admin)).statusCode).toBe(404);
    expect((await call(app, 'GET', '/api/qiNiuContent/download/abc', admin)).statusCode).toBe(400);
  });

  it('syncs the list with the bucket: objects put there are added, ones removed are dropped', async () => {
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'outside/report.pdf', Body: Buffer.from('%PDF-1.4 x') }));
    const response = await call(app, 'POST', '/api/qiNiuContent/synchronize', admin);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ added: 1, updated: 0, removed: 0 });
    const listed = (await call(app, 'GET', '/api/qiNiuContent?sort=id,asc', admin)).json();
    expect(listed.content.map((file: CloudFile) => [file.key, file.name, file.suffix])).toEqual([
      [uploaded.key, '第一课 notes.txt', 'txt'],
      ['outside/report.pdf', 'report.pdf', 'pdf'],
    ]);
    // Once more changes nothing.
    expect((await call(app, 'POST', '/api/qiNiuContent/synchronize', admin)).json()).toEqual({ added: 0, updated: 0, removed: 0 });
  });

  it('deletes files from the bucket and the list; a body that is no id list is refused', async () => {
    const bad = await call(app, 'DELETE', '/api/qiNiuContent', admin, []);
    expect(bad.statusCode).toBe(400);
    const response = await call(app, 'DELETE', '/api/qiNiuContent', admin, [uploaded.id]);
    expect(response.statusCode, response.body).toBe(200);
    expect(await keysIn(s3)).toEqual(['outside/report.pdf']);
    expect((await call(app, 'GET', '/api/qiNiuContent', admin)).json()).toMatchObject({ totalElements: 1 });
    // Gone from the bucket behind the list's back: the sync drops it.
    const left = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'outside/report.pdf' }));
    expect(await left.Body?.transformToString()).toBe('%PDF-1.4 x');
  });

  it('says what the bucket answered when it refuses (502), for a bucket that is not there', async () => {
    expect((await call(app, 'PUT', '/api/qiNiuContent/config', admin, settingsOf(s3, { bucket: 'no-such-bucket', secretKey: '' }))).statusCode).toBe(200);
    const response = await call(app, 'POST', '/api/qiNiuContent/synchronize', admin);
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toContain('NoSuchBucket');
    // The list shows the configured bucket's files only.
    expect((await call(app, 'GET', '/api/qiNiuContent', admin)).json()).toMatchObject({ totalElements: 0 });
    expect((await call(app, 'PUT', '/api/qiNiuContent/config', admin, settingsOf(s3, { secretKey: '' }))).statusCode).toBe(200);
  });

  it('refuses (409) to use a secret key saved under another STORAGE_SECRET_KEY', async () => {
    const other = await buildTestApp({ storageSecretKey: 'another-secret-entirely-0000' });
    try {
      const token = await loginAs(other, 'admin');
      const value = (await app.services.database.db.selectFrom('app_setting').select('value').where('key', '=', 'cloud-storage').executeTakeFirstOrThrow()).value;
      await other.services.database.db.insertInto('app_setting').values({ key: 'cloud-storage', value, updated_at: 0 }).execute();
      const response = await call(other, 'POST', '/api/qiNiuContent/synchronize', token);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toMatch(/^secretKey: the saved secret key cannot be read/);
    } finally {
      await other.close();
    }
  });
});
