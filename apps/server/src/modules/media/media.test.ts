import fs from 'node:fs';
import path from 'node:path';
import { TOKEN_COOKIE } from '@cloud-classroom/shared/constants';
import { mediaSchema, type Media } from '@cloud-classroom/shared/media';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeLeftoverFiles } from '../../services.js';
import { sheetRows } from '../../test/sheet-rows.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';
import { demoMediaFolder } from './demo-media.js';

const testFile = (name: string) => fs.readFileSync(new URL(`./test-files/${name}`, import.meta.url));
const demoFile = (name: string) => fs.readFileSync(path.join(demoMediaFolder(), name));

// Real files, made by ffmpeg and Chromium (scripts/demo-media/make-demo-media.sh, test-files/).
const VIDEO = demoFile('safety-intro.mp4');
const HANDBOOK = demoFile('safety-handbook.pdf');
const COVER = demoFile('cover-safety.jpg');
const WEBM = testFile('clip-3s.webm');
const LIVE_WEBM = testFile('live-no-duration.webm');
const MOOV_AT_END = testFile('moov-at-end-4s.mp4');
const PNG = testFile('picture.png');
const WEBP = testFile('picture.webp');
const GIF = testFile('animation.gif');
const HTML = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
const ACCEPTED = 'upload MP4 or WebM video, PDF, PNG, JPEG or WebP';

async function multipart(fileName: string, content: Buffer, type = '', field = 'file'): Promise<Pick<InjectOptions, 'headers' | 'payload'>> {
  const form = new FormData();
  form.append(field, new Blob([content], { type }), fileName);
  const encoded = new Response(form);
  return { headers: { 'content-type': encoded.headers.get('content-type') ?? '' }, payload: Buffer.from(await encoded.arrayBuffer()) };
}

async function upload(app: FastifyInstance, token: string | undefined, fileName: string, content: Buffer, type = '', field = 'file') {
  const { headers, payload } = await multipart(fileName, content, type, field);
  return app.inject({ method: 'POST', url: '/api/media', headers: { ...headers, ...(token === undefined ? {} : { authorization: token }) }, payload });
}

async function uploaded(app: FastifyInstance, token: string, fileName: string, content: Buffer, type = ''): Promise<Media> {
  const response = await upload(app, token, fileName, content, type);
  expect(response.statusCode, response.body).toBe(201);
  return mediaSchema.parse(response.json());
}

/** Every file under the data folder's media/. */
function mediaOnDisk(app: FastifyInstance): string[] {
  const root = path.join(app.services.config.dataDir, 'media');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(root, entry)).isFile());
}

