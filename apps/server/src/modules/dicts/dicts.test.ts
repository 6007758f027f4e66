import { dictDetailSchema, dictSchema, type Dict, type DictDetail } from '@cloud-classroom/shared/dicts';
import { errorBodySchema, pageOf } from '@cloud-classroom/shared/http';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../app.js';
import type { Database } from '../../db/schema.js';
import { sheetRows } from '../../test/sheet-rows.js';
import { loginAs, openTestDatabase, testConfig } from '../../test/test-app.js';

let app: FastifyInstance;
let db: Kysely<Database>;
let admin: string;
let learner: string;

beforeAll(async () => {
  const config = testConfig();
  const database = await openTestDatabase(config);
  app = await buildApp({ config, database });
  app.addHook('onClose', database.dispose);
  db = database.db;
  admin = await loginAs(app, 'admin');
  learner = await loginAs(app, 'learner1');
});

afterAll(async () => {
  await app.close();
});

type Call = { method: InjectOptions['method']; url: string; payload?: InjectOptions['payload'] };

const call = (token: string | undefined, { method, url, payload }: Call) =>
  app.inject({ method, url, ...(payload === undefined ? {} : { payload }), headers: token === undefined ? {} : { authorization: token } });

const dictPage = pageOf(dictSchema);
const detailPage = pageOf(dictDetailSchema);

async function expectError(response: Awaited<ReturnType<typeof call>>, status: number, messageStart = ''): Promise<void> {
  expect(response.statusCode).toBe(status);
  const body = errorBodySchema.parse(response.json());
  expect(body.status).toBe(status);
  expect(body.message.startsWith(messageStart), body.message).toBe(true);
}

async function dictsNamed(name: string): Promise<Dict[]> {
  const response = await call(admin, { method: 'GET', url: `/api/dict?blurry=${encodeURIComponent(name)}&size=100` });
  return dictPage.parse(response.json()).content.filter((dict) => dict.name === name);
}

/** Creates a dictionary through the API and returns it as the list shows it. */
async function createDict(name: string, description = `${name} description`): Promise<Dict> {
  const response = await call(admin, { method: 'POST', url: '/api/dict', payload: { name, description } });
  expect(response.statusCode).toBe(201);
  const [dict] = await dictsNamed(name);
  if (dict === undefined) throw new Error(`dictionary ${name} was not created`);
  return dict;
}

async function createDetail(dictId: number, label: string, value: string, dictSort: number): Promise<void> {
  const response = await call(admin, { method: 'POST', url: '/api/dictDetail', payload: { label, value, dictSort, dict: { id: dictId } } });
  expect(response.statusCode).toBe(201);
}

async function detailsOf(dictName: string, query = ''): Promise<{ content: DictDetail[]; totalElements: number }> {
  const url = `/api/dictDetail?dictName=${encodeURIComponent(dictName)}&page=0&size=9999${query}`;
  const response = await call(admin, { method: 'GET', url });
  expect(response.statusCode).toBe(200);
  return detailPage.parse(response.json());
}

/** The audit log is written after the answer has gone out, so wait for the entry. */
async function expectAudited(description: string): Promise<void> {
  await vi.waitFor(async () => {
    const row = await db.selectFrom('sys_log').select('description').orderBy('id', 'desc').executeTakeFirst();
    expect(row?.description).toBe(description);
  });
}

