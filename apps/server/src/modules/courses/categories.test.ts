import { categoryTreeSchema, siteCategorySchema, type CategoryTree, type SiteCategory } from '@cloud-classroom/shared/courses';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { sheetRows } from '../../test/sheet-rows.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';
import { createCourse, created, db, expectConflict, expectRefusal } from '../../test/course-fixtures.js';

async function tree(app: FastifyInstance, token: string): Promise<CategoryTree[]> {
  const response = await call(app, 'GET', '/api/categories', token);
  expect(response.statusCode, response.body).toBe(200);
  return z.array(categoryTreeSchema).parse(response.json());
}

/** The tree as nested names with their counts: 'name (subCount/courseCount)'. */
type Shape = string | Record<string, Shape[]>;
const shape = (nodes: readonly CategoryTree[]): Shape[] =>
  nodes.map((node) => {
    const label = `${node.name} (${node.subCount}/${node.courseCount})`;
    return node.children === undefined ? label : { [label]: shape(node.children) };
  });

const createCategory = (app: FastifyInstance, token: string, name: string, pid: number | null = null, sort = 1) =>
  created(app, token, '/api/categories', { name, pid, sort });

describe('categories: access', () => {
  const { app } = itRefusesOutsiders([
    ['GET', '/api/categories'],
    ['GET', '/api/categories/download'],
    ['POST', '/api/categories', { name: 'nope', pid: null, sort: 1 }],
    ['PUT', '/api/categories', { id: 1, name: 'nope', pid: null, sort: 1 }],
    ['DELETE', '/api/categories', [1]],
  ]);

  it('nothing was written by the refused calls', async () => {
    expect(await db(app()).selectFrom('edu_category').selectAll().execute()).toEqual([]);
  });
});

