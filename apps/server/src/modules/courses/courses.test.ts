import { courseSchema, type Course } from '@cloud-classroom/shared/courses';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { sheetRows } from '../../test/sheet-rows.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';
import {
  createChapter,
  createCourse,
  created,
  createTerm,
  createTextLesson,
  db,
  expectConflict,
  expectRefusal,
  insertApplicant,
  insertMedia,
  userId,
} from '../../test/course-fixtures.js';

async function list(app: FastifyInstance, token: string, query = ''): Promise<{ content: Course[]; totalElements: number }> {
  const response = await call(app, 'GET', `/api/courses${query}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return pageOf(courseSchema).parse(response.json());
}

async function get(app: FastifyInstance, token: string, id: number): Promise<Course> {
  const response = await call(app, 'GET', `/api/courses/${id}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return courseSchema.parse(response.json());
}

const titles = (courses: readonly Course[]) => courses.map((course) => course.title);

describe('courses: access', () => {
  const { app } = itRefusesOutsiders([
    ['GET', '/api/courses'],
    ['GET', '/api/courses/download'],
    ['GET', '/api/courses/1'],
    ['POST', '/api/courses', { title: 'nope' }],
    ['PUT', '/api/courses', { id: 1, title: 'nope' }],
    ['DELETE', '/api/courses', [1]],
  ]);

  it('nothing was written by the refused calls', async () => {
    expect(await db(app()).selectFrom('edu_course').selectAll().execute()).toEqual([]);
  });
});

describe('courses', () => {
  let app: FastifyInstance;
  let teacher: string;
  let admin: string;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
  });

  it('creates a course owned by the caller, with the schema’s defaults, and reads it back', async () => {
    const cover = await insertMedia(app, 'image');
    const id = await createCourse(app, teacher, { title: '  Forklift basics ', cover, summary: 'Drive safely' });
    expect(await get(app, teacher, id)).toMatchObject({
      id,
      title: 'Forklift basics',
      categoryId: null,
      categoryName: null,
      status: 'draft',
      required: false,
      cover,
      summary: 'Drive safely',
      description: '',
      ownerId: await userId(app, 'teacher'),
      ownerName: '张老师',
      maxPlaybackRate: 2,
      allowSkip: false,
      chapterCount: 0,
      lessonCount: 0,
      termCount: 0,
      createBy: 'teacher',
      updateBy: 'teacher',
    });
    expect((await call(app, 'GET', '/api/courses/99999', teacher)).statusCode).toBe(404);
    expectRefusal(await call(app, 'GET', '/api/courses/abc', teacher), 400, 'id');
  });

  it('sanitises the description on the server', async () => {
    const id = await createCourse(app, teacher, {
      description: '<p onclick="steal()">Hi <a href="javascript:alert(1)">x</a></p><script>alert(1)</script><img src="/file/a.png">',
    });
    expect((await get(app, teacher, id)).description).toBe('<p>Hi <a rel="noopener noreferrer">x</a></p><img src="/file/a.png" />');
  });

  it('takes a cover only from an image in the library, and a category that exists', async () => {
    const video = await insertMedia(app, 'video');
    const message = expectRefusal(await call(app, 'POST', '/api/courses', teacher, { title: 'x', cover: video }), 400, 'cover');
    expect(message).toContain('not an image');
    expectRefusal(await call(app, 'POST', '/api/courses', teacher, { title: 'x', cover: 99_999 }), 400, 'cover');
    expectRefusal(await call(app, 'POST', '/api/courses', teacher, { title: 'x', categoryId: 99_999 }), 400, 'categoryId');
    const id = await createCourse(app, teacher, { title: 'Cover later' });
    expectRefusal(await call(app, 'PUT', '/api/courses', teacher, { id, title: 'x', cover: video }), 400, 'cover');
    expect((await get(app, teacher, id)).title).toBe('Cover later');
  });

  it('refuses bad bodies and queries naming the field', async () => {
    expectRefusal(await call(app, 'POST', '/api/courses', teacher, {}), 400, 'title');
    expectRefusal(await call(app, 'POST', '/api/courses', teacher, { title: 'x'.repeat(101) }), 400, 'title');
    expectRefusal(await call(app, 'POST', '/api/courses', teacher, { title: 'x', status: 'live' }), 400, 'status');
    expectRefusal(await call(app, 'POST', '/api/courses', teacher, { title: 'x', maxPlaybackRate: 5 }), 400, 'maxPlaybackRate');
    expectRefusal(await call(app, 'POST', '/api/courses', teacher, { title: 'x', summary: 'x'.repeat(501) }), 400, 'summary');
    expectRefusal(await call(app, 'PUT', '/api/courses', teacher, { title: 'x' }), 400, 'id');
    expect((await call(app, 'PUT', '/api/courses', teacher, { id: 99_999, title: 'x' })).statusCode).toBe(404);
    expectRefusal(await call(app, 'GET', '/api/courses?sort=owner,asc', teacher), 400, 'sort');
    expectRefusal(await call(app, 'GET', '/api/courses?status=live', teacher), 400, 'status');
    expectRefusal(await call(app, 'GET', '/api/courses?categoryId=x', teacher), 400, 'categoryId');
    // Past what an integer column holds: refused before it reaches PostgreSQL, where it would fail the query.
    expectRefusal(await call(app, 'GET', '/api/courses/3000000000', teacher), 400, 'id');
    expectRefusal(await call(app, 'GET', '/api/courses?categoryId=3000000000', teacher), 400, 'categoryId');
    expectRefusal(await call(app, 'PUT', '/api/courses', teacher, { id: 3_000_000_000, title: 'x' }), 400, 'id');
    expectRefusal(await call(app, 'DELETE', '/api/courses', teacher, [3_000_000_000]), 400, 'body.0');
    expectRefusal(await call(app, 'DELETE', '/api/courses', teacher, ['x']), 400, 'body.0');
  });

  it('updates every field but the owner', async () => {
    const id = await createCourse(app, teacher, { title: 'Before' });
    const category = await created(app, teacher, '/api/categories', { name: 'Updated into' });
    const response = await call(app, 'PUT', '/api/courses', admin, {
      id,
      title: 'After',
      categoryId: category,
      status: 'published',
      required: true,
      summary: 's',
      description: '<h2>New</h2>',
      maxPlaybackRate: 1.5,
      allowSkip: true,
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await get(app, teacher, id)).toMatchObject({
      title: 'After',
      categoryName: 'Updated into',
      status: 'published',
      required: true,
      description: '<h2>New</h2>',
      maxPlaybackRate: 1.5,
      allowSkip: true,
      ownerName: '张老师',
      updateBy: 'admin',
    });
  });
});

