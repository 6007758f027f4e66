import zlib from 'node:zlib';
import { TOKEN_COOKIE } from '@cloud-classroom/shared/constants';
import { pageOf } from '@cloud-classroom/shared/http';
import { questionImageSchema, questionSchema } from '@cloud-classroom/shared/questions';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, expectConflict, expectRefusal } from '../../test/course-fixtures.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { createQuestion, insertExamWith, readQuestion, SAMPLE_QUESTIONS } from '../../test/question-fixtures.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';
import { stemKeyOf } from './stem-key.js';

/** A real PNG of `width` × 1 red pixels, made here: signature, IHDR, IDAT, IEND. */
function png(width = 2): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const scanline = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0)]);
  for (let pixel = 0; pixel < width; pixel += 1) scanline[1 + pixel * 3] = 255;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(scanline)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function multipart(fileName: string, content: Buffer, field = 'file'): Promise<Pick<InjectOptions, 'headers' | 'payload'>> {
  const form = new FormData();
  form.append(field, new Blob([content]), fileName);
  const encoded = new Response(form);
  return { headers: { 'content-type': encoded.headers.get('content-type') ?? '' }, payload: Buffer.from(await encoded.arrayBuffer()) };
}

async function uploadImage(app: FastifyInstance, token: string, fileName: string, content: Buffer, field = 'file') {
  const { headers, payload } = await multipart(fileName, content, field);
  return app.inject({ method: 'POST', url: '/api/questions/images', headers: { ...headers, authorization: token }, payload });
}

const listPage = pageOf(questionSchema);

describe('questions: access', () => {
  const { app } = itRefusesOutsiders([
    ['GET', '/api/questions'],
    ['GET', '/api/questions/tags'],
    ['GET', '/api/questions/1'],
    ['GET', '/api/questions/download'],
    ['GET', '/api/questions/template'],
    ['POST', '/api/questions', SAMPLE_QUESTIONS.single],
    ['PUT', '/api/questions', { id: 1, ...SAMPLE_QUESTIONS.single }],
    ['DELETE', '/api/questions', [1]],
    ['POST', '/api/questions/images'],
    ['GET', '/api/questions/images/1'],
    ['POST', '/api/questions/import?dryRun=false'],
  ]);

  it('nothing was written by the refused calls', async () => {
    expect(await db(app()).selectFrom('edu_question').selectAll().execute()).toEqual([]);
    expect(await db(app()).selectFrom('edu_question_image').selectAll().execute()).toEqual([]);
  });
});