describe('categories', () => {
  let app: FastifyInstance;
  let teacher: string;
  beforeAll(async () => {
    app = await buildTestApp();
    // The demo teacher holds course:* through migration 0010: everything here is done as them.
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
  });

  it('builds the tree by sort with each category’s sub-categories and courses counted', async () => {
    const safety = await createCategory(app, teacher, 'Safety', null, 2);
    const onboarding = await createCategory(app, teacher, 'Onboarding', null, 1);
    const fire = await createCategory(app, teacher, 'Fire', safety, 2);
    await createCategory(app, teacher, 'Chemicals', safety, 1);
    await createCourse(app, teacher, { categoryId: fire });
    await createCourse(app, teacher, { categoryId: fire });
    await createCourse(app, teacher, { categoryId: onboarding });
    expect(shape(await tree(app, teacher))).toEqual([
      'Onboarding (0/1)',
      { 'Safety (2/0)': ['Chemicals (0/0)', 'Fire (0/2)'] },
    ]);
    const [first] = await tree(app, teacher);
    expect(first).toMatchObject({ id: onboarding, pid: null, sort: 1, createBy: 'teacher', updateBy: 'teacher' });
    expect(first?.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('downloads the tree as a real .xlsx, parents first with each one’s path, and audits it', async () => {
    const response = await call(app, 'GET', '/api/categories/download', teacher);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const rows = await sheetRows(response.rawPayload);
    expect(rows[0]).toEqual(['分类名称', '分类路径', '排序', '子分类数', '课程数', '创建日期']);
    expect(rows.slice(1, 5).map((cells) => cells.slice(0, 5))).toEqual([
      ['Onboarding', 'Onboarding', 1, 0, 1],
      ['Safety', 'Safety', 2, 2, 0],
      ['Chemicals', 'Safety / Chemicals', 1, 0, 0],
      ['Fire', 'Safety / Fire', 2, 0, 2],
    ]);
    await app.auditLogSettled();
    expect(await db(app).selectFrom('sys_log').select('username').where('description', '=', '导出课程分类').execute()).toEqual([{ username: 'teacher' }]);
  });

  it('refuses a parent that does not exist, and bad bodies, naming the field', async () => {
    expectRefusal(await call(app, 'POST', '/api/categories', teacher, { name: 'x', pid: 99_999 }), 400, 'pid');
    expectRefusal(await call(app, 'POST', '/api/categories', teacher, { name: ' ' }), 400, 'name');
    expectRefusal(await call(app, 'POST', '/api/categories', teacher, { name: 'x'.repeat(51) }), 400, 'name');
    expectRefusal(await call(app, 'PUT', '/api/categories', teacher, { name: 'x' }), 400, 'id');
    expect((await call(app, 'PUT', '/api/categories', teacher, { id: 99_999, name: 'x' })).statusCode).toBe(404);
    expectRefusal(await call(app, 'DELETE', '/api/categories', teacher, []), 400, 'body');
  });

  it('moves a category and recounts both parents; never under itself or below itself', async () => {
    const root = await createCategory(app, teacher, 'Move root');
    const other = await createCategory(app, teacher, 'Move other');
    const child = await createCategory(app, teacher, 'Move child', root);
    const grandchild = await createCategory(app, teacher, 'Move grandchild', child);

    for (const pid of [root, child, grandchild]) {
      const message = expectRefusal(await call(app, 'PUT', '/api/categories', teacher, { id: root, name: 'Move root', pid }), 400, 'pid');
      expect(message).toContain('under itself');
    }
    expectRefusal(await call(app, 'PUT', '/api/categories', teacher, { id: root, name: 'Move root', pid: 99_999 }), 400, 'pid');

    const moved = await call(app, 'PUT', '/api/categories', teacher, { id: child, name: 'Moved child', pid: other, sort: 5 });
    expect(moved.statusCode, moved.body).toBe(204);
    const byName = new Map((await tree(app, teacher)).map((node) => [node.name, node]));
    expect(byName.get('Move root')).toMatchObject({ subCount: 0 });
    expect(byName.get('Move root')?.children).toBeUndefined();
    expect(byName.get('Move other')).toMatchObject({ subCount: 1, children: [{ name: 'Moved child', sort: 5, subCount: 1 }] });
  });

  it('refuses to delete a category with sub-categories or courses, naming what holds it', async () => {
    const parent = await createCategory(app, teacher, 'Held parent');
    const child = await createCategory(app, teacher, 'Held child', parent);
    const withCourse = await createCategory(app, teacher, 'Held by a course');
    await createCourse(app, teacher, { categoryId: withCourse });

    const held = expectConflict(await call(app, 'DELETE', '/api/categories', teacher, [parent]));
    expect(held).toContain("'Held parent' still has 1 sub-category");
    const holding = expectConflict(await call(app, 'DELETE', '/api/categories', teacher, [withCourse]));
    expect(holding).toContain("'Held by a course' still holds 1 course(s)");
    expect((await call(app, 'DELETE', '/api/categories', teacher, [99_999])).statusCode).toBe(404);
    const names = (await db(app).selectFrom('edu_category').select('name').execute()).map((row) => row.name);
    expect(names).toEqual(expect.arrayContaining(['Held parent', 'Held child', 'Held by a course']));

    // A parent goes together with its children, and a deleted child is no longer counted.
    const grand = await createCategory(app, teacher, 'Held grandparent');
    const middle = await createCategory(app, teacher, 'Held middle', grand);
    expect((await call(app, 'DELETE', '/api/categories', teacher, [parent, child])).statusCode).toBe(200);
    expect((await call(app, 'DELETE', '/api/categories', teacher, [middle])).statusCode).toBe(200);
    const byName = new Map((await tree(app, teacher)).map((node) => [node.name, node]));
    expect(byName.has('Held parent')).toBe(false);
    expect(byName.get('Held grandparent')).toMatchObject({ subCount: 0 });
  });
});

describe("the learner's categories (GET api/site/categories)", () => {
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

  const siteTree = async () => {
    const response = await call(app, 'GET', '/api/site/categories', learner);
    expect(response.statusCode, response.body).toBe(200);
    return z.array(siteCategorySchema).parse(response.json());
  };
  /** 'name (published courses in the subtree)', nested. */
  const siteShape = (nodes: readonly SiteCategory[]): Shape[] =>
    nodes.map((node) => {
      const label = `${node.name} (${node.courseCount})`;
      return node.children === undefined ? label : { [label]: siteShape(node.children as SiteCategory[]) };
    });

  it('needs a session, nothing more', async () => {
    expect((await call(app, 'GET', '/api/site/categories')).statusCode).toBe(401);
    expect(await siteTree()).toEqual([]);
  });

  it('lists only the branches holding a published course, counting them through the subtree, without staff fields', async () => {
    const safety = await createCategory(app, teacher, 'Safety', null, 1);
    const fire = await createCategory(app, teacher, 'Fire', safety, 1);
    const ladders = await createCategory(app, teacher, 'Ladders', safety, 2);
    await createCategory(app, teacher, 'Empty', safety, 3);
    const drafts = await createCategory(app, teacher, 'Drafts only', null, 2);
    const sales = await createCategory(app, teacher, 'Sales', null, 3);
    await createCourse(app, teacher, { title: 'Extinguishers', categoryId: fire, status: 'published' });
    await createCourse(app, teacher, { title: 'Alarms', categoryId: fire, status: 'published' });
    await createCourse(app, teacher, { title: 'Step ladders', categoryId: ladders, status: 'archived' });
    await createCourse(app, teacher, { title: 'Work plan', categoryId: drafts });
    await createCourse(app, teacher, { title: 'Pitching', categoryId: sales, status: 'published' });
    await createCourse(app, teacher, { title: 'Uncategorised', status: 'published' });

    const tree = await siteTree();
    expect(siteShape(tree)).toEqual([{ 'Safety (2)': ['Fire (2)'] }, 'Sales (1)']);
    expect(tree[0]).toEqual({ id: safety, pid: null, name: 'Safety', courseCount: 2, children: [{ id: fire, pid: safety, name: 'Fire', courseCount: 2 }] });
    // What the catalogue then finds for a category is what it counted.
    const catalogue = await call(app, 'GET', `/api/site/courses?categoryId=${safety}`, learner);
    expect(catalogue.json()).toMatchObject({ totalElements: 2 });
  });
});