describe('courses: the list', () => {
  let app: FastifyInstance;
  let teacher: string;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
  });

  it('filters by text, by a category with everything below it, and by status; sorts and pages; counts in each row', async () => {
    const safety = await created(app, teacher, '/api/categories', { name: 'Safety' });
    const fire = await created(app, teacher, '/api/categories', { name: 'Fire', pid: safety });
    const other = await created(app, teacher, '/api/categories', { name: 'Other' });
    const extinguishers = await createCourse(app, teacher, { title: 'Extinguishers', categoryId: fire, status: 'published' });
    await createCourse(app, teacher, { title: 'Ladders', categoryId: safety, summary: 'Working at height' });
    await createCourse(app, teacher, { title: 'Expenses', categoryId: other, status: 'archived' });
    const first = await createChapter(app, teacher, extinguishers);
    const second = await createChapter(app, teacher, extinguishers);
    await createTextLesson(app, teacher, first);
    await createTextLesson(app, teacher, first);
    await createTextLesson(app, teacher, second);
    await createTerm(app, teacher, extinguishers);

    expect(titles((await list(app, teacher)).content)).toEqual(['Expenses', 'Ladders', 'Extinguishers']);
    expect(titles((await list(app, teacher, '?sort=title,asc')).content)).toEqual(['Expenses', 'Extinguishers', 'Ladders']);
    expect(titles((await list(app, teacher, `?categoryId=${safety}`)).content)).toEqual(['Ladders', 'Extinguishers']);
    expect(titles((await list(app, teacher, `?categoryId=${fire}`)).content)).toEqual(['Extinguishers']);
    expect(titles((await list(app, teacher, '?q=HEIGHT')).content)).toEqual(['Ladders']);
    expect(titles((await list(app, teacher, '?q=%25')).content)).toEqual([]);
    expect(titles((await list(app, teacher, '?status=archived')).content)).toEqual(['Expenses']);
    const page = await list(app, teacher, '?sort=title,asc&page=1&size=2');
    expect(page.totalElements).toBe(3);
    expect(titles(page.content)).toEqual(['Ladders']);

    const [row] = (await list(app, teacher, `?categoryId=${fire}`)).content;
    expect(row).toMatchObject({ categoryName: 'Fire', ownerName: '张老师', chapterCount: 2, lessonCount: 3, termCount: 1 });
  });

  it('downloads the filtered list as a real .xlsx, and audits the download', async () => {
    const response = await call(app, 'GET', '/api/courses/download?sort=title,asc&status=published', teacher);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const rows = await sheetRows(response.rawPayload);
    expect(rows[0]).toEqual(['课程名称', '课程分类', '状态', '必修', '负责人', '章节数', '课时数', '开课数', '简介', '创建日期']);
    expect(rows.slice(1).map((cells) => cells.slice(0, 8))).toEqual([['Extinguishers', 'Fire', '已发布', '否', '张老师', 2, 3, 1]]);
    const logged = await db(app).selectFrom('sys_log').select('description').where('description', '=', '导出课程数据').execute();
    expect(logged).toHaveLength(1);
  });
});

