import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { localStorageSchema, type LocalStorage } from '@cloud-classroom/shared/storage';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type AppOptions } from '../../app.js';
import type { Config } from '../../config.js';
import type { AppDatabase } from '../../db/database.js';
import { sheetRows } from '../../test/sheet-rows.js';
import { loginAs, openTestDatabase, testConfig } from '../../test/test-app.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const DOCX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60, 1)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(40, 1)]);
const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0, 0]), Buffer.alloc(40, 1)]);

type StorageApp = { app: FastifyInstance; dataDir: string; database: AppDatabase };

/** The real app, keeping hold of its data folder to look at the files on disk. */
async function buildStorageApp(overrides: Partial<Config> = {}, logger?: AppOptions['logger']): Promise<StorageApp> {
  const config = testConfig(overrides);
  const database = await openTestDatabase(config);
  const app = await buildApp({ config, database, logger });
  app.addHook('onClose', database.dispose);
  return { app, dataDir: config.dataDir, database };
}

async function multipart(fileName: string, content: Buffer | string, field = 'file'): Promise<Pick<InjectOptions, 'headers' | 'payload'>> {
  const form = new FormData();
  form.append(field, new Blob([content]), fileName);
  const encoded = new Response(form);
  return {
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
    payload: Buffer.from(await encoded.arrayBuffer()),
  };
}

async function upload(app: FastifyInstance, token: string | undefined, fileName: string, content: Buffer | string, url = '/api/localStorage') {
  const { headers, payload } = await multipart(fileName, content);
  return app.inject({ method: 'POST', url, headers: { ...headers, ...(token === undefined ? {} : { authorization: token }) }, payload });
}

async function stored(app: FastifyInstance, token: string, fileName: string, content: Buffer | string, url?: string): Promise<LocalStorage> {
  const response = await upload(app, token, fileName, content, url);
  expect(response.statusCode, response.body).toBe(201);
  return localStorageSchema.parse(response.json());
}

/** Every file under the data folder's files/ (the database lives beside it, not in it). */
function filesOnDisk(dataDir: string): string[] {
  const root = path.join(dataDir, 'files');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(root, entry)).isFile());
}