describe('access', () => {
  const guarded: Array<[Call, string]> = [
    [{ method: 'GET', url: '/api/dict' }, 'dict:list'],
    [{ method: 'GET', url: '/api/dict/all' }, 'dict:list'],
    [{ method: 'GET', url: '/api/dict/download' }, 'dict:list'],
    [{ method: 'POST', url: '/api/dict', payload: { name: 'learner_dict' } }, 'dict:add'],
    [{ method: 'PUT', url: '/api/dict', payload: { id: 1, name: 'learner_dict' } }, 'dict:edit'],
    [{ method: 'DELETE', url: '/api/dict', payload: [1] }, 'dict:del'],
    [{ method: 'POST', url: '/api/dictDetail', payload: { label: 'x', value: 'x', dict: { id: 1 } } }, 'dict:add'],
    [{ method: 'PUT', url: '/api/dictDetail', payload: { id: 1, label: 'x', value: 'x', dict: { id: 1 } } }, 'dict:edit'],
    [{ method: 'DELETE', url: '/api/dictDetail/1' }, 'dict:del'],
  ];

  it.each(guarded)('%j answers 401 without a session', async (request) => {
    await expectError(await call(undefined, request), 401);
  });

  it.each(guarded)('%j answers 403 to a learner (needs %s)', async (request) => {
    await expectError(await call(learner, request), 403);
  });

  it.each([
    { method: 'GET', url: '/api/dictDetail?dictName=user_status' },
    { method: 'GET', url: '/api/dictDetail/map?dictName=user_status' },
  ] satisfies Call[])('$method $url answers 401 without a session', async (request) => {
    await expectError(await call(undefined, request), 401);
  });

  it('declares the access of every dictionary route', () => {
    const routes = app.apiRoutes.filter((route) => route.method !== 'HEAD' && /^\/api\/dict(Detail)?\b/.test(route.url));
    expect(routes.map((route) => `${route.method} ${route.url} ${JSON.stringify(route.access)}`).sort()).toEqual([
      'DELETE /api/dict {"permissions":["dict:del"]}',
      'DELETE /api/dictDetail/:id {"permissions":["dict:del"]}',
      'GET /api/dict {"permissions":["dict:list"]}',
      'GET /api/dict/all {"permissions":["dict:list"]}',
      'GET /api/dict/download {"permissions":["dict:list"]}',
      'GET /api/dictDetail {"authenticated":true}',
      'GET /api/dictDetail/map {"authenticated":true}',
      'POST /api/dict {"permissions":["dict:add"]}',
      'POST /api/dictDetail {"permissions":["dict:add"]}',
      'PUT /api/dict {"permissions":["dict:edit"]}',
      'PUT /api/dictDetail {"permissions":["dict:edit"]}',
    ]);
  });
});