describe('courses: deleting', () => {
  let app: FastifyInstance;
  let teacher: string;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
  });

  const count = async (table: 'edu_course' | 'edu_term' | 'edu_chapter' | 'edu_lesson' | 'edu_media' | 'edu_applicant') =>
    Number((await db(app).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('deletes a course with its terms, chapters and lessons, leaving the media in the library', async () => {
    const video = await insertMedia(app, 'video', { durationSeconds: 60 });
    const cover = await insertMedia(app, 'image');
    const id = await createCourse(app, teacher, { cover });
    const kept = await createCourse(app, teacher, { title: 'Kept' });
    const chapter = await createChapter(app, teacher, id);
    await created(app, teacher, '/api/lessons', { chapterId: chapter, title: 'Watch', type: 'video', mediaId: video });
    await createTextLesson(app, teacher, chapter);
    const term = await createTerm(app, teacher, id);
    await insertApplicant(app, term, 'learner2', 'rejected');
    await createChapter(app, teacher, kept);

    const response = await call(app, 'DELETE', '/api/courses', teacher, [id]);
    expect(response.statusCode, response.body).toBe(200);
    expect(await count('edu_course')).toBe(1);
    expect(await count('edu_term')).toBe(0);
    expect(await count('edu_chapter')).toBe(1);
    expect(await count('edu_lesson')).toBe(0);
    expect(await count('edu_applicant')).toBe(0);
    expect(await count('edu_media')).toBe(2);
    expect((await call(app, 'DELETE', '/api/courses', teacher, [id])).statusCode).toBe(404);
  });

  it('refuses to delete a published course people are enrolled in: archive it instead', async () => {
    const published = await createCourse(app, teacher, { title: 'Live course', status: 'published' });
    const draft = await createCourse(app, teacher, { title: 'Quiet course' });
    const term = await createTerm(app, teacher, published);
    await insertApplicant(app, term, 'learner1', 'applied');

    const message = expectConflict(await call(app, 'DELETE', '/api/courses', teacher, [draft, published]));
    expect(message).toBe("course 'Live course' is published and has 1 enrolment(s): archive it instead of deleting it");
    // One transaction: the draft listed with it is still there too.
    expect((await call(app, 'GET', `/api/courses/${draft}`, teacher)).statusCode).toBe(200);

    const archive = await call(app, 'PUT', '/api/courses', teacher, { id: published, title: 'Live course', status: 'archived' });
    expect(archive.statusCode).toBe(204);
    expect((await call(app, 'DELETE', '/api/courses', teacher, [draft, published])).statusCode).toBe(200);
    expect((await call(app, 'GET', `/api/courses/${published}`, teacher)).statusCode).toBe(404);
  });
});

describe('the learner catalogue (GET api/site/courses)', () => {
  let app: FastifyInstance;
  let teacher: string;
  let learner: string;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    learner = await loginAs(app, 'learner1');
  });
  afterAll(async () => {
    await app.close();
  });

  const catalogue = async (query = '') => {
    const response = await call(app, 'GET', `/api/site/courses${query}`, learner);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { content: Record<string, unknown>[]; totalElements: number };
  };

  it('needs a session, and refuses bad paging naming the field', async () => {
    expect((await call(app, 'GET', '/api/site/courses')).statusCode).toBe(401);
    expectRefusal(await call(app, 'GET', '/api/site/courses?size=0', learner), 400, 'size');
    expectRefusal(await call(app, 'GET', '/api/site/courses?categoryId=x', learner), 400, 'categoryId');
  });

  it('lists published courses only, newest first, by text and by a category with everything below it, without staff fields', async () => {
    const safety = await created(app, teacher, '/api/categories', { name: 'Safety' });
    const fire = await created(app, teacher, '/api/categories', { name: 'Fire', pid: safety });
    const extinguishers = await createCourse(app, teacher, { title: 'Extinguishers', categoryId: fire, status: 'published', summary: 'Pull, aim, squeeze' });
    await createCourse(app, teacher, { title: 'Ladders', categoryId: safety, status: 'published' });
    await createCourse(app, teacher, { title: 'Drafted', categoryId: safety });
    await createCourse(app, teacher, { title: 'Retired', categoryId: safety, status: 'archived' });
    await createTextLesson(app, teacher, await createChapter(app, teacher, extinguishers));

    const all = await catalogue();
    expect(all.content.map((course) => course.title)).toEqual(['Ladders', 'Extinguishers']);
    expect(all.totalElements).toBe(2);
    expect((await catalogue(`?categoryId=${fire}`)).content.map((course) => course.title)).toEqual(['Extinguishers']);
    expect((await catalogue(`?categoryId=${safety}&q=SQUEEZE`)).content.map((course) => course.title)).toEqual(['Extinguishers']);
    const paged = await catalogue('?page=1&size=1');
    expect(paged).toMatchObject({ totalElements: 2, content: [{ title: 'Extinguishers' }] });
    expect(paged.content[0]).toEqual({
      id: extinguishers,
      title: 'Extinguishers',
      categoryId: fire,
      categoryName: 'Fire',
      required: false,
      cover: null,
      summary: 'Pull, aim, squeeze',
      chapterCount: 1,
      lessonCount: 1,
      updateTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
  });
});
