import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { deployPackageSchema, publicPackagesSchema, type DeployPackage } from '@cloud-classroom/shared/deploy';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';
import { demoMediaFolder } from '../media/demo-media.js';
import { DEMO_PACKAGE, publishDemoPackage } from './demo-package.js';

// A real PDF (the demo's user guide) and a real zip archive, and bytes no package is.
const GUIDE = fs.readFileSync(path.join(demoMediaFolder(), 'user-guide.pdf'));
// An empty zip archive: its end-of-central-directory record alone.
const ZIP = Buffer.from('504b0506000000000000000000000000000000000000', 'hex');
// Not a real installer, but nothing checks an .exe's bytes; random, so no two runs share a checksum.
const INSTALLER = crypto.randomBytes(300_000);

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

type Fields = Record<string, string>;
const GUIDE_FIELDS: Fields = { name: 'User guide', version: '1.0', platform: 'any', releaseNotes: 'First edition' };

/** A multipart body: the text fields first, as the server reads them before the file. */
async function multipart(fields: Fields, file?: { name: string; content: Buffer; field?: string }): Promise<Pick<InjectOptions, 'headers' | 'payload'>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file !== undefined) form.append(file.field ?? 'file', new Blob([file.content]), file.name);
  const encoded = new Response(form);
  return { headers: { 'content-type': encoded.headers.get('content-type') ?? '' }, payload: Buffer.from(await encoded.arrayBuffer()) };
}

async function upload(app: FastifyInstance, token: string | undefined, fields: Fields, file?: { name: string; content: Buffer; field?: string }) {
  const { headers, payload } = await multipart(fields, file);
  return app.inject({ method: 'POST', url: '/api/deploy/upload', headers: { ...headers, ...(token === undefined ? {} : { authorization: token }) }, payload });
}

async function published(app: FastifyInstance, token: string, fields: Fields, name: string, content: Buffer): Promise<DeployPackage> {
  const response = await upload(app, token, fields, { name, content });
  expect(response.statusCode, response.body).toBe(201);
  return deployPackageSchema.parse(response.json());
}

/** Every file under the data folder's deploy/, unfinished writes included. */
function packagesOnDisk(app: FastifyInstance): string[] {
  const root = path.join(app.services.config.dataDir, 'deploy');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(root, entry)).isFile());
}