describe('questions', () => {
  let app: FastifyInstance;
  let admin: string;
  let teacher: string;
  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
  });

  const list = async (query = '') => {
    const response = await call(app, 'GET', `/api/questions${query}`, teacher);
    expect(response.statusCode, response.body).toBe(200);
    return listPage.parse(response.json());
  };
  const emptyBank = async () => {
    await db(app).deleteFrom('edu_exam_question').execute();
    await db(app).deleteFrom('edu_question_tag').execute();
    await db(app).deleteFrom('edu_question').execute();
  };

  describe('create and update', () => {
    it.each(Object.values(SAMPLE_QUESTIONS))('keeps a $type question as written, with its type’s defaults', async (body) => {
      const id = await createQuestion(app, teacher, { ...body, tags: ['fire', 'safety'], difficulty: 2, score: 2.5, analysis: '<p>Because.</p>' });
      const question = await readQuestion(app, teacher, id);
      expect(question).toMatchObject({
        id,
        type: body.type,
        stem: body.stem,
        stemText: body.stem.replace(/<[^>]+>/g, ''),
        options: 'options' in body ? body.options : [],
        answer: body.answer,
        analysis: '<p>Because.</p>',
        difficulty: 2,
        tags: ['fire', 'safety'],
        score: 2.5,
        duplicate: false,
        examCount: 0,
        createBy: 'teacher',
        updateBy: 'teacher',
      });
      expect(question.policy).toBe(body.type === 'multiple' ? 'proportional' : null);
      expect(question.blankRules).toEqual(body.type === 'blank' ? { ignoreCase: true, ignoreWidth: true, trimSpaces: true, ignoreInnerSpaces: false, anyOrder: false } : null);
    });

    it('fills in the defaults (difficulty 3, score 1, all-or-nothing policy) and keeps choice keys in option order', async () => {
      const id = await createQuestion(app, teacher, { ...SAMPLE_QUESTIONS.multiple, stem: '<p>Defaults</p>', answer: ['B', 'A'], policy: undefined });
      expect(await readQuestion(app, teacher, id)).toMatchObject({ difficulty: 3, score: 1, policy: 'all', answer: ['A', 'B'], tags: [], analysis: '' });
    });

    it('updates every field of a question, its type too, and its knowledge points', async () => {
      const id = await createQuestion(app, teacher, { ...SAMPLE_QUESTIONS.single, stem: '<p>Before</p>', tags: ['old', 'kept'] });
      const update = { id, ...SAMPLE_QUESTIONS.blank, stem: '<p>After ____ and ____</p>', answer: [['a', ' b '], ['c']], blankRules: { ignoreCase: false, ignoreWidth: false, trimSpaces: true, ignoreInnerSpaces: true, anyOrder: true }, tags: ['kept', 'new'], difficulty: 5, score: 4, analysis: '<p>Why</p>' };
      const response = await call(app, 'PUT', '/api/questions', admin, update);
      expect(response.statusCode, response.body).toBe(204);
      expect(await readQuestion(app, teacher, id)).toMatchObject({
        type: 'blank',
        stem: '<p>After ____ and ____</p>',
        options: [],
        answer: [['a', 'b'], ['c']],
        blankRules: update.blankRules,
        policy: null,
        tags: ['kept', 'new'],
        difficulty: 5,
        score: 4,
        analysis: '<p>Why</p>',
        createBy: 'teacher',
        updateBy: 'admin',
      });
      expect((await list('?tag=old')).content.map((question) => question.id)).not.toContain(id);
      expectRefusal(await call(app, 'PUT', '/api/questions', admin, { ...update, id: 999_999 }), 404, 'id');
    });

    it.each([
      ['no stem', { ...SAMPLE_QUESTIONS.single, stem: undefined }, 'stem'],
      ['an empty stem', { ...SAMPLE_QUESTIONS.single, stem: '<p> </p>' }, 'stem'],
      ['an unknown type', { ...SAMPLE_QUESTIONS.single, type: 'essay' }, 'type'],
      ['one option', { ...SAMPLE_QUESTIONS.single, options: [{ key: 'A', text: 'x' }], answer: ['A'] }, 'options'],
      ['options out of order', { ...SAMPLE_QUESTIONS.single, options: [{ key: 'A', text: 'x' }, { key: 'C', text: 'y' }], answer: ['A'] }, 'options'],
      ['eleven options', { ...SAMPLE_QUESTIONS.single, options: 'ABCDEFGHIJA'.split('').map((key) => ({ key, text: key })) }, 'options'],
      ['an empty option', { ...SAMPLE_QUESTIONS.single, options: [{ key: 'A', text: 'x' }, { key: 'B', text: ' ' }] }, 'options.1.text'],
      ['a key not among the options', { ...SAMPLE_QUESTIONS.single, answer: ['D'] }, 'answer'],
      ['two keys for a single choice', { ...SAMPLE_QUESTIONS.single, answer: ['A', 'B'] }, 'answer'],
      ['no key', { ...SAMPLE_QUESTIONS.multiple, answer: [] }, 'answer'],
      ['a judge key other than T or F', { ...SAMPLE_QUESTIONS.judge, answer: ['yes'] }, 'answer'],
      ['a blank without answers', { ...SAMPLE_QUESTIONS.blank, answer: [[]] }, 'answer'],
      ['blanks as a flat list', { ...SAMPLE_QUESTIONS.blank, answer: ['119'] }, 'answer'],
      ['two reference answers', { ...SAMPLE_QUESTIONS.short, answer: ['a', 'b'] }, 'answer'],
      ['difficulty 6', { ...SAMPLE_QUESTIONS.judge, difficulty: 6 }, 'difficulty'],
      ['a score of 0', { ...SAMPLE_QUESTIONS.judge, score: 0 }, 'score'],
      ['a score with three decimals', { ...SAMPLE_QUESTIONS.judge, score: 1.125 }, 'score'],
      ['an unknown policy', { ...SAMPLE_QUESTIONS.multiple, policy: 'some' }, 'policy'],
      ['eleven tags', { ...SAMPLE_QUESTIONS.judge, tags: Array.from({ length: 11 }, (_, index) => `t${index}`) }, 'tags'],
      ['a tag of 31 characters', { ...SAMPLE_QUESTIONS.judge, tags: ['x'.repeat(31)] }, 'tags.0'],
      ['a stem too long', { ...SAMPLE_QUESTIONS.judge, stem: 'x'.repeat(20_001) }, 'stem'],
    ])('refuses %s, naming the field', async (_case, body, field) => {
      const before = await db(app).selectFrom('edu_question').select('id').execute();
      expectRefusal(await call(app, 'POST', '/api/questions', teacher, body), 400, field);
      expectRefusal(await call(app, 'PUT', '/api/questions', teacher, { ...body, id: before[0]?.id ?? 1 }), 400, field);
      expect(await db(app).selectFrom('edu_question').select('id').execute()).toHaveLength(before.length);
    });

    it('refuses a PUT without an id, and bodies that are no question', async () => {
      expectRefusal(await call(app, 'PUT', '/api/questions', teacher, SAMPLE_QUESTIONS.judge), 400, 'id');
      expectRefusal(await call(app, 'POST', '/api/questions', teacher, []), 400, 'body');
    });
  });

  describe('rich text', () => {
    it('keeps stems and analyses only as the allow-list leaves them, images of the bank included', async () => {
      const id = await createQuestion(app, teacher, {
        ...SAMPLE_QUESTIONS.judge,
        stem: '<p onclick="steal()">Look <b>here</b><script>alert(1)</script></p><img src="/api/questions/images/7" onerror="x()"><img src="javascript:alert(1)">',
        analysis: '<iframe src="https://evil.example"></iframe><p>Fine <a href="javascript:x()">link</a></p>',
      });
      const question = await readQuestion(app, teacher, id);
      expect(question.stem).toBe('<p>Look <b>here</b></p><img src="/api/questions/images/7" /><img />');
      expect(question.stemText).toBe('Look here');
      expect(question.analysis).toBe('<p>Fine <a rel="noopener noreferrer">link</a></p>');
    });

    it('refuses a stem of which nothing shows once sanitised', async () => {
      const message = expectRefusal(await call(app, 'POST', '/api/questions', teacher, { ...SAMPLE_QUESTIONS.judge, stem: '<script>alert(1)</script><p><br></p>' }), 400, 'stem');
      expect(message).toBe('stem: is required');
    });

    it('takes a stem that is only a picture', async () => {
      const id = await createQuestion(app, teacher, { ...SAMPLE_QUESTIONS.judge, stem: '<img src="/api/questions/images/1">' });
      expect((await readQuestion(app, teacher, id)).stemText).toBe('');
    });
  });

  describe('the list', () => {
    let ids: Record<string, number>;
    beforeAll(async () => {
      await emptyBank();
      ids = {
        fire: await createQuestion(app, teacher, { ...SAMPLE_QUESTIONS.single, stem: '<p>Where is the  FIRE exit?</p>', tags: ['fire'], difficulty: 1, score: 3 }),
        // The same stem as people read it: case, spaces, full-width letters and markup aside.
        fireAgain: await createQuestion(app, teacher, { ...SAMPLE_QUESTIONS.single, stem: '<p><em>where</em> is the ｆｉｒｅ exit?</p>', tags: ['fire', 'exits'], difficulty: 2, score: 1 }),
        // The same words, another type: no duplicate.
        fireJudge: await createQuestion(app, teacher, { ...SAMPLE_QUESTIONS.judge, stem: '<p>Where is the fire exit?</p>', tags: ['exits'], difficulty: 1, score: 2 }),
        water: await createQuestion(app, teacher, { ...SAMPLE_QUESTIONS.multiple, stem: '<p>Water 100%_ puts out fires</p>', difficulty: 3, score: 5 }),
      };
    });

    it('flags questions of one type sharing a stem as duplicates, by a key of the type and the normalised text', async () => {
      const flags = Object.fromEntries((await list()).content.map((question) => [question.id, question.duplicate]));
      expect(flags).toEqual({ [ids.fire!]: true, [ids.fireAgain!]: true, [ids.fireJudge!]: false, [ids.water!]: false });
      expect((await list('?duplicate=true')).content.map((question) => question.id).sort()).toEqual([ids.fire, ids.fireAgain].sort());
      const rows = await db(app).selectFrom('edu_question').select(['id', 'stem_key']).execute();
      expect(rows.find((row) => row.id === ids.fire)?.stem_key).toBe(stemKeyOf('single', '<p>where is the fire exit?</p>'));
      expect(rows.find((row) => row.id === ids.fire)?.stem_key).toMatch(/^[0-9a-f]{64}$/);
      // Editing one away from the other clears both flags.
      const response = await call(app, 'PUT', '/api/questions', teacher, { id: ids.fireAgain, ...SAMPLE_QUESTIONS.single, stem: '<p>Where is the fire hose?</p>', tags: ['fire', 'exits'], difficulty: 2 });
      expect(response.statusCode, response.body).toBe(204);
      expect((await list('?duplicate=true')).content).toEqual([]);
      await call(app, 'PUT', '/api/questions', teacher, { id: ids.fireAgain, ...SAMPLE_QUESTIONS.single, stem: '<p><em>where</em> is the ｆｉｒｅ exit?</p>', tags: ['fire', 'exits'], difficulty: 2, score: 1 });
    });

    it('filters by type, difficulty, knowledge point, text and exclusions, newest first', async () => {
      const idsOf = async (query: string) => (await list(query)).content.map((question) => question.id);
      expect(await idsOf('')).toEqual([ids.water, ids.fireJudge, ids.fireAgain, ids.fire]);
      expect(await idsOf('?type=single')).toEqual([ids.fireAgain, ids.fire]);
      expect(await idsOf('?difficulty=1')).toEqual([ids.fireJudge, ids.fire]);
      expect(await idsOf('?tag=exits')).toEqual([ids.fireJudge, ids.fireAgain]);
      expect(await idsOf('?tag=exits&type=judge')).toEqual([ids.fireJudge]);
      expect(await idsOf('?tag=nothing')).toEqual([]);
      expect(await idsOf('?q=FIRE%20EXIT')).toEqual([ids.fireJudge, ids.fire]);
      // % and _ are text, not wildcards.
      expect(await idsOf('?q=100%25_')).toEqual([ids.water]);
      expect(await idsOf('?q=0%25%25')).toEqual([]);
      expect(await idsOf(`?exclude=${ids.water},${ids.fire}`)).toEqual([ids.fireJudge, ids.fireAgain]);
      expect(await idsOf('?sort=score,desc')).toEqual([ids.water, ids.fire, ids.fireJudge, ids.fireAgain]);
      const page = await list('?page=1&size=3&sort=id,asc');
      expect(page).toMatchObject({ totalElements: 4, content: [{ id: ids.water }] });
    });

    it('refuses filters it does not know how to read, naming them', async () => {
      for (const [query, field] of [
        ['?type=essay', 'type'],
        ['?difficulty=6', 'difficulty'],
        ['?difficulty=easy', 'difficulty'],
        ['?exclude=1,a', 'exclude'],
        // Past the id column's range: PostgreSQL answered 500.
        ['?exclude=1,99999999999999999999', 'exclude'],
        ['?exclude=0', 'exclude'],
        ['?duplicate=maybe', 'duplicate'],
        ['?sort=stem,asc', 'sort'],
        ['?size=0', 'size'],
        [`?tag=${'x'.repeat(31)}`, 'tag'],
      ] as const) {
        expectRefusal(await call(app, 'GET', `/api/questions${query}`, teacher), 400, field);
      }
      expectRefusal(await call(app, 'GET', '/api/questions/abc', teacher), 400, 'id');
      expectRefusal(await call(app, 'GET', '/api/questions/999999', teacher), 404, 'id');
      expectRefusal(await call(app, 'GET', `/api/questions/tags?q=${'x'.repeat(31)}`, teacher), 400, 'q');
    });

    it('lists the knowledge points with their question counts, for the tag selects', async () => {
      const response = await call(app, 'GET', '/api/questions/tags', teacher);
      expect(response.statusCode, response.body).toBe(200);
      const tags = response.json() as { name: string; questionCount: number }[];
      expect(tags.slice(0, 2)).toEqual([
        { name: 'exits', questionCount: 2 },
        { name: 'fire', questionCount: 2 },
      ]);
      expect((await call(app, 'GET', '/api/questions/tags?q=EXI', teacher)).json()).toEqual([{ name: 'exits', questionCount: 2 }]);
    });

    it('gives the exams what a draw rule matches and the whole questions of a paper', async () => {
      const { questions } = app.services;
      expect(await questions.matchingIds({ tags: [], type: 'single', difficulty: null })).toEqual([ids.fire, ids.fireAgain]);
      expect(await questions.matchingIds({ tags: ['exits', 'nothing'], type: 'single', difficulty: null })).toEqual([ids.fireAgain]);
      expect(await questions.matchingIds({ tags: [], type: 'single', difficulty: 1 })).toEqual([ids.fire]);
      expect(await questions.matchingIds({ tags: ['fire'], type: 'judge', difficulty: null })).toEqual([]);
      const found = await questions.contentsOf([ids.water!, 999_999, ids.fire!, ids.water!]);
      expect(found.map((question) => question.id).sort()).toEqual([ids.fire, ids.water].sort());
      expect(found.find((question) => question.id === ids.water)).toMatchObject({ answer: ['A', 'B'], policy: 'proportional', options: SAMPLE_QUESTIONS.multiple.options });
      expect(await questions.contentsOf([])).toEqual([]);
      // Inside a caller's transaction.
      await db(app)
        .transaction()
        .execute(async (trx) => {
          expect(await questions.within(trx).matchingIds({ tags: ['exits'], type: 'judge', difficulty: 1 })).toEqual([ids.fireJudge]);
        });
    });
  });

  describe('delete', () => {
    it('removes questions with their tag links, and refuses, naming the exams, those an exam has as fixed questions', async () => {
      const kept = await createQuestion(app, teacher, { ...SAMPLE_QUESTIONS.judge, stem: '<p>In an exam</p>', tags: ['used'] });
      const other = await createQuestion(app, teacher, { ...SAMPLE_QUESTIONS.judge, stem: '<p>Also in an exam</p>' });
      const gone = await createQuestion(app, teacher, { ...SAMPLE_QUESTIONS.judge, stem: '<p>Free</p>', tags: ['used', 'free'] });
      await insertExamWith(app, 'Fire drill exam', [kept]);
      await insertExamWith(app, 'Second exam', [kept, other]);
      expect((await readQuestion(app, teacher, kept)).examCount).toBe(2);
      const message = expectConflict(await call(app, 'DELETE', '/api/questions', teacher, [gone, kept]));
      expect(message).toBe("ids: still in the paper of 'Fire drill exam', 'Second exam'");
      expect(await readQuestion(app, teacher, gone)).toMatchObject({ id: gone });

      expectRefusal(await call(app, 'DELETE', '/api/questions', teacher, [gone, 999_999]), 404, 'ids');
      expectRefusal(await call(app, 'DELETE', '/api/questions', teacher, []), 400, 'body');
      expectRefusal(await call(app, 'DELETE', '/api/questions', teacher, ['x']), 400, 'body.0');
      const response = await call(app, 'DELETE', '/api/questions', teacher, [gone]);
      expect(response.statusCode, response.body).toBe(200);
      expect((await call(app, 'GET', `/api/questions/${gone}`, teacher)).statusCode).toBe(404);
      expect(await db(app).selectFrom('edu_question_tag').select('id').where('question_id', '=', gone).execute()).toEqual([]);
      // The tag it alone had may stay, unused.
      expect(((await call(app, 'GET', '/api/questions/tags?q=free', teacher)).json() as unknown[])).toEqual([{ name: 'free', questionCount: 0 }]);
    });
  });

  describe('images', () => {
    it('keeps an uploaded PNG (whatever its name says) and serves it back to the bank’s staff, by the token cookie too', async () => {
      const picture = png(3);
      const response = await uploadImage(app, teacher, 'photo.jpg', picture);
      expect(response.statusCode, response.body).toBe(201);
      const image = questionImageSchema.parse(response.json());
      expect(image.url).toBe(`/api/questions/images/${image.id}`);
      const row = await db(app).selectFrom('edu_question_image').selectAll().where('id', '=', image.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ mime: 'image/png', size: picture.length, create_by: 'teacher' });
      expect(row.file_key).toMatch(/^question-images\/\d{6}\/[0-9a-f]{32}\.png$/);

      const cookie = `${TOKEN_COOKIE}=${encodeURIComponent(teacher)}`;
      const served = await app.inject({ method: 'GET', url: image.url, headers: { cookie } });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.rawPayload).toEqual(picture);
      const learner = await loginAs(app, 'learner1');
      expect((await app.inject({ method: 'GET', url: image.url, headers: { cookie: `${TOKEN_COOKIE}=${encodeURIComponent(learner)}` } })).statusCode).toBe(403);
      expectRefusal(await call(app, 'GET', '/api/questions/images/999999', teacher), 404, 'id');
      expectRefusal(await call(app, 'GET', '/api/questions/images/x', teacher), 400, 'id');

      // A stem showing it keeps it.
      const id = await createQuestion(app, teacher, { ...SAMPLE_QUESTIONS.judge, stem: `<p>What is this?</p><img src="${image.url}" alt="red">` });
      expect((await readQuestion(app, teacher, id)).stem).toBe(`<p>What is this?</p><img src="${image.url}" alt="red" />`);
    });

    it('refuses what is no picture, an empty file, a missing file and a picture over 5 MB', async () => {
      const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
      expect(expectRefusal(await uploadImage(app, teacher, 'x.png', html), 400, 'file')).toBe('file: expected a PNG, JPEG, GIF or WebP image');
      expectRefusal(await uploadImage(app, teacher, 'x.png', Buffer.alloc(0)), 400, 'file');
      expectRefusal(await uploadImage(app, teacher, 'x.png', png(), 'picture'), 400, 'file');
      expectRefusal(await call(app, 'POST', '/api/questions/images', teacher, { file: 'x' }), 400, 'file');
      const huge = Buffer.concat([png(), Buffer.alloc(5 * 1024 * 1024)]);
      expectRefusal(await uploadImage(app, teacher, 'x.png', huge), 413, 'file');
      const before = await db(app).selectFrom('edu_question_image').select('id').execute();
      expect(before).toHaveLength(1);
    });
  });
});