const content = (app: FastifyInstance, id: number, token: string | undefined, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/media/${id}/content`, headers: { ...headers, ...(token === undefined ? {} : { authorization: token }) } });

describe('media', () => {
  let app: FastifyInstance;
  let admin: string;
  let teacher: string;
  let learner: string;
  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');
    learner = await loginAs(app, 'learner1');
  });
  afterAll(async () => {
    await app.close();
  });

  describe('POST api/media', () => {
    it('takes an MP4 and reads its duration from the movie header', async () => {
      const media = await uploaded(app, teacher, 'C:\\Users\\zhang\\安全培训导学.mp4', VIDEO, 'video/mp4');
      expect(media).toMatchObject({ name: '安全培训导学.mp4', mime: 'video/mp4', kind: 'video', size: VIDEO.length, createBy: 'teacher' });
      expect(media.durationSeconds).toBeCloseTo(8, 1);
      expect(media.pages).toBeUndefined();
      const row = await app.services.database.db.selectFrom('edu_media').selectAll().where('id', '=', media.id).executeTakeFirstOrThrow();
      expect(row.file_key).toMatch(/^media\/\d{6}\/[0-9a-f]{32}\.mp4$/);
      expect(fs.readFileSync(path.join(app.services.config.dataDir, row.file_key))).toEqual(VIDEO);
    });

    it('reads the duration of an MP4 whose movie box comes after the media data', async () => {
      expect((await uploaded(app, admin, 'lecture.m4v', MOOV_AT_END)).durationSeconds).toBeCloseTo(4, 1);
    });

    it('takes a WebM with its duration from the Segment Info, and one that states none', async () => {
      const clip = await uploaded(app, admin, 'clip.webm', WEBM, 'video/webm');
      expect(clip).toMatchObject({ mime: 'video/webm', kind: 'video' });
      expect(clip.durationSeconds).toBeCloseTo(3, 1);
      const live = await uploaded(app, admin, 'live.webm', LIVE_WEBM);
      expect(live.kind).toBe('video');
      expect(live.durationSeconds).toBeUndefined();
    });

    it('takes a PDF and counts its pages', async () => {
      const handbook = await uploaded(app, admin, 'handbook.pdf', HANDBOOK, 'application/pdf');
      expect(handbook).toMatchObject({ mime: 'application/pdf', kind: 'document', pages: 4, size: HANDBOOK.length });
      expect(handbook.durationSeconds).toBeUndefined();
    });

    it('takes PNG, JPEG and WebP pictures', async () => {
      expect(await uploaded(app, admin, 'cover.jpg', COVER, 'image/jpeg')).toMatchObject({ mime: 'image/jpeg', kind: 'image' });
      expect(await uploaded(app, admin, 'cover.jpeg', COVER, 'image/pjpeg')).toMatchObject({ mime: 'image/jpeg' });
      expect(await uploaded(app, admin, 'cover.png', PNG, 'image/png')).toMatchObject({ mime: 'image/png', kind: 'image' });
      expect(await uploaded(app, admin, 'cover.webp', WEBP)).toMatchObject({ mime: 'image/webp', kind: 'image' });
    });

    it('names a file by the last segment of its name, at most 200 characters, and a nameless one by its kind', async () => {
      expect((await uploaded(app, admin, `a/b/${'长'.repeat(250)}.png`, PNG)).name).toBe('长'.repeat(200));
      expect((await uploaded(app, admin, 'folder/', PNG)).name).toBe('image.png');
    });

    it.each([
      ['a PNG named .mp4', 'lesson.mp4', PNG, '', 'file: the name says .mp4 but the content is a png image'],
      ['a PDF named .png', 'cover.png', HANDBOOK, '', 'file: the name says .png but the content is a pdf document'],
      ['a PNG sent as video/mp4', 'lesson', PNG, 'video/mp4', 'file: the content type says video/mp4 but the content is a png image'],
      ['a GIF', 'animation.gif', GIF, 'image/gif', `file: a gif file is not accepted; ${ACCEPTED}`],
      ['an HTML page', 'page.html', HTML, 'text/html', `file: this kind of file is not accepted; ${ACCEPTED}`],
      ['an HTML page named .mp4', 'lesson.mp4', HTML, 'video/mp4', `file: this kind of file is not accepted; ${ACCEPTED}`],
      ['text', 'notes.txt', Buffer.from('name,score\nAda,90\n'), 'text/plain', `file: this kind of file is not accepted; ${ACCEPTED}`],
      ['an empty file', 'empty.mp4', Buffer.alloc(0), '', 'file: is empty'],
      ['an MP4 cut off before its movie box', 'cut.mp4', MOOV_AT_END.subarray(0, MOOV_AT_END.length >> 1), '', "file: the mp4 video's container cannot be read"],
      ['a PDF cut in half', 'cut.pdf', HANDBOOK.subarray(0, HANDBOOK.length >> 1), '', 'file: the PDF cannot be read'],
      ['a WebM cut off in its header', 'cut.webm', WEBM.subarray(0, 60), '', "file: the webm video's container cannot be read"],
    ])('refuses %s, keeping nothing', async (_name, fileName, bytes, type, message) => {
      const before = mediaOnDisk(app);
      const rows = await app.services.database.db.selectFrom('edu_media').select('id').execute();
      const response = await upload(app, admin, fileName, bytes, type);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ status: 400, message });
      expect(mediaOnDisk(app)).toEqual(before);
      expect(await app.services.database.db.selectFrom('edu_media').select('id').execute()).toEqual(rows);
    });

    it('refuses a body that is not an upload, or carries the file in another field', async () => {
      const json = await call(app, 'POST', '/api/media', admin, { file: 'x' });
      expect(json.statusCode).toBe(400);
      expect(json.json()).toMatchObject({ message: /^file: / });
      const other = await upload(app, admin, 'cover.png', PNG, '', 'picture');
      expect(other.statusCode).toBe(400);
      expect(other.json()).toMatchObject({ message: 'file: is required' });
    });

    it('answers 401 without a session and 403 to a learner', async () => {
      expect((await upload(app, undefined, 'cover.png', PNG)).statusCode).toBe(401);
      expect((await upload(app, learner, 'cover.png', PNG)).statusCode).toBe(403);
    });

    it('is audited', async () => {
      const media = await uploaded(app, teacher, 'audited.png', PNG);
      const logs = await app.services.database.db.selectFrom('sys_log').selectAll().where('description', '=', '上传媒体').execute();
      expect(logs.some((log) => log.username === 'teacher')).toBe(true);
      expect(media.id).toBeGreaterThan(0);
    });
  });

  describe('GET api/media', () => {
    it('lists the library, filtered by name and kind, sorted and paged', async () => {
      await uploaded(app, admin, '消防演练 fire drill.mp4', VIDEO);
      await uploaded(app, admin, '消防手册 fire handbook.pdf', HANDBOOK);
      const page = async (query: string) => {
        const response = await call(app, 'GET', `/api/media?${query}`, teacher);
        expect(response.statusCode, response.body).toBe(200);
        return response.json() as { content: Media[]; totalElements: number };
      };
      const fire = await page('q=FIRE');
      expect(fire.content.map((media) => media.name).sort()).toEqual(['消防手册 fire handbook.pdf', '消防演练 fire drill.mp4']);
      expect((await page('q=fire&kind=document')).content.map((media) => media.name)).toEqual(['消防手册 fire handbook.pdf']);
      const bySize = await page('kind=video&sort=size,asc&size=100');
      const sizes = bySize.content.map((media) => media.size);
      expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
      expect(bySize.content.every((media) => media.kind === 'video')).toBe(true);
      const first = await page('size=2&page=0');
      expect(first.content).toHaveLength(2);
      expect(first.totalElements).toBeGreaterThan(2);
      // Newest first by default.
      expect(first.content[0]!.id).toBeGreaterThan(first.content[1]!.id);
    });

    it('downloads the filtered library as a real .xlsx, and audits it', async () => {
      const response = await call(app, 'GET', '/api/media/download?q=fire&sort=name,asc', teacher);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const rows = await sheetRows(response.rawPayload);
      expect(rows[0]).toEqual(['文件名', '类型', '格式', '大小 (MB)', '时长 (秒)', '页数', '上传者', '上传时间']);
      expect(rows.slice(1).map((cells) => [cells[0], cells[1], cells[2], cells[4] ?? null, cells[5] ?? null, cells[6]])).toEqual([
        ['消防手册 fire handbook.pdf', '文档', 'application/pdf', null, 4, 'admin'],
        ['消防演练 fire drill.mp4', '视频', 'video/mp4', 8, null, 'admin'],
      ]);
      await app.auditLogSettled();
      expect(await app.services.database.db.selectFrom('sys_log').select('username').where('description', '=', '导出媒体库').execute()).toEqual([{ username: 'teacher' }]);
    });

    it('answers 401, 403 and 400', async () => {
      expect((await call(app, 'GET', '/api/media')).statusCode).toBe(401);
      expect((await call(app, 'GET', '/api/media/download')).statusCode).toBe(401);
      expect((await call(app, 'GET', '/api/media/download', learner)).statusCode).toBe(403);
      expect((await call(app, 'GET', '/api/media/download?kind=audio', admin)).statusCode).toBe(400);
      expect((await call(app, 'GET', '/api/media', learner)).statusCode).toBe(403);
      const kind = await call(app, 'GET', '/api/media?kind=audio', admin);
      expect(kind.statusCode).toBe(400);
      expect(kind.json()).toMatchObject({ message: /^kind: / });
      expect((await call(app, 'GET', '/api/media?sort=file_key,asc', admin)).statusCode).toBe(400);
    });
  });

  describe('GET api/media/{id}/content', () => {
    let video: Media;
    let etag: string;
    let lastModified: string;
    beforeAll(async () => {
      video = await uploaded(app, admin, 'stream.mp4', VIDEO);
    });

    it('serves the whole file to staff, with its type, validators and private caching', async () => {
      const response = await content(app, video.id, admin);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload).toEqual(VIDEO);
      expect(response.headers).toMatchObject({
        'content-type': 'video/mp4',
        'content-length': String(VIDEO.length),
        'accept-ranges': 'bytes',
        'x-content-type-options': 'nosniff',
        'cache-control': expect.stringMatching(/^private\b/),
      });
      etag = String(response.headers.etag);
      lastModified = String(response.headers['last-modified']);
      expect(etag).toMatch(/^"[^"]+"$/);
      expect(Date.parse(lastModified)).not.toBeNaN();
    });

    it.each([
      ['the first bytes', 'bytes=0-99', 0, 99],
      ['a suffix', 'bytes=-100', VIDEO.length - 100, VIDEO.length - 1],
      ['an open end', 'bytes=100-', 100, VIDEO.length - 1],
      ['a range running past the end, clipped', `bytes=${VIDEO.length - 10}-${VIDEO.length + 1000}`, VIDEO.length - 10, VIDEO.length - 1],
    ])('answers %s with 206 to a teacher', async (_name, range, start, end) => {
      const response = await content(app, video.id, teacher, { range });
      expect(response.statusCode).toBe(206);
      expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/${VIDEO.length}`);
      expect(response.headers['content-length']).toBe(String(end - start + 1));
      expect(response.rawPayload).toEqual(VIDEO.subarray(start, end + 1));
    });

    it('answers HEAD with the headers alone', async () => {
      const response = await app.inject({ method: 'HEAD', url: `/api/media/${video.id}/content`, headers: { authorization: teacher } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-length']).toBe(String(VIDEO.length));
      expect(response.headers['accept-ranges']).toBe('bytes');
      expect(response.rawPayload.length).toBe(0);
    });

    it('answers 416 naming the size to a range past the end', async () => {
      const response = await content(app, video.id, admin, { range: `bytes=${VIDEO.length}-` });
      expect(response.statusCode).toBe(416);
      expect(response.headers['content-range']).toBe(`bytes */${VIDEO.length}`);
      expect(response.json()).toMatchObject({ status: 416, message: /^range: / });
    });

    it('sends a range only while If-Range names this file, else the whole file', async () => {
      const matching = await content(app, video.id, admin, { range: 'bytes=0-99', 'if-range': etag });
      expect(matching.statusCode).toBe(206);
      expect(matching.rawPayload).toEqual(VIDEO.subarray(0, 100));
      const byDate = await content(app, video.id, admin, { range: 'bytes=0-99', 'if-range': lastModified });
      expect(byDate.statusCode).toBe(206);
      for (const stale of ['"other"', `W/${etag}`, 'Thu, 01 Jan 2015 00:00:00 GMT']) {
        const response = await content(app, video.id, admin, { range: 'bytes=0-99', 'if-range': stale });
        expect(response.statusCode, stale).toBe(200);
        expect(response.rawPayload).toEqual(VIDEO);
      }
    });

    it('answers 304 to a copy that is still the file', async () => {
      for (const tag of [etag, `W/${etag}`, `"other", ${etag}`]) {
        const response = await content(app, video.id, admin, { 'if-none-match': tag });
        expect(response.statusCode, tag).toBe(304);
        expect(response.body).toBe('');
      }
      expect((await content(app, video.id, admin, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    });

    it('refuses a learner the courses do not let see it, and answers 401 without a session', async () => {
      const response = await content(app, video.id, learner);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ status: 403 });
      expect((await content(app, video.id, undefined)).statusCode).toBe(401);
    });

    it("takes the session from the web app's token cookie, which <video> and <img> send, on this route only", async () => {
      const cookie = `theme=dark; ${TOKEN_COOKIE}=${encodeURIComponent(admin)}`;
      const response = await app.inject({ method: 'GET', url: `/api/media/${video.id}/content`, headers: { cookie, range: 'bytes=0-9' } });
      expect(response.statusCode).toBe(206);
      expect(response.rawPayload).toEqual(VIDEO.subarray(0, 10));
      const learnerCookie = `${TOKEN_COOKIE}=${encodeURIComponent(learner)}`;
      expect((await app.inject({ method: 'GET', url: `/api/media/${video.id}/content`, headers: { cookie: learnerCookie } })).statusCode).toBe(403);
      expect((await app.inject({ method: 'GET', url: `/api/media/${video.id}/content`, headers: { cookie: `${TOKEN_COOKIE}=%E0%A4%A` } })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/media', headers: { cookie } })).statusCode).toBe(401);
    });

    it('answers 404 to an unknown id and 400 to one that is no id', async () => {
      expect((await content(app, 999_999, admin)).statusCode).toBe(404);
      const bad = await call(app, 'GET', '/api/media/abc/content', admin);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ message: /^id: / });
    });
  });

  describe('DELETE api/media', () => {
    it('removes the rows and then the files', async () => {
      const one = await uploaded(app, admin, 'one.png', PNG);
      const two = await uploaded(app, admin, 'two.pdf', HANDBOOK);
      const keys = await app.services.database.db.selectFrom('edu_media').select('file_key').where('id', 'in', [one.id, two.id]).execute();
      const response = await call(app, 'DELETE', '/api/media', teacher, [one.id, two.id]);
      expect(response.statusCode, response.body).toBe(200);
      expect(await app.services.database.db.selectFrom('edu_media').select('id').where('id', 'in', [one.id, two.id]).execute()).toEqual([]);
      for (const { file_key: key } of keys) expect(fs.existsSync(path.join(app.services.config.dataDir, key))).toBe(false);
      expect((await content(app, one.id, admin)).statusCode).toBe(404);
    });

    it('refuses unknown ids, deleting none', async () => {
      const kept = await uploaded(app, admin, 'kept.png', PNG);
      const response = await call(app, 'DELETE', '/api/media', admin, [kept.id, 999_999]);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: /999999/ });
      expect((await content(app, kept.id, admin)).statusCode).toBe(200);
    });

    it('answers 401, 403 and 400', async () => {
      expect((await call(app, 'DELETE', '/api/media', undefined, [1])).statusCode).toBe(401);
      expect((await call(app, 'DELETE', '/api/media', learner, [1])).statusCode).toBe(403);
      for (const body of [[], ['1'], [0], { ids: [1] }]) {
        const response = await call(app, 'DELETE', '/api/media', admin, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
      }
    });
  });

  it('sweeps old media files no row refers to at start, keeping recorded ones', async () => {
    const kept = await uploaded(app, admin, 'recorded.png', PNG);
    const orphan = path.join(app.services.config.dataDir, 'media', '202001', `${'ab'.repeat(16)}.mp4`);
    fs.mkdirSync(path.dirname(orphan), { recursive: true });
    fs.writeFileSync(orphan, VIDEO);
    const longAgo = new Date(Date.now() - 24 * 3_600_000);
    fs.utimesSync(orphan, longAgo, longAgo);
    const row = await app.services.database.db.selectFrom('edu_media').select('file_key').where('id', '=', kept.id).executeTakeFirstOrThrow();
    fs.utimesSync(path.join(app.services.config.dataDir, row.file_key), longAgo, longAgo);
    await removeLeftoverFiles(app.services);
    expect(fs.existsSync(orphan)).toBe(false);
    expect((await content(app, kept.id, admin)).statusCode).toBe(200);
  });
});

describe('media over MEDIA_MAX_MB', () => {
  let app: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    app = await buildTestApp({ mediaMaxBytes: 100 * 1024 });
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses a larger upload with 413 naming the file and the limit, keeping nothing', async () => {
    expect(VIDEO.length).toBeGreaterThan(100 * 1024);
    const response = await upload(app, admin, 'big.mp4', VIDEO);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ status: 413, message: 'file: is larger than 100.00 KiB' });
    expect(mediaOnDisk(app)).toEqual([]);
    expect(await app.services.database.db.selectFrom('edu_media').select('id').execute()).toEqual([]);
    expect((await upload(app, admin, 'small.webm', WEBM)).statusCode).toBe(201);
  });
});