const rowCount = async (app: FastifyInstance) =>
  Number((await app.services.database.db.selectFrom('sys_deploy_package').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

const downloadsOf = async (app: FastifyInstance, id: number) =>
  (await app.services.database.db.selectFrom('sys_deploy_package').select('downloads').where('id', '=', id).executeTakeFirstOrThrow()).downloads;

const download = (app: FastifyInstance, id: number, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  app.inject({ method, url: `/api/public/downloads/${id}/file`, headers });

describe('installation media: who may', () => {
  itRefusesOutsiders([
    ['GET', '/api/deploy'],
    ['GET', '/api/deploy/download'],
    ['POST', '/api/deploy/upload'],
    ['PUT', '/api/deploy', { id: 1, name: 'x', version: '1', platform: 'any' }],
    ['DELETE', '/api/deploy', [1]],
  ]);
});

describe('installation media', () => {
  let app: FastifyInstance;
  let admin: string;
  let teacher: string;
  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
    // Teachers manage courses, not the system's tools.
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses staff without deploy:add before reading the upload', async () => {
    const response = await upload(app, teacher, GUIDE_FIELDS, { name: 'guide.pdf', content: GUIDE });
    expect(response.statusCode).toBe(403);
    expect(packagesOnDisk(app)).toEqual([]);
    expect((await call(app, 'GET', '/api/deploy', teacher)).statusCode).toBe(403);
  });

  it('publishes a version with the SHA-256 of its bytes, computed by the server, under a name it chose', async () => {
    const guide = await published(app, admin, GUIDE_FIELDS, 'C:\\Docs\\用户指南.pdf', GUIDE);
    expect(guide).toMatchObject({ name: 'User guide', version: '1.0', platform: 'any', releaseNotes: 'First edition', fileName: '用户指南.pdf', size: GUIDE.length, downloads: 0, createBy: 'admin' });
    expect(guide.sha256).toBe(sha256(GUIDE));
    const row = await app.services.database.db.selectFrom('sys_deploy_package').selectAll().where('id', '=', guide.id).executeTakeFirstOrThrow();
    expect(row.file_key).toMatch(/^deploy\/\d{6}\/[0-9a-f]{32}$/);
    expect(fs.readFileSync(path.join(app.services.config.dataDir, row.file_key))).toEqual(GUIDE);

    const listed = await call(app, 'GET', '/api/deploy?blurry=user', admin);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ totalElements: 1, content: [{ id: guide.id, sha256: sha256(GUIDE) }] });
  });

  it.each([
    ['no name', { ...GUIDE_FIELDS, name: undefined }, 'name: is required'],
    ['a blank name', { ...GUIDE_FIELDS, name: '   ' }, 'name: is required'],
    ['no version', { ...GUIDE_FIELDS, version: undefined }, 'version: is required'],
    ['a version with a space', { ...GUIDE_FIELDS, version: '1.0 final' }, 'version: letters, digits'],
    ['an unknown platform', { ...GUIDE_FIELDS, platform: 'beos' }, 'platform: must be one of windows, macos, linux, android, ios, any'],
    ['release notes too long', { ...GUIDE_FIELDS, releaseNotes: 'x'.repeat(4001) }, 'releaseNotes: '],
  ])('refuses %s with a 400 naming the field, storing nothing', async (_what, fields, message) => {
    const before = await rowCount(app);
    const defined = Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const response = await upload(app, admin, defined, { name: 'client.exe', content: INSTALLER });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain(message);
    expect(response.json().message.startsWith(message.split(':')[0] ?? '')).toBe(true);
    expect(await rowCount(app)).toBe(before);
  });

  it.each([
    ['no file at all', undefined, 'file: is required'],
    ['an unaccepted kind of file', { name: 'page.html', content: Buffer.from('<script>alert(1)</script>') }, 'file: only .exe'],
    ['a name that is not what the bytes are', { name: 'guide.pdf', content: ZIP }, 'file: the content is not a .pdf file'],
    ['an APK that is no zip archive', { name: 'app.apk', content: GUIDE }, 'file: the content is not a .apk file'],
    ['an empty file', { name: 'empty.exe', content: Buffer.alloc(0) }, 'file: is empty'],
    ['the file in another field', { name: 'client.exe', content: INSTALLER, field: 'upload' }, 'file: is required'],
  ])('refuses %s with a 400 naming the file, leaving no row and no file', async (_what, file, message) => {
    const before = await rowCount(app);
    const onDisk = packagesOnDisk(app);
    const response = await upload(app, admin, { ...GUIDE_FIELDS, version: '9.9' }, file);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ status: 400 });
    expect(response.json().message).toContain(message);
    expect(await rowCount(app)).toBe(before);
    expect(packagesOnDisk(app)).toEqual(onDisk);
  });

  it('refuses a version published already (409 on version), keeping the first and storing nothing', async () => {
    const fields = { name: 'Desktop client', version: '2.0.0', platform: 'windows' };
    const first = await published(app, admin, fields, 'setup.exe', INSTALLER);
    const onDisk = packagesOnDisk(app);
    const again = await upload(app, admin, fields, { name: 'setup-2.exe', content: crypto.randomBytes(100) });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('version: Desktop client 2.0.0 for windows is published already');
    expect(packagesOnDisk(app)).toEqual(onDisk);
    // The same version for another platform is another package.
    const mac = await published(app, admin, { ...fields, platform: 'macos' }, 'client.dmg', crypto.randomBytes(1000));
    expect(mac.id).not.toBe(first.id);
  });

  it('lists each package publicly with its latest version and the older ones kept, newest first', async () => {
    const fields = { name: 'Android app', platform: 'android' };
    const v1 = await published(app, admin, { ...fields, version: '1.0.0', releaseNotes: 'First' }, 'classroom-1.0.0.apk', ZIP);
    const v2 = await published(app, admin, { ...fields, version: '1.1.0', releaseNotes: 'Offline lessons' }, 'classroom-1.1.0.apk', ZIP);
    // No session: the page is public.
    const response = await call(app, 'GET', '/api/public/downloads');
    expect(response.statusCode).toBe(200);
    const packages = publicPackagesSchema.parse(response.json());
    const android = packages.find((entry) => entry.name === 'Android app' && entry.platform === 'android');
    expect(android?.latest).toMatchObject({ id: v2.id, version: '1.1.0', releaseNotes: 'Offline lessons', fileName: 'classroom-1.1.0.apk', size: ZIP.length, sha256: sha256(ZIP), url: `api/public/downloads/${v2.id}/file` });
    expect(android?.older.map((version) => version.id)).toEqual([v1.id]);
    expect(packages.filter((entry) => entry.name === 'Desktop client').map((entry) => entry.platform).sort()).toEqual(['macos', 'windows']);
    // What staff alone see stays off the public answer.
    expect(JSON.stringify(packages)).not.toMatch(/downloads"|createBy|file_key|deploy\//);
  });

  it('streams a download to anyone as an attachment, with ranges, counting each download started', async () => {
    const client = await published(app, admin, { name: 'Linux client', version: '3.1', platform: 'linux' }, '云课堂 client.deb', INSTALLER);

    const whole = await download(app, client.id);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('application/octet-stream');
    expect(whole.headers['x-content-type-options']).toBe('nosniff');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-disposition']).toBe(`attachment; filename="___ client.deb"; filename*=UTF-8''%E4%BA%91%E8%AF%BE%E5%A0%82%20client.deb`);
    expect(sha256(whole.rawPayload)).toBe(client.sha256);
    expect(await downloadsOf(app, client.id)).toBe(1);

    // A resumed download: the rest of the file, not another download.
    const rest = await download(app, client.id, { range: 'bytes=1000-' });
    expect(rest.statusCode).toBe(206);
    expect(rest.headers['content-range']).toBe(`bytes 1000-${INSTALLER.length - 1}/${INSTALLER.length}`);
    expect(rest.rawPayload.equals(INSTALLER.subarray(1000))).toBe(true);
    expect(await downloadsOf(app, client.id)).toBe(1);

    // A download manager's first segment starts one.
    const first = await download(app, client.id, { range: 'bytes=0-999' });
    expect(first.statusCode).toBe(206);
    expect(Buffer.concat([first.rawPayload, rest.rawPayload]).equals(INSTALLER)).toBe(true);
    expect(await downloadsOf(app, client.id)).toBe(2);

    // Neither a HEAD, nor a 304, nor a range past the end (416) counts.
    expect((await download(app, client.id, {}, 'HEAD')).statusCode).toBe(200);
    expect((await download(app, client.id, { 'if-none-match': String(whole.headers.etag) })).statusCode).toBe(304);
    expect((await download(app, client.id, { range: `bytes=${INSTALLER.length}-` })).statusCode).toBe(416);
    expect(await downloadsOf(app, client.id)).toBe(2);

    const listed = await call(app, 'GET', `/api/deploy?blurry=${encodeURIComponent('Linux client')}`, admin);
    expect(listed.json()).toMatchObject({ content: [{ id: client.id, downloads: 2 }] });

    const missing = await download(app, 999_999);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 404, message: 'id: no package 999999' });
    expect((await call(app, 'GET', '/api/public/downloads/abc/file')).statusCode).toBe(400);
  });

  it('edits what describes a version (204), never its file, refusing a taken version and bad fields', async () => {
    const pack = await published(app, admin, { name: 'Course pack', version: '2024.1', platform: 'any' }, 'pack.zip', ZIP);
    await published(app, admin, { name: 'Course pack', version: '2024.2', platform: 'any' }, 'pack-2.zip', ZIP);
    const edited = { id: pack.id, name: 'Course pack', version: '2024.1-fix', platform: 'any', releaseNotes: 'Fixed a lesson' };
    const response = await call(app, 'PUT', '/api/deploy', admin, edited);
    expect(response.statusCode).toBe(204);
    const listed = await call(app, 'GET', '/api/deploy?blurry=2024.1-fix', admin);
    expect(listed.json()).toMatchObject({ content: [{ id: pack.id, version: '2024.1-fix', releaseNotes: 'Fixed a lesson', sha256: pack.sha256, size: pack.size }] });

    const taken = await call(app, 'PUT', '/api/deploy', admin, { ...edited, version: '2024.2' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/^version: /);
    const bad = await call(app, 'PUT', '/api/deploy', admin, { ...edited, platform: 'amiga' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^platform: /);
    const missing = await call(app, 'PUT', '/api/deploy', admin, { ...edited, id: 999_999, version: '7' });
    expect(missing.statusCode).toBe(404);
    expect((await call(app, 'PUT', '/api/deploy', teacher, edited)).statusCode).toBe(403);
  });

  it('deletes versions with their files; a deleted one is neither listed nor downloadable', async () => {
    const gone = await published(app, admin, { name: 'iOS app', version: '0.9', platform: 'ios' }, 'app.ipa', ZIP);
    const row = await app.services.database.db.selectFrom('sys_deploy_package').select('file_key').where('id', '=', gone.id).executeTakeFirstOrThrow();
    expect((await call(app, 'DELETE', '/api/deploy', teacher, [gone.id])).statusCode).toBe(403);
    expect((await call(app, 'DELETE', '/api/deploy', admin, [gone.id, 999_999])).statusCode).toBe(404);
    const response = await call(app, 'DELETE', '/api/deploy', admin, [gone.id]);
    expect(response.statusCode).toBe(200);
    expect(fs.existsSync(path.join(app.services.config.dataDir, row.file_key))).toBe(false);
    expect((await download(app, gone.id)).statusCode).toBe(404);
    const packages = publicPackagesSchema.parse((await call(app, 'GET', '/api/public/downloads')).json());
    expect(packages.some((entry) => entry.name === 'iOS app')).toBe(false);
    const bad = await call(app, 'DELETE', '/api/deploy', admin, []);
    expect(bad.statusCode).toBe(400);
  });

  it('exports the list as a workbook', async () => {
    const response = await call(app, 'GET', '/api/deploy/download?platform=windows', admin);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
  });

  it('publishes the demo user guide once, on an install that has no package', async () => {
    const database = app.services.database.db;
    expect(await publishDemoPackage(database, app.services.files, Date.now())).toBeUndefined();
    await database.deleteFrom('sys_deploy_package').execute();
    const guide = await publishDemoPackage(database, app.services.files, Date.now());
    expect(guide).toMatchObject({ fileName: DEMO_PACKAGE.fileName, platform: 'any', version: '1.0', size: GUIDE.length, sha256: sha256(GUIDE), createBy: 'system' });
    expect(sha256((await download(app, guide?.id ?? 0)).rawPayload)).toBe(sha256(GUIDE));
  });
});

describe('installation media: the size limit', () => {
  let app: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    app = await buildTestApp({ deployMaxBytes: 64 * 1024 });
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses an oversize package with 413 on file while it arrives, leaving no row and no file', async () => {
    const response = await upload(app, admin, GUIDE_FIELDS, { name: 'big.exe', content: crypto.randomBytes(200 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ status: 413, message: 'file: is larger than 64.00 KiB' });
    expect(await rowCount(app)).toBe(0);
    expect(packagesOnDisk(app)).toEqual([]);
    // The connection is still good for the next one.
    const small = await published(app, admin, GUIDE_FIELDS, 'small.exe', crypto.randomBytes(1024));
    expect(small.size).toBe(1024);
  });
});