const diskPath = (dataDir: string, file: LocalStorage) => path.join(dataDir, ...file.url.replace(/^\/file\//, 'files/').split('/'));

describe('local storage', () => {
  let app: FastifyInstance;
  let dataDir: string;
  let database: AppDatabase;
  let admin: string;
  let learner: string;
  beforeAll(async () => {
    ({ app, dataDir, database } = await buildStorageApp());
    admin = await loginAs(app, 'admin');
    learner = await loginAs(app, 'learner1');
  });
  afterAll(async () => {
    await app.close();
  });

  const list = async (query = '') => {
    const response = await app.inject({ method: 'GET', url: `/api/localStorage?size=100${query}`, headers: { authorization: admin } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { content: LocalStorage[]; totalElements: number };
  };

  describe('access', () => {
    const routes: { name: string; request: () => Promise<InjectOptions> }[] = [
      { name: 'GET api/localStorage', request: async () => ({ method: 'GET', url: '/api/localStorage' }) },
      { name: 'GET api/localStorage/download', request: async () => ({ method: 'GET', url: '/api/localStorage/download' }) },
      { name: 'POST api/localStorage', request: async () => ({ method: 'POST', url: '/api/localStorage', ...(await multipart('a.png', PNG)) }) },
      { name: 'PUT api/localStorage', request: async () => ({ method: 'PUT', url: '/api/localStorage', payload: { id: 1, name: 'x' } }) },
      { name: 'DELETE api/localStorage', request: async () => ({ method: 'DELETE', url: '/api/localStorage', payload: [1] }) },
    ];

    it.each(routes)('$name answers 401 without a session and 403 to a learner', async ({ request }) => {
      const before = filesOnDisk(dataDir);
      const options = await request();
      const anonymous = await app.inject(options);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ status: 401 });
      const forbidden = await app.inject({ ...options, headers: { ...options.headers, authorization: learner } });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toMatchObject({ status: 403 });
      expect(filesOnDisk(dataDir)).toEqual(before);
    });

    it('POST api/localStorage/pictures answers 401 without a session but takes any logged-in user', async () => {
      expect((await upload(app, undefined, 'a.png', PNG, '/api/localStorage/pictures')).statusCode).toBe(401);
      const picture = await stored(app, learner, 'pasted.png', PNG, '/api/localStorage/pictures');
      expect(picture).toMatchObject({ name: 'pasted.png', suffix: 'png', type: '图片', createBy: 'learner1' });
      expect(fs.readFileSync(diskPath(dataDir, picture))).toEqual(PNG);
      // Only the server reads what people upload.
      if (process.platform !== 'win32') {
        expect(fs.statSync(diskPath(dataDir, picture)).mode & 0o777).toBe(0o600);
        expect(fs.statSync(path.dirname(diskPath(dataDir, picture))).mode & 0o777).toBe(0o700);
      }
    });
  });

  describe('POST api/localStorage', () => {
    it('stores the file under a generated name in a month folder and answers the record', async () => {
      const before = Date.now();
      const file = await stored(app, admin, 'logo.png', PNG);
      expect(file).toMatchObject({ name: 'logo.png', suffix: 'png', type: '图片', bytes: PNG.length, size: `${PNG.length} B`, createBy: 'admin', updateBy: 'admin' });
      expect(file.realName).toMatch(/^[a-f0-9]{32}\.png$/);
      expect(file.url).toBe(`/file/${formatDateTime(before, '{y}{m}')}/${file.realName}`);
      expect(fs.readFileSync(diskPath(dataDir, file))).toEqual(PNG);
      expect(JSON.stringify(file)).not.toContain(dataDir);
      expect((await list()).content.find((row) => row.id === file.id)).toEqual(file);
    });

    it('takes the display name from ?name=, else from the uploaded name without its folders', async () => {
      expect((await stored(app, admin, 'scan.pdf', PDF)).name).toBe('scan.pdf');
      const named = await upload(app, admin, 'scan.pdf', PDF, '/api/localStorage?name=%E8%AF%BE%E7%A8%8B%E6%89%8B%E5%86%8C');
      expect(named.json()).toMatchObject({ name: '课程手册', suffix: 'pdf', type: '文档' });
      expect((await stored(app, admin, 'reports/2024/q1.pdf', PDF)).name).toBe('q1.pdf');
      expect((await upload(app, admin, 'blank.pdf', PDF, '/api/localStorage?name=%20%20')).json()).toMatchObject({ name: 'blank.pdf' });
    });

    it.each([
      ['report.docx', DOCX, '文档'],
      ['sheet.xlsx', DOCX, '文档'],
      ['slides.pptx', DOCX, '文档'],
      ['lesson.mp4', MP4, '视频'],
      ['theme.mp3', MP3, '音乐'],
      ['notes.txt', '课程笔记\nline two\n', '文档'],
      ['scores.csv', 'name,score\nAda,90\n', '文档'],
      ['README.MD', '# Title\n', '文档'],
      ['photo.JPG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(20, 1)]), '图片'],
      ['anim.gif', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), '图片'],
      ['pic.webp', Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 0, 0, 0]), Buffer.from('WEBPVP8 ')]), '图片'],
    ])('accepts %s when the content is what the extension says', async (name, content, type) => {
      const file = await stored(app, admin, name, content);
      expect(file).toMatchObject({ suffix: path.extname(name).slice(1).toLowerCase(), type });
      expect(fs.readFileSync(diskPath(dataDir, file))).toEqual(Buffer.from(content));
    });

    it.each([
      ['a text file named x.png', 'x.png', 'just some text, not an image'],
      ['a PNG named x.jpg', 'x.jpg', PNG],
      ['a PNG named x.txt', 'x.txt', PNG],
      ['text named x.docx', 'x.docx', 'plain text'],
      ['text named x.pdf', 'x.pdf', 'plain text'],
      ['a PDF named x.mp4', 'x.mp4', PDF],
      ['invalid UTF-8 named x.txt', 'x.txt', Buffer.from([0x41, 0xff, 0xfe, 0x42])],
      ['a cut-off UTF-8 character named x.csv', 'x.csv', Buffer.from([0x41, 0xe4, 0xb8])],
      ['text with a NUL byte named x.md', 'x.md', Buffer.from('a\0b')],
      ['a PNG shorter than its signature', 'x.png', PNG.subarray(0, 4)],
    ])('refuses %s and leaves nothing behind', async (_case, name, content) => {
      const before = { files: filesOnDisk(dataDir), total: (await list()).totalElements };
      const response = await upload(app, admin, name, content);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(`file: the content is not a .${path.extname(name).slice(1)} file`);
      expect(filesOnDisk(dataDir)).toEqual(before.files);
      expect((await list()).totalElements).toBe(before.total);
    });

    it.each(['drawing.svg', 'page.html', 'tool.exe', 'archive.zip', 'no-extension'])('refuses %s by its type', async (name) => {
      const response = await upload(app, admin, name, name === 'archive.zip' ? DOCX : '<svg onload="alert(1)"/>');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^file: only png, jpg, jpeg, gif, webp, pdf, docx, xlsx, pptx, txt, csv, md, mp3, mp4 files are accepted$/);
    });

    it('refuses an empty file', async () => {
      const response = await upload(app, admin, 'empty.txt', '');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('file: is empty');
    });

    it('answers 400 naming the field for a request without the file', async () => {
      const json = await app.inject({ method: 'POST', url: '/api/localStorage', headers: { authorization: admin }, payload: { file: 'x' } });
      expect(json.statusCode).toBe(400);
      expect(json.json().message).toBe('file: expected a multipart/form-data upload');
      const { headers, payload } = await multipart('a.png', PNG, 'attachment');
      const wrongField = await app.inject({ method: 'POST', url: '/api/localStorage', headers: { ...headers, authorization: admin }, payload });
      expect(wrongField.statusCode).toBe(400);
      expect(wrongField.json().message).toBe('file: is required');
      const longName = await upload(app, admin, 'a.png', PNG, `/api/localStorage?name=${'n'.repeat(256)}`);
      expect(longName.statusCode).toBe(400);
      expect(longName.json().message).toMatch(/^name: /);
    });
  });

  describe('POST api/localStorage/pictures', () => {
    it('takes images only', async () => {
      for (const [name, content] of [
        ['doc.pdf', PDF],
        ['fake.png', 'not really a picture'],
      ] as const) {
        const response = await upload(app, admin, name, content, '/api/localStorage/pictures');
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(/^file: /);
      }
    });

    it('refuses a picture over 5 MiB with 413 and keeps none of it', async () => {
      const before = filesOnDisk(dataDir);
      const big = Buffer.concat([PNG.subarray(0, 16), Buffer.alloc(6 * 1024 * 1024)]);
      const response = await upload(app, admin, 'huge.png', big, '/api/localStorage/pictures');
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ status: 413, message: 'file: is larger than 5.00 MiB' });
      expect(filesOnDisk(dataDir)).toEqual(before);
    });
  });

  describe('GET api/localStorage', () => {
    it('filters by blurry and creation time, sorts and pages', async () => {
      const small = await stored(app, admin, 'zebra-small.txt', 'z');
      const large = await stored(app, admin, 'zebra-large.txt', 'z'.repeat(2048));
      const zebras = await list('&blurry=ZEBRA&sort=size,desc');
      expect(zebras.totalElements).toBe(2);
      expect(zebras.content.map((row) => row.id)).toEqual([large.id, small.id]);
      expect(zebras.content[0]).toMatchObject({ size: '2.00 KiB', bytes: 2048 });

      const page = await app.inject({ method: 'GET', url: '/api/localStorage?blurry=zebra&sort=id,asc&page=1&size=1', headers: { authorization: admin } });
      expect(page.json()).toEqual({ content: [large], totalElements: 2 });

      const now = Date.now();
      const range = (from: number, to: number) =>
        `&createTime=${encodeURIComponent(formatDateTime(from))}&createTime=${encodeURIComponent(formatDateTime(to))}`;
      expect((await list(`&blurry=zebra${range(now - 3_600_000, now + 3_600_000)}`)).totalElements).toBe(2);
      expect((await list(`&blurry=zebra${range(now - 7_200_000, now - 3_600_000)}`)).totalElements).toBe(0);
      // Literal, not a wildcard.
      expect((await list('&blurry=zebra%25small')).totalElements).toBe(0);
    });

    it('answers 400 naming the parameter', async () => {
      for (const [query, field] of [
        ['sort=path,asc', /^sort/],
        ['createTime=2024-01-01%2000:00:00', /^createTime: /],
        ['createTime=yesterday&createTime=today', /^createTime/],
        ['page=-1', /^page: /],
      ] as const) {
        const response = await app.inject({ method: 'GET', url: `/api/localStorage?${query}`, headers: { authorization: admin } });
        expect(response.statusCode, query).toBe(400);
        expect(response.json().message).toMatch(field);
      }
    });
  });

  describe('GET api/localStorage/download', () => {
    it('exports the filtered list as xlsx and records the export', async () => {
      const file = await stored(app, admin, 'export-me.csv', '=HYPERLINK("x")\n', '/api/localStorage?name=%3Dformula');
      const response = await app.inject({ method: 'GET', url: '/api/localStorage/download?blurry=formula', headers: { authorization: admin } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const rows = await sheetRows(response.rawPayload);
      expect(rows).toEqual([
        ['文件名', '备注名', '文件类型', '文件大小', '创建者', '创建日期'],
        [file.realName, "'=formula", '文档', file.size, 'admin', file.createTime],
      ]);
      await vi.waitFor(async () => {
        const logged = await database.db
          .selectFrom('sys_log')
          .select(['username', 'params'])
          .where('description', '=', '导出文件数据')
          .where('status', '=', 200)
          .execute();
        expect(logged).toEqual([{ username: 'admin', params: expect.stringContaining('"blurry":"formula"') }]);
      });
    });

    it('answers 400 naming the parameter', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/localStorage/download?sort=bytes,up', headers: { authorization: admin } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^sort/);
    });
  });

  describe('PUT api/localStorage', () => {
    it('renames the file, not what is on disk', async () => {
      const file = await stored(app, admin, 'draft.pdf', PDF);
      const response = await app.inject({ method: 'PUT', url: '/api/localStorage', headers: { authorization: admin }, payload: { id: file.id, name: '  Final  ', realName: 'x.exe' } });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const renamed = (await list()).content.find((row) => row.id === file.id);
      expect(renamed).toMatchObject({ name: 'Final', realName: file.realName, url: file.url, updateBy: 'admin' });
      expect(fs.readFileSync(diskPath(dataDir, file))).toEqual(PDF);
    });

    it('answers 404 for an unknown id and 400 naming the field', async () => {
      const unknown = await app.inject({ method: 'PUT', url: '/api/localStorage', headers: { authorization: admin }, payload: { id: 999_999, name: 'x' } });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('id: no stored file 999999');
      for (const [payload, field] of [
        [{ id: 1 }, 'name: is required'],
        [{ id: 1, name: '   ' }, 'name: is required'],
        [{ name: 'x' }, /^id: /],
        [{ id: 1, name: 'n'.repeat(256) }, /^name: /],
      ] as const) {
        const response = await app.inject({ method: 'PUT', url: '/api/localStorage', headers: { authorization: admin }, payload });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(field);
      }
    });
  });

  describe('DELETE api/localStorage', () => {
    it('removes the rows, then the files', async () => {
      const first = await stored(app, admin, 'one.txt', 'one');
      const second = await stored(app, admin, 'two.png', PNG);
      const keep = await stored(app, admin, 'keep.txt', 'keep');
      const response = await app.inject({ method: 'DELETE', url: '/api/localStorage', headers: { authorization: admin }, payload: [first.id, second.id] });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('');
      const ids = (await list()).content.map((row) => row.id);
      expect(ids).not.toContain(first.id);
      expect(ids).not.toContain(second.id);
      expect(ids).toContain(keep.id);
      expect(fs.existsSync(diskPath(dataDir, first))).toBe(false);
      expect(fs.existsSync(diskPath(dataDir, second))).toBe(false);
      expect(fs.existsSync(diskPath(dataDir, keep))).toBe(true);
      expect((await app.inject({ method: 'GET', url: second.url })).statusCode).toBe(404);
    });

    it('deletes nothing when one of the ids is unknown', async () => {
      const file = await stored(app, admin, 'stay.txt', 'stay');
      const response = await app.inject({ method: 'DELETE', url: '/api/localStorage', headers: { authorization: admin }, payload: [file.id, 999_998] });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('id: no stored file 999998');
      expect((await list()).content.map((row) => row.id)).toContain(file.id);
      expect(fs.existsSync(diskPath(dataDir, file))).toBe(true);
    });

    it('answers 400 naming the body', async () => {
      for (const payload of [[], ['x'], { ids: [1] }]) {
        const response = await app.inject({ method: 'DELETE', url: '/api/localStorage', headers: { authorization: admin }, payload });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(/^body(\.0)?: /);
      }
    });
  });

  describe('GET /file/<month>/<name>', () => {
    it('streams an image without a session, with its type and cache headers', async () => {
      const file = await stored(app, admin, 'served.png', PNG);
      const response = await app.inject({ method: 'GET', url: file.url });
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload).toEqual(PNG);
      expect(response.headers).toMatchObject({
        'content-type': 'image/png',
        'cache-control': 'private, max-age=86400',
        'x-content-type-options': 'nosniff',
        'content-length': String(PNG.length),
      });
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(response.headers.etag).toBeTruthy();

      const head = await app.inject({ method: 'HEAD', url: file.url });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(PNG.length));
    });

    it('serves byte ranges, so videos can seek', async () => {
      const file = await stored(app, admin, 'clip.mp4', MP4);
      const response = await app.inject({ method: 'GET', url: file.url, headers: { range: 'bytes=4-11' } });
      expect(response.statusCode).toBe(206);
      expect(response.headers['content-type']).toBe('video/mp4');
      expect(response.body).toBe('ftypisom');
    });

    it('serves suffix and open ranges, refuses a range past the end with 416, and answers 304 to a fresh copy', async () => {
      const file = await stored(app, admin, 'clip2.mp4', MP4);
      const tail = await app.inject({ method: 'GET', url: file.url, headers: { range: 'bytes=-4' } });
      expect(tail.statusCode).toBe(206);
      expect(tail.rawPayload).toEqual(MP4.subarray(MP4.length - 4));
      expect(tail.headers['content-range']).toBe(`bytes ${MP4.length - 4}-${MP4.length - 1}/${MP4.length}`);
      const open = await app.inject({ method: 'GET', url: file.url, headers: { range: 'bytes=8-' } });
      expect(open.rawPayload).toEqual(MP4.subarray(8));
      const past = await app.inject({ method: 'GET', url: file.url, headers: { range: `bytes=${MP4.length}-` } });
      expect(past.statusCode).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${MP4.length}`);
      expect(past.json()).toMatchObject({ status: 416, message: /^range: / });

      const whole = await app.inject({ method: 'GET', url: file.url });
      const etag = String(whole.headers.etag);
      const cached = await app.inject({ method: 'GET', url: file.url, headers: { 'if-none-match': etag } });
      expect(cached.statusCode).toBe(304);
      expect(cached.body).toBe('');
      const since = await app.inject({ method: 'GET', url: file.url, headers: { 'if-modified-since': String(whole.headers['last-modified']) } });
      expect(since.statusCode).toBe(304);
      // A range of a file that changed since the client's copy is the whole file instead.
      const stale = await app.inject({ method: 'GET', url: file.url, headers: { range: 'bytes=0-3', 'if-range': 'W/"other"' } });
      expect(stale.statusCode).toBe(200);
      expect(stale.rawPayload).toEqual(MP4);
    });

    it('offers a document inline under its display name', async () => {
      const file = await stored(app, admin, 'x.pdf', PDF, `/api/localStorage?name=${encodeURIComponent('课程 "手册"')}`);
      const response = await app.inject({ method: 'GET', url: file.url });
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(
        `inline; filename="__ ____.pdf"; filename*=UTF-8''${encodeURIComponent('课程 "手册".pdf')}`,
      );
      const text = await stored(app, admin, 'readme.md', '# hi\n');
      const markdown = await app.inject({ method: 'GET', url: text.url });
      expect(markdown.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(markdown.headers['content-disposition']).toBe(`inline; filename="readme.md"; filename*=UTF-8''readme.md`);
    });

    it('answers a JSON 404 for anything that is not a recorded file, however the path is dressed up', async () => {
      const file = await stored(app, admin, 'target.png', PNG);
      const month = file.url.split('/')[2] ?? '';
      fs.writeFileSync(path.join(dataDir, 'secret.txt'), 'secret');
      const orphan = `${'a'.repeat(32)}.png`;
      fs.writeFileSync(path.join(dataDir, 'files', month, orphan), PNG);
      for (const url of [
        `/file/${month}/${orphan}`,
        `/file/${month}/${'b'.repeat(32)}.png`,
        `/file/${month}/${file.realName.toUpperCase()}`,
        `/file/${month}/${file.realName}.txt`,
        `/file/${month}/..%2F..%2Fsecret.txt`,
        `/file/${month}/..%2F${month}%2F${file.realName}`,
        `/file/..%2F..%2Fsecret.txt/x`,
        `/file/%2e%2e/secret.txt`,
        `/file/../secret.txt`,
        `/file/${month}/../../secret.txt`,
        `/file/files/${file.realName}`,
        `/file/${month}`,
      ]) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.headers['content-type'], url).toMatch(/^application\/json/);
        expect(response.json(), url).toMatchObject({ status: 404 });
      }
      // A NUL character is refused as bad input before any file is looked for.
      const nul = await app.inject({ method: 'GET', url: `/file/${month}/${file.realName.replace('.png', '%00.png')}` });
      expect(nul.statusCode).toBe(400);
      expect(nul.json().message).toMatch(/: must not contain a NUL character$/);
    });
  });
});

describe('local storage beside the built web app', () => {
  it('still answers unknown files with a JSON 404, not the app', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html lang="en"><body><main></main></body></html>');
    const { app } = await buildStorageApp({ webDistDir: dist });
    try {
      const file = await stored(app, await loginAs(app, 'admin'), 'logo.png', PNG);
      expect((await app.inject({ method: 'GET', url: file.url })).rawPayload).toEqual(PNG);
      const missing = await app.inject({ method: 'GET', url: `/file/202401/${'c'.repeat(32)}.png` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ status: 404 });
      expect((await app.inject({ method: 'GET', url: '/' })).headers['content-type']).toMatch(/^text\/html/);
    } finally {
      await app.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('the upload quota per user', () => {
  it('refuses with 413 naming the quota an upload that would go over it, keeping none of it', async () => {
    const KiB = 1024;
    const { app, dataDir, database } = await buildStorageApp({ uploadQuotaBytes: 64 * KiB });
    try {
      const admin = await loginAs(app, 'admin');
      const learner = await loginAs(app, 'learner1');
      const rowsOf = async (username: string) =>
        (await database.db.selectFrom('sys_local_storage').select('id').where('create_by', '=', username).execute()).length;
      const first = await stored(app, admin, 'first.txt', 'a'.repeat(40 * KiB));
      const before = filesOnDisk(dataDir);

      const over = await upload(app, admin, 'second.txt', 'b'.repeat(30 * KiB));
      expect(over.statusCode, over.body).toBe(413);
      expect(over.json()).toMatchObject({ status: 413, message: 'file: would go over the upload quota of 64.00 KiB per user (40.00 KiB used)' });
      // Pictures for the editors count too, and a large body is refused once it passes the quota.
      const picture = await upload(app, admin, 'big.png', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * KiB)]), '/api/localStorage/pictures');
      expect(picture.statusCode, picture.body).toBe(413);
      expect(picture.json().message).toMatch(/^file: would go over the upload quota of 64.00 KiB/);
      expect(filesOnDisk(dataDir)).toEqual(before);
      expect(await rowsOf('admin')).toBe(1);

      // What fits still goes in, up to the quota exactly; then not one byte more.
      await stored(app, admin, 'fits.txt', 'c'.repeat(24 * KiB));
      const full = await upload(app, admin, 'one-more.txt', 'd');
      expect(full.statusCode).toBe(413);
      expect(full.json().message).toBe('file: would go over the upload quota of 64.00 KiB per user (64.00 KiB used)');

      // Each user has their own; deleting frees it.
      await stored(app, learner, 'mine.png', PNG, '/api/localStorage/pictures');
      const removed = await app.inject({ method: 'DELETE', url: '/api/localStorage', headers: { authorization: admin }, payload: [first.id] });
      expect(removed.statusCode).toBe(200);
      await stored(app, admin, 'after-delete.txt', 'e'.repeat(30 * KiB));
    } finally {
      await app.close();
    }
  });
});

describe('answering a stored file', () => {
  it('answers a file request once: nothing tries to answer it again after the file went out', async () => {
    const warnings: string[] = [];
    const { app } = await buildStorageApp({}, { level: 'warn', stream: { write: (line: string) => warnings.push(line) } });
    try {
      const admin = await loginAs(app, 'admin');
      const file = await stored(app, admin, 'once.png', PNG);
      const whole = await app.inject({ method: 'GET', url: file.url });
      expect(whole.statusCode).toBe(200);
      const answers = await Promise.all([
        app.inject({ method: 'GET', url: file.url, headers: { 'if-none-match': String(whole.headers.etag) } }),
        app.inject({ method: 'GET', url: file.url, headers: { range: 'bytes=0-3' } }),
        app.inject({ method: 'GET', url: file.url, headers: { range: `bytes=${PNG.length}-` } }),
      ]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([304, 206, 416]);
      // A second answer would come after the first had gone: give the handlers a turn to finish.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((line) => line.includes('FST_ERR_REP_ALREADY_SENT'))).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