describe('GET /api/dict', () => {
  it('lists the seeded dictionaries with their fields, newest first', async () => {
    const response = await call(admin, { method: 'GET', url: '/api/dict?blurry=_status' });
    expect(response.statusCode).toBe(200);
    const body = dictPage.parse(response.json());
    expect(body.totalElements).toBe(2);
    expect(body.content.map((dict) => dict.name)).toEqual(['dept_status', 'user_status']);
    expect(body.content[1]).toEqual({
      id: expect.any(Number),
      name: 'user_status',
      description: '用户状态',
      createBy: 'system',
      updateBy: 'system',
      createTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      updateTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
  });

  it('matches blurry against the description too, ignoring case, with % taken literally', async () => {
    const byDescription = dictPage.parse((await call(admin, { method: 'GET', url: `/api/dict?blurry=${encodeURIComponent('性别')}` })).json());
    expect(byDescription.content.map((dict) => dict.name)).toEqual(['gender']);
    const byCase = dictPage.parse((await call(admin, { method: 'GET', url: '/api/dict?blurry=GENDER' })).json());
    expect(byCase.content.map((dict) => dict.name)).toEqual(['gender']);
    const literal = dictPage.parse((await call(admin, { method: 'GET', url: '/api/dict?blurry=%25' })).json());
    expect(literal.totalElements).toBe(0);
  });

  it('pages and sorts', async () => {
    const sorted = dictPage.parse((await call(admin, { method: 'GET', url: '/api/dict?blurry=e&sort=name,asc&page=1&size=2' })).json());
    const all = dictPage.parse((await call(admin, { method: 'GET', url: '/api/dict?blurry=e&sort=name,asc&size=100' })).json());
    expect(all.content.map((dict) => dict.name)).toEqual([...all.content.map((dict) => dict.name)].sort());
    expect(sorted.totalElements).toBe(all.totalElements);
    expect(sorted.content).toEqual(all.content.slice(2, 4));
  });

  it('answers 400 naming the parameter on a bad sort or page', async () => {
    await expectError(await call(admin, { method: 'GET', url: '/api/dict?sort=password,asc' }), 400, 'sort: cannot sort by password');
    await expectError(await call(admin, { method: 'GET', url: '/api/dict?page=-1' }), 400, 'page: ');
  });
});

describe('GET /api/dict/all', () => {
  it('answers a bare array of every dictionary', async () => {
    const response = await call(admin, { method: 'GET', url: '/api/dict/all' });
    expect(response.statusCode).toBe(200);
    const dicts = z.array(dictSchema).parse(response.json());
    expect(dicts.map((dict) => dict.name)).toEqual(expect.arrayContaining(['user_status', 'dept_status', 'gender']));
    expect(dicts.find((dict) => dict.name === 'gender')?.description).toBe('性别');
  });
});

describe('GET /api/dict/download', () => {
  it('exports the matching dictionaries with their entries, and audits the export', async () => {
    const response = await call(admin, { method: 'GET', url: '/api/dict/download?blurry=user_status' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(response.headers['content-disposition']).toContain('attachment');
    const rows = (await sheetRows(response.rawPayload)).map((row) => row.slice(0, 5));
    expect(rows).toEqual([
      ['字典名称', '字典描述', '字典标签', '英文标签', '字典值'],
      ['user_status', '用户状态', '激活', 'Active', 'true'],
      ['user_status', '用户状态', '禁用', 'Disabled', 'false'],
    ]);
    await expectAudited('导出字典数据');
  });

  it('answers 400 naming the parameter on a bad sort', async () => {
    await expectError(await call(admin, { method: 'GET', url: '/api/dict/download?sort=name,up' }), 400, 'sort: ');
  });
});

describe('POST /api/dict', () => {
  it('creates a dictionary stamped with its creator, storing no unknown or server-owned fields', async () => {
    const response = await call(admin, {
      method: 'POST',
      url: '/api/dict',
      payload: {
        name: ' course_level ',
        description: '课程级别',
        id: 9999,
        createBy: 'mallory',
        createTime: 0,
        dictDetails: [{ label: 'x', value: 'x' }],
      },
    });
    expect(response.statusCode).toBe(201);
    expect(response.body).toBe('');
    const [dict] = await dictsNamed('course_level');
    expect(dict).toMatchObject({ name: 'course_level', description: '课程级别', createBy: 'admin', updateBy: 'admin' });
    expect(dict?.id).not.toBe(9999);
    expect(dict?.createTime.startsWith('1970')).toBe(false);
    expect((await detailsOf('course_level')).totalElements).toBe(0);
    await expectAudited('新增字典');
  });

  it('answers 409 naming the field when the name is taken', async () => {
    await expectError(await call(admin, { method: 'POST', url: '/api/dict', payload: { name: 'gender' } }), 409, 'name: ');
    expect(await dictsNamed('gender')).toHaveLength(1);
  });

  it.each([
    [{}, 'name: '],
    [{ name: '   ' }, 'name: '],
    [{ name: 'x'.repeat(101) }, 'name: '],
    [{ name: 'ok', description: 5 }, 'description: '],
  ])('answers 400 on %j', async (payload, message) => {
    await expectError(await call(admin, { method: 'POST', url: '/api/dict', payload }), 400, message);
  });
});

describe('PUT /api/dict', () => {
  it('updates name and description and stamps the change', async () => {
    const dict = await createDict('exam_kind');
    const response = await call(admin, {
      method: 'PUT',
      url: '/api/dict',
      payload: { id: dict.id, name: 'exam_type', description: '考试类型', createBy: 'mallory' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await dictsNamed('exam_kind')).toEqual([]);
    const [updated] = await dictsNamed('exam_type');
    expect(updated).toMatchObject({ id: dict.id, description: '考试类型', createBy: 'admin', updateBy: 'admin', createTime: dict.createTime });
    await expectAudited('修改字典');
  });

  it('keeps its own name without a conflict, but not another dictionary name', async () => {
    const dict = await createDict('term_mode');
    const same = await call(admin, { method: 'PUT', url: '/api/dict', payload: { id: dict.id, name: 'term_mode', description: null } });
    expect(same.statusCode).toBe(204);
    expect((await dictsNamed('term_mode'))[0]?.description).toBeNull();
    await expectError(await call(admin, { method: 'PUT', url: '/api/dict', payload: { id: dict.id, name: 'gender' } }), 409, 'name: ');
  });

  it('answers 404 for an unknown id and 400 naming a missing id', async () => {
    await expectError(await call(admin, { method: 'PUT', url: '/api/dict', payload: { id: 999_999, name: 'nowhere' } }), 404);
    await expectError(await call(admin, { method: 'PUT', url: '/api/dict', payload: { name: 'nowhere' } }), 400, 'id: ');
  });
});

describe('DELETE /api/dict', () => {
  it('deletes the dictionaries and their entries with them', async () => {
    const first = await createDict('to_delete_1');
    const second = await createDict('to_delete_2');
    await createDetail(first.id, 'a', 'a', 1);
    await createDetail(second.id, 'b', 'b', 1);
    const response = await call(admin, { method: 'DELETE', url: '/api/dict', payload: [first.id, second.id] });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(await dictsNamed('to_delete_1')).toEqual([]);
    expect(await dictsNamed('to_delete_2')).toEqual([]);
    const orphans = await db.selectFrom('sys_dict_detail').select('id').where('dict_id', 'in', [first.id, second.id]).execute();
    expect(orphans).toEqual([]);
    await expectAudited('删除字典');
  });

  it('answers 404 when any id is unknown, deleting nothing', async () => {
    const dict = await createDict('kept_dict');
    await expectError(await call(admin, { method: 'DELETE', url: '/api/dict', payload: [dict.id, 999_999] }), 404);
    expect(await dictsNamed('kept_dict')).toHaveLength(1);
  });

  it.each([
    [[], 'body: '],
    [{ id: 1 }, 'body: '],
    [[1, 'x'], 'body.1: '],
  ])('answers 400 naming the body or the item for %j', async (payload, message) => {
    await expectError(await call(admin, { method: 'DELETE', url: '/api/dict', payload }), 400, message);
  });
});

describe('GET /api/dictDetail', () => {
  it('lets any signed-in user read a dictionary, ordered by dictSort', async () => {
    const [userStatus] = await dictsNamed('user_status');
    const response = await call(learner, { method: 'GET', url: '/api/dictDetail?dictName=user_status&page=0&size=9999' });
    expect(response.statusCode).toBe(200);
    const body = detailPage.parse(response.json());
    expect(body.totalElements).toBe(2);
    expect(body.content.map(({ label, labelEn, value, dictSort }) => ({ label, labelEn, value, dictSort }))).toEqual([
      { label: '激活', labelEn: 'Active', value: 'true', dictSort: 1 },
      { label: '禁用', labelEn: 'Disabled', value: 'false', dictSort: 2 },
    ]);
    expect(body.content[0]).toMatchObject({ dict: { id: userStatus?.id }, createBy: 'system', createTime: expect.any(String) });
  });

  it('sorts by dictSort, not by insertion, and honours an explicit sort', async () => {
    const dict = await createDict('priority');
    await createDetail(dict.id, 'high', '3', 3);
    await createDetail(dict.id, 'low', '1', 1);
    await createDetail(dict.id, 'medium', '2', 2);
    expect((await detailsOf('priority')).content.map((detail) => detail.label)).toEqual(['low', 'medium', 'high']);
    expect((await detailsOf('priority', '&sort=dictSort,desc')).content.map((detail) => detail.label)).toEqual(['high', 'medium', 'low']);
    expect((await detailsOf('priority', '&sort=label,asc')).content.map((detail) => detail.label)).toEqual(['high', 'low', 'medium']);
  });

  it('pages, keeping the total', async () => {
    const dict = await createDict('paged');
    for (let sort = 1; sort <= 5; sort += 1) await createDetail(dict.id, `item ${sort}`, String(sort), sort);
    const response = await call(admin, { method: 'GET', url: '/api/dictDetail?dictName=paged&page=1&size=2' });
    const body = detailPage.parse(response.json());
    expect(body.totalElements).toBe(5);
    expect(body.content.map((detail) => detail.label)).toEqual(['item 3', 'item 4']);
  });

  it('filters by part of either label and answers an empty page for an unknown dictionary', async () => {
    const filtered = await detailsOf('user_status', `&label=${encodeURIComponent('激')}`);
    expect(filtered.content.map((detail) => detail.value)).toEqual(['true']);
    expect(filtered.totalElements).toBe(1);
    expect((await detailsOf('user_status', '&label=disab')).content.map((detail) => detail.value)).toEqual(['false']);
    expect(await detailsOf('no_such_dict')).toEqual({ content: [], totalElements: 0 });
  });

  it('answers 400 naming dictName when it is missing, and sort when it is unknown', async () => {
    await expectError(await call(learner, { method: 'GET', url: '/api/dictDetail?page=0&size=9999' }), 400, 'dictName: ');
    await expectError(await call(learner, { method: 'GET', url: '/api/dictDetail?dictName=' }), 400, 'dictName: ');
    await expectError(await call(learner, { method: 'GET', url: '/api/dictDetail?dictName=gender&sort=dict_id,asc' }), 400, 'sort: ');
  });
});

describe('GET /api/dictDetail/map', () => {
  const mapSchema = z.record(z.string(), z.array(dictDetailSchema));
  const labelsOf = (body: z.infer<typeof mapSchema>) =>
    Object.fromEntries(Object.entries(body).map(([name, details]) => [name, details.map((detail) => detail.label)]));
  const englishLabelsOf = (body: z.infer<typeof mapSchema>) =>
    Object.fromEntries(Object.entries(body).map(([name, details]) => [name, details.map((detail) => detail.labelEn)]));

  it('answers the entries of each name split on ASCII commas, ignoring page and size', async () => {
    const response = await call(learner, { method: 'GET', url: '/api/dictDetail/map?dictName=user_status,gender&page=0&size=9999' });
    expect(response.statusCode).toBe(200);
    const body = mapSchema.parse(response.json());
    expect(labelsOf(body)).toEqual({ user_status: ['激活', '禁用'], gender: ['男', '女'] });
    expect(englishLabelsOf(body)).toEqual({ user_status: ['Active', 'Disabled'], gender: ['Male', 'Female'] });
    expect(body.gender?.[0]).toMatchObject({ value: '男', dictSort: 1, dict: { id: expect.any(Number) } });
  });

  it('splits on full-width commas too and answers an empty list for an unknown name', async () => {
    const url = `/api/dictDetail/map?dictName=${encodeURIComponent('dept_status， gender，nope')}`;
    const response = await call(learner, { method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(labelsOf(mapSchema.parse(response.json()))).toEqual({ dept_status: ['启用', '停用'], gender: ['男', '女'], nope: [] });
  });

  it('answers 400 naming dictName when no name is given', async () => {
    await expectError(await call(learner, { method: 'GET', url: '/api/dictDetail/map' }), 400, 'dictName: ');
    await expectError(await call(learner, { method: 'GET', url: '/api/dictDetail/map?dictName=,，' }), 400, 'dictName: ');
  });
});

describe('POST /api/dictDetail', () => {
  it('adds an entry to a dictionary, storing no unknown or server-owned fields', async () => {
    const dict = await createDict('colour');
    const response = await call(admin, {
      method: 'POST',
      url: '/api/dictDetail',
      payload: { label: '红', value: 'red', dictSort: 4, dict: { id: dict.id, name: 'other' }, id: 9999, createBy: 'mallory', extra: true },
    });
    expect(response.statusCode).toBe(201);
    expect(response.body).toBe('');
    const [detail] = (await detailsOf('colour')).content;
    // No English label given: none is stored, and the Chinese one is shown in English too.
    expect(detail).toMatchObject({ label: '红', labelEn: null, value: 'red', dictSort: 4, dict: { id: dict.id }, createBy: 'admin', updateBy: 'admin' });
    expect(detail?.id).not.toBe(9999);
    await expectAudited('新增字典详情');
  });

  it('sorts an entry without dictSort last', async () => {
    const dict = await createDict('unsorted');
    await createDetail(dict.id, 'first', '1', 1);
    const later = await call(admin, { method: 'POST', url: '/api/dictDetail', payload: { label: 'later', value: '2', dict: { id: dict.id } } });
    expect(later.statusCode).toBe(201);
    expect((await detailsOf('unsorted')).content.map((detail) => [detail.label, detail.dictSort])).toEqual([
      ['first', 1],
      ['later', 999],
    ]);
  });

  it('answers 400 naming dict.id when the dictionary does not exist', async () => {
    await expectError(
      await call(admin, { method: 'POST', url: '/api/dictDetail', payload: { label: 'x', value: 'x', dict: { id: 999_999 } } }),
      400,
      'dict.id: ',
    );
  });

  it('answers 409 naming value when the dictionary already has an entry with that value', async () => {
    const dict = await createDict('level');
    await createDetail(dict.id, 'low', 'l', 1);
    const again = await call(admin, { method: 'POST', url: '/api/dictDetail', payload: { label: 'lower', value: ' l ', dict: { id: dict.id } } });
    await expectError(again, 409, "value: the dictionary already has an entry with the value 'l'");
    // Another dictionary may use the same value.
    const other = await createDict('level_other');
    await createDetail(other.id, 'low', 'l', 1);
    expect((await detailsOf('level')).content.map((detail) => detail.label)).toEqual(['low']);
  });

  it('answers 409 naming value to requests racing to add the same value', async () => {
    const dict = await createDict('raced');
    const add = (label: string) => call(admin, { method: 'POST', url: '/api/dictDetail', payload: { label, value: 'same', dict: { id: dict.id } } });
    const answers = await Promise.all([add('one'), add('two'), add('three')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409]);
    for (const answer of answers.filter((candidate) => candidate.statusCode === 409)) {
      expect(answer.json().message).toMatch(/^value: /);
    }
    expect((await detailsOf('raced')).totalElements).toBe(1);
  });

  it('has the database refuse a second entry with the same value in one dictionary', async () => {
    const dict = await createDict('guarded');
    await createDetail(dict.id, 'one', '1', 1);
    const row = { dict_id: dict.id, label: 'uno', value: '1', dict_sort: 2, create_by: 'x', update_by: 'x', create_time: 0, update_time: 0 };
    await expect(db.insertInto('sys_dict_detail').values(row).execute()).rejects.toThrow();
  });

  it.each([
    [{ value: 'x', dict: { id: 1 } }, 'label: '],
    [{ label: 'x', dict: { id: 1 } }, 'value: '],
    [{ label: 'x', value: 'x' }, 'dict: '],
    [{ label: 'x', value: 'x', dict: {} }, 'dict.id: '],
    [{ label: 'x', value: 'x', dictSort: 1.5, dict: { id: 1 } }, 'dictSort: '],
    [{ label: 'x', labelEn: 'x'.repeat(101), value: 'x', dict: { id: 1 } }, 'labelEn: '],
  ])('answers 400 on %j', async (payload, message) => {
    await expectError(await call(admin, { method: 'POST', url: '/api/dictDetail', payload }), 400, message);
  });
});

describe('PUT /api/dictDetail', () => {
  it('updates an entry, which may move to another dictionary', async () => {
    const from = await createDict('size_old');
    const to = await createDict('size_new');
    await createDetail(from.id, 'S', 's', 1);
    const [detail] = (await detailsOf('size_old')).content;
    const response = await call(admin, {
      method: 'PUT',
      url: '/api/dictDetail',
      payload: { id: detail?.id, label: '小', labelEn: ' Small ', value: 'small', dictSort: 7, dict: { id: to.id }, createBy: 'mallory' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await detailsOf('size_old')).content).toEqual([]);
    expect((await detailsOf('size_new')).content).toEqual([
      expect.objectContaining({ id: detail?.id, label: '小', labelEn: 'Small', value: 'small', dictSort: 7, dict: { id: to.id }, createBy: 'admin' }),
    ]);
    await expectAudited('修改字典详情');
  });

  it('answers 409 naming value when another entry of the dictionary has the value, keeping its own', async () => {
    const dict = await createDict('weekday');
    await createDetail(dict.id, 'Monday', 'mon', 1);
    await createDetail(dict.id, 'Tuesday', 'tue', 2);
    const [monday, tuesday] = (await detailsOf('weekday')).content;
    const edit = (payload: Record<string, unknown>) => call(admin, { method: 'PUT', url: '/api/dictDetail', payload: { dict: { id: dict.id }, ...payload } });
    await expectError(await edit({ id: tuesday?.id, label: 'Tuesday', value: 'mon' }), 409, "value: the dictionary already has an entry with the value 'mon'");
    expect((await edit({ id: monday?.id, label: 'Mon.', value: 'mon' })).statusCode).toBe(204);
    // Moving an entry into a dictionary that already has its value is the same conflict.
    const other = await createDict('weekday_other');
    await createDetail(other.id, 'Dienstag', 'tue', 1);
    await expectError(await edit({ id: tuesday?.id, label: 'Tuesday', value: 'tue', dict: { id: other.id } }), 409, 'value: ');
  });

  it('answers 404 for an unknown entry, 400 for an unknown dictionary or a missing id', async () => {
    const [detail] = (await detailsOf('gender')).content;
    await expectError(
      await call(admin, { method: 'PUT', url: '/api/dictDetail', payload: { id: 999_999, label: 'x', value: 'x', dict: { id: 1 } } }),
      404,
    );
    await expectError(
      await call(admin, { method: 'PUT', url: '/api/dictDetail', payload: { id: detail?.id, label: 'x', value: 'x', dict: { id: 999_999 } } }),
      400,
      'dict.id: ',
    );
    const withoutId = await call(admin, { method: 'PUT', url: '/api/dictDetail', payload: { label: 'x', value: 'x', dict: { id: 1 } } });
    await expectError(withoutId, 400, 'id: ');
    expect((await detailsOf('gender')).content[0]?.label).toBe('男');
  });
});

describe('DELETE /api/dictDetail/{id}', () => {
  it('deletes one entry', async () => {
    const dict = await createDict('answer');
    await createDetail(dict.id, 'yes', 'y', 1);
    await createDetail(dict.id, 'no', 'n', 2);
    const [yes] = (await detailsOf('answer')).content;
    const response = await call(admin, { method: 'DELETE', url: `/api/dictDetail/${yes?.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect((await detailsOf('answer')).content.map((detail) => detail.label)).toEqual(['no']);
    await expectAudited('删除字典详情');
  });

  it('answers 404 for an unknown id and 400 naming id for a malformed one', async () => {
    await expectError(await call(admin, { method: 'DELETE', url: '/api/dictDetail/999999' }), 404);
    await expectError(await call(admin, { method: 'DELETE', url: '/api/dictDetail/abc' }), 400, 'id: ');
  });
});
