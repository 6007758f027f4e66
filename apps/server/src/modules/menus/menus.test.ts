import { pageOf } from '@cloud-classroom/shared/http';
import {
  menuChildIdsSchema,
  menuListSchema,
  menuRoutesSchema,
  menuSchema,
  type Menu,
  type MenuCreateBody,
  type MenuRoute,
} from '@cloud-classroom/shared/menus';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sheetRows } from '../../test/sheet-rows.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

const db = (app: FastifyInstance) => app.services.database.db;

async function idOf(app: FastifyInstance, title: string): Promise<number> {
  const row = await db(app).selectFrom('sys_menu').select('id').where('title', '=', title).executeTakeFirstOrThrow();
  return row.id;
}

async function subCountOf(app: FastifyInstance, title: string): Promise<number> {
  const row = await db(app).selectFrom('sys_menu').select('sub_count').where('title', '=', title).executeTakeFirstOrThrow();
  return row.sub_count;
}

const page = (title: string, extra: Partial<MenuCreateBody> = {}): MenuCreateBody => ({
  title,
  type: 1,
  path: title.toLowerCase(),
  component: `demo/${title.toLowerCase()}/index`,
  componentName: title,
  cache: true,
  ...extra,
});

async function create(app: FastifyInstance, token: string, body: MenuCreateBody): Promise<number> {
  const response = await call(app, 'POST', '/api/menus', token, body);
  expect(response.statusCode, response.body).toBe(201);
  return idOf(app, body.title);
}

async function build(app: FastifyInstance, token: string): Promise<MenuRoute[]> {
  const response = await call(app, 'GET', '/api/menus/build', token);
  expect(response.statusCode).toBe(200);
  return menuRoutesSchema.parse(response.json());
}

const titles = (menus: readonly Menu[]) => menus.map((menu) => menu.title);
const SEEDED_TOP = ['课程中心', '考试中心', '证书管理', '系统管理', '系统监控', '系统工具'];
const SYSTEM_PAGES = ['用户管理', '角色管理', '菜单管理', '部门管理', '字典管理'];
const SEEDED_TOP_EN = ['Courses', 'Exams', 'Certificates', 'System', 'Monitoring', 'Tools'];
const SYSTEM_PAGES_EN = ['Users', 'Roles', 'Menus', 'Departments', 'Dictionaries'];

describe('menus: access', () => {
  const { app, learner } = itRefusesOutsiders([
    ['GET', '/api/menus/lazy?pid=0'],
    ['GET', '/api/menus'],
    ['GET', '/api/menus/download'],
    ['POST', '/api/menus/superior', []],
    ['GET', '/api/menus/child?id=1'],
    ['POST', '/api/menus', page('Nope')],
    ['PUT', '/api/menus', { ...page('Nope'), id: 1 }],
    ['DELETE', '/api/menus', [1]],
  ]);

  it('GET /api/menus/build needs a session, and a learner without menus gets an empty tree', async () => {
    expect((await call(app(), 'GET', '/api/menus/build')).statusCode).toBe(401);
    expect(await build(app(), learner())).toEqual([]);
  });
});

describe('menus', () => {
  let app: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
  });

  describe('GET /api/menus/lazy', () => {
    it('lists the top level for pid 0 or no pid, and the direct children of a menu', async () => {
      for (const url of ['/api/menus/lazy', '/api/menus/lazy?pid=0']) {
        const response = await call(app, 'GET', url, admin);
        expect(response.statusCode).toBe(200);
        const menus = menuListSchema.parse(response.json());
        expect(titles(menus)).toEqual(SEEDED_TOP);
        expect(menus.map((menu) => menu.titleEn)).toEqual(SEEDED_TOP_EN);
        expect(menus[3]).toMatchObject({
          pid: null,
          type: 0,
          path: 'system',
          icon: 'system',
          iFrame: false,
          hidden: false,
          subCount: 5,
          hasChildren: true,
          leaf: false,
          label: '系统管理',
          createBy: 'system',
        });
        expect(menus[1]?.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
        expect(menus[1]).not.toHaveProperty('children');
      }
      const systemId = await idOf(app, '系统管理');
      const children = menuListSchema.parse((await call(app, 'GET', `/api/menus/lazy?pid=${systemId}`, admin)).json());
      expect(titles(children)).toEqual(SYSTEM_PAGES);
      expect(children.map((menu) => menu.titleEn)).toEqual(SYSTEM_PAGES_EN);
      expect(children[0]).toMatchObject({
        pid: systemId,
        type: 1,
        componentName: 'User',
        component: 'system/user/index',
        permission: 'user:list',
        cache: true,
        subCount: 3,
      });
    });

    it('answers 400 naming pid when it is not a number', async () => {
      const response = await call(app, 'GET', '/api/menus/lazy?pid=abc', admin);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^pid: /);
    });
  });

  describe('GET /api/menus', () => {
    it('lists only the top level without a filter, wrapped as a page', async () => {
      const response = await call(app, 'GET', '/api/menus', admin);
      expect(response.statusCode).toBe(200);
      const body = pageOf(menuSchema).parse(response.json());
      expect(titles(body.content)).toEqual(SEEDED_TOP);
      expect(body.content.map((menu) => menu.titleEn)).toEqual(SEEDED_TOP_EN);
      expect(body.totalElements).toBe(SEEDED_TOP.length);
    });

    it('filters by pid, by blurry text in either title, component or permission (any case, any level)', async () => {
      const systemId = await idOf(app, '系统管理');
      const list = async (query: string) => {
        const response = await call(app, 'GET', `/api/menus?${query}`, admin);
        expect(response.statusCode).toBe(200);
        return titles(pageOf(menuSchema).parse(response.json()).content);
      };
      expect(await list(`pid=${systemId}`)).toEqual(SYSTEM_PAGES);
      // Matches come from every level, in menuSort order.
      expect((await list(`blurry=${encodeURIComponent('用户')}`)).sort()).toEqual(['在线用户', '用户删除', '用户管理', '用户编辑', '用户新增'].sort());
      expect(await list('blurry=system%2Fdict')).toEqual(['字典管理']);
      // The server's monitor and the database's (0024) share the code.
      expect(await list('blurry=MONITOR%3AList')).toEqual(['服务监控', 'SQL监控']);
      expect(await list('blurry=online%20USERS')).toEqual(['在线用户']);
      expect(await list('blurry=%25')).toEqual([]);
    });

    it('filters by a creation time range', async () => {
      const id = await idOf(app, '接口文档');
      await db(app).updateTable('sys_menu').set({ create_time: new Date(2020, 5, 1, 12).getTime() }).where('id', '=', id).execute();
      const response = await call(app, 'GET', `/api/menus?createTime=2020-01-01+00:00:00&createTime=2020-12-31+23:59:59`, admin);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ content: [{ id, title: '接口文档' }], totalElements: 1 });
    });

    it('includes both ends of the range to the second', async () => {
      const id = await idOf(app, '接口文档');
      await db(app).updateTable('sys_menu').set({ create_time: new Date(2020, 5, 1, 12, 0, 0, 500).getTime() }).where('id', '=', id).execute();
      const count = async (from: string, to: string) =>
        (await call(app, 'GET', `/api/menus?createTime=${encodeURIComponent(from)}&createTime=${encodeURIComponent(to)}`, admin)).json().totalElements;
      expect(await count('2020-06-01 12:00:00', '2020-06-01 12:00:00')).toBe(1);
      expect(await count('2020-06-01 11:00:00', '2020-06-01 11:59:59')).toBe(0);
      expect(await count('2020-06-01 12:00:01', '2020-06-01 13:00:00')).toBe(0);
    });

    it('answers 400 naming createTime when the range is not two times', async () => {
      for (const query of ['createTime=2020-01-01+00:00:00', 'createTime=yesterday&createTime=today']) {
        const response = await call(app, 'GET', `/api/menus?${query}`, admin);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(/^createTime/);
      }
    });
  });

  describe('GET /api/menus/download', () => {
    it('exports every menu the filters match as .xlsx, and audits the export', async () => {
      const response = await call(app, 'GET', `/api/menus/download?blurry=${encodeURIComponent('角色')}`, admin);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(response.headers['content-disposition']).toContain('.xlsx');
      const [header, ...rows] = await sheetRows(response.rawPayload);
      expect(header?.slice(0, 2)).toEqual(['菜单标题', '英文标题']);
      expect(rows).toHaveLength(4);
      expect(rows).toContainEqual(expect.arrayContaining(['角色管理', 'Roles', '菜单', 'roles:list', 'system/role/index', '否', '是']));

      const everything = await call(app, 'GET', '/api/menus/download', admin);
      const all = await sheetRows(everything.rawPayload);
      const { count } = await db(app).selectFrom('sys_menu').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      expect(all).toHaveLength(Number(count) + 1);

      await app.auditLogSettled();
      const log = await db(app).selectFrom('sys_log').select(['username', 'method']).where('description', '=', '导出菜单数据').execute();
      expect(log).toContainEqual({ username: 'admin', method: 'GET /api/menus/download' });
    });

    it('answers 400 naming the bad filter', async () => {
      const response = await call(app, 'GET', '/api/menus/download?pid=-1', admin);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^pid: /);
    });
  });

  describe('POST /api/menus/superior', () => {
    it('gives the top level for an empty list', async () => {
      const response = await call(app, 'POST', '/api/menus/superior', admin, []);
      expect(response.statusCode).toBe(200);
      expect(titles(menuListSchema.parse(response.json()))).toEqual(SEEDED_TOP);
    });

    it('gives the siblings of the menu and of its ancestors as a tree, without the menu itself', async () => {
      const userId = await idOf(app, '用户管理');
      const response = await call(app, 'POST', '/api/menus/superior', admin, [userId]);
      expect(response.statusCode).toBe(200);
      const tree = menuListSchema.parse(response.json());
      expect(titles(tree)).toEqual(SEEDED_TOP);
      expect(titles(tree[3]?.children ?? [])).toEqual(SYSTEM_PAGES.filter((title) => title !== '用户管理'));
      expect(tree.map((menu) => menu.titleEn)).toEqual(SEEDED_TOP_EN);
      expect(tree[3]?.children?.map((menu) => menu.titleEn)).toEqual(SYSTEM_PAGES_EN.filter((title) => title !== 'Users'));
      // Buttons are not siblings of any level here, so the pages carry no children.
      expect(tree[3]?.children?.every((menu) => menu.children === undefined)).toBe(true);
      expect(tree[0]?.children).toBeUndefined();
      expect(tree[4]?.children).toBeUndefined();

      const systemId = await idOf(app, '系统管理');
      const top = menuListSchema.parse((await call(app, 'POST', '/api/menus/superior', admin, [systemId])).json());
      expect(titles(top)).toEqual(['课程中心', '考试中心', '证书管理', '系统监控', '系统工具']);
    });

    it('answers 400 naming the body when it is not a list of ids, and 404 for an unknown id', async () => {
      const bad = await call(app, 'POST', '/api/menus/superior', admin, { ids: [1] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^body: /);
      const unknown = await call(app, 'POST', '/api/menus/superior', admin, [999_999]);
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe('GET /api/menus/child', () => {
    it('gives the ids of the menu and everything below it', async () => {
      const systemId = await idOf(app, '系统管理');
      const response = await call(app, 'GET', `/api/menus/child?id=${systemId}`, admin);
      expect(response.statusCode).toBe(200);
      const ids = menuChildIdsSchema.parse(response.json());
      const pages = await db(app).selectFrom('sys_menu').select('id').where('pid', '=', systemId).execute();
      const buttons = await db(app)
        .selectFrom('sys_menu')
        .select('id')
        .where('pid', 'in', pages.map((row) => row.id))
        .execute();
      expect(ids).toEqual([systemId, ...pages.map((row) => row.id), ...buttons.map((row) => row.id)].sort((a, b) => a - b));
      expect(ids).toHaveLength(1 + 5 + 15);
    });

    it('answers 400 naming id when it is missing, and 404 for an unknown id', async () => {
      const missing = await call(app, 'GET', '/api/menus/child', admin);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toMatch(/^id: /);
      expect((await call(app, 'GET', '/api/menus/child?id=999999', admin)).statusCode).toBe(404);
    });
  });

  describe('GET /api/menus/build', () => {
    it("gives an administrator every visible menu as routes: Layout directories, pages, no buttons", async () => {
      const routes = await build(app, admin);
      expect(routes.map((route) => route.path)).toEqual(['/course', '/exam', '/cert', '/system', '/monitor', '/sys-tools']);
      expect(routes[3]).toMatchObject({
        name: '系统管理',
        path: '/system',
        hidden: false,
        component: 'Layout',
        alwaysShow: true,
        redirect: 'noredirect',
        meta: { title: '系统管理', titleEn: 'System', icon: 'system', noCache: true },
      });
      expect(routes[3]?.children?.[0]).toEqual({
        name: 'User',
        path: 'user',
        hidden: false,
        component: 'system/user/index',
        meta: { title: '用户管理', titleEn: 'Users', icon: 'peoples', noCache: false },
      });
      expect(routes.map((route) => route.meta?.titleEn)).toEqual(SEEDED_TOP_EN);
      expect(routes[3]?.children?.map((route) => route.meta?.titleEn)).toEqual(SYSTEM_PAGES_EN);
      expect(routes[3]?.children?.map((route) => route.name)).toEqual(['User', 'Role', 'Menu', 'Dept', 'Dict']);
      const all = JSON.stringify(routes);
      expect(all).not.toContain('用户新增');
    });
  });
});

describe('menus: building the tree', () => {
  let app: FastifyInstance;
  let admin: string;
  afterEach(async () => {
    await app.close();
  });

  it('nests directories as ParentView, wraps a top-level page, keeps external links, follows menuSort, leaves hidden menus out', async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
    const systemId = await idOf(app, '系统管理');
    const nested = await create(app, admin, { title: '嵌套目录', type: 0, path: 'nested', icon: 'tree', pid: systemId, menuSort: 0 });
    await create(app, admin, page('Deep', { pid: nested, menuSort: 1 }));
    await create(app, admin, { title: '文档', titleEn: 'Docs', type: 1, path: 'https://example.com/docs', iFrame: true, pid: nested, menuSort: 9 });
    await create(app, admin, page('Dashboard', { menuSort: 0, icon: 'index' }));
    const hiddenDir = await create(app, admin, { title: '隐藏目录', type: 0, path: 'secret', hidden: true });
    await create(app, admin, page('UnderHidden', { pid: hiddenDir }));
    await create(app, admin, page('HiddenPage', { pid: systemId, hidden: true }));

    const routes = await build(app, admin);
    expect(routes.map((route) => route.path)).toEqual(['/course', '/exam', '/cert', '/dashboard', '/system', '/monitor', '/sys-tools']);
    expect(routes[3]).toEqual({
      path: '/dashboard',
      hidden: false,
      component: 'Layout',
      children: [
        { name: 'Dashboard', path: 'index', hidden: false, component: 'demo/dashboard/index', meta: { title: 'Dashboard', titleEn: null, icon: 'index', noCache: false } },
      ],
    });
    const system = routes[4];
    expect(system?.children?.map((route) => route.name)).toEqual(['嵌套目录', 'User', 'Role', 'Menu', 'Dept', 'Dict']);
    expect(system?.children?.[0]).toMatchObject({
      name: '嵌套目录',
      path: 'nested',
      component: 'ParentView',
      alwaysShow: true,
      redirect: 'noredirect',
      meta: { title: '嵌套目录', titleEn: null, icon: 'tree', noCache: true },
      children: [
        { name: 'Deep', path: 'deep', component: 'demo/deep/index' },
        { name: '文档', path: 'https://example.com/docs', meta: { title: '文档', titleEn: 'Docs', icon: null, noCache: true } },
      ],
    });
    expect(system?.children?.[0]?.children?.[1]).not.toHaveProperty('component');
    const all = JSON.stringify(routes);
    for (const title of ['隐藏目录', 'UnderHidden', 'HiddenPage']) expect(all).not.toContain(title);
  });

  it('gives a user only the menus their roles grant, and roles:list alone opens the lazy tree', async () => {
    app = await buildTestApp();
    const now = Date.now();
    const { id: roleId } = await db(app)
      .insertInto('sys_role')
      .values({ name: 'role keeper', level: 3, data_scope: '本级', description: null, create_by: null, update_by: null, create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const granted = await db(app)
      .selectFrom('sys_menu')
      .select('id')
      .where('title', 'in', ['系统管理', '角色管理', '角色新增', '在线用户'])
      .execute();
    await db(app).insertInto('sys_roles_menus').values(granted.map((menu) => ({ role_id: roleId, menu_id: menu.id }))).execute();
    const learner2 = await db(app).selectFrom('sys_user').select('id').where('username', '=', 'learner2').executeTakeFirstOrThrow();
    await db(app).insertInto('sys_users_roles').values({ user_id: learner2.id, role_id: roleId }).execute();
    const token = await loginAs(app, 'learner2');

    const routes = await build(app, token);
    // 在线用户 is granted without its directory, so it cannot be reached and is left out.
    expect(routes).toHaveLength(1);
    expect(routes[0]).toMatchObject({ path: '/system', children: [{ name: 'Role', path: 'role' }] });
    expect(routes[0]?.children).toHaveLength(1);

    expect((await call(app, 'GET', '/api/menus/lazy', token)).statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/menus', token)).statusCode).toBe(403);
  });
});

describe('menus: writes', () => {
  let app: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
  });

  const expectError = async (response: Awaited<ReturnType<typeof call>>, status: number, field: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toMatchObject({ status, message: expect.stringMatching(new RegExp(`^${field}: `)) });
  };

  describe('POST /api/menus', () => {
    it('creates a menu, storing only known fields, blanks as null, and counts it under its parent', async () => {
      const monitorId = await idOf(app, '系统监控');
      const response = await call(app, 'POST', '/api/menus', admin, {
        ...page('Created', { pid: monitorId, icon: '', permission: ' created:list ' }),
        subCount: 42,
        createBy: 'mallory',
        id: 7,
      });
      expect(response.statusCode).toBe(201);
      expect(response.body).toBe('');
      const children = menuListSchema.parse((await call(app, 'GET', `/api/menus/lazy?pid=${monitorId}`, admin)).json());
      expect(children.at(-1)).toMatchObject({
        title: 'Created',
        // None given: the Chinese title is shown in English too.
        titleEn: null,
        pid: monitorId,
        type: 1,
        path: 'created',
        component: 'demo/created/index',
        componentName: 'Created',
        icon: null,
        permission: 'created:list',
        menuSort: 999,
        cache: true,
        iFrame: false,
        hidden: false,
        subCount: 0,
        createBy: 'admin',
        updateBy: 'admin',
      });
      expect(children.at(-1)?.id).not.toBe(7);
      // Online users, the two logs, the server's and the database's monitors (0024), and this one.
      expect(await subCountOf(app, '系统监控')).toBe(6);

      const top = await create(app, admin, { title: 'Top level', type: 0, pid: 0 });
      const row = await db(app).selectFrom('sys_menu').select(['pid', 'component_name']).where('id', '=', top).executeTakeFirstOrThrow();
      expect(row).toEqual({ pid: null, component_name: null });
    });

    it('keeps only the fields of the menu type, as the menu form sends them', async () => {
      const stored = async (id: number) =>
        db(app)
          .selectFrom('sys_menu')
          .select(['path', 'component', 'component_name', 'icon', 'permission', 'i_frame', 'cache', 'hidden'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
      const everything = { icon: 'edit', permission: 'typed:list', iFrame: false, cache: true, hidden: true };
      const button = await create(app, admin, page('Typed button', { ...everything, type: 2 }));
      expect(await stored(button)).toEqual({
        path: null, component: null, component_name: null, icon: null, permission: 'typed:list', i_frame: 0, cache: 0, hidden: 0,
      });
      const directory = await create(app, admin, page('Typed directory', { ...everything, type: 0 }));
      expect(await stored(directory)).toEqual({
        path: 'typed directory', component: null, component_name: null, icon: 'edit', permission: null, i_frame: 0, cache: 0, hidden: 1,
      });
      // An edit that turns a page into a button drops its route too.
      const typedPage = await create(app, admin, page('Typed page', everything));
      expect(await stored(typedPage)).toMatchObject({ path: 'typed page', component: 'demo/typed page/index', component_name: 'Typed page' });
      const turned = await call(app, 'PUT', '/api/menus', admin, { ...page('Typed page', everything), type: 2, id: typedPage });
      expect(turned.statusCode, turned.body).toBe(204);
      expect(await stored(typedPage)).toEqual({
        path: null, component: null, component_name: null, icon: null, permission: 'typed:list', i_frame: 0, cache: 0, hidden: 0,
      });
    });

    it('keeps an English title beside the Chinese one, and a blank one as none', async () => {
      const id = await create(app, admin, page('考试管理', { titleEn: ' Exams ' }));
      const stored = async () =>
        (await db(app).selectFrom('sys_menu').select(['title', 'title_en']).where('id', '=', id).executeTakeFirstOrThrow());
      expect(await stored()).toEqual({ title: '考试管理', title_en: 'Exams' });
      const routes = await build(app, admin);
      expect(routes.find((route) => route.path === '/考试管理')?.children?.[0]?.meta).toMatchObject({ title: '考试管理', titleEn: 'Exams' });

      const cleared = await call(app, 'PUT', '/api/menus', admin, { ...page('考试管理', { titleEn: '' }), id });
      expect(cleared.statusCode, cleared.body).toBe(204);
      expect(await stored()).toEqual({ title: '考试管理', title_en: null });
      await expectError(await call(app, 'POST', '/api/menus', admin, page('Long', { titleEn: 'x'.repeat(101) })), 400, 'titleEn');
    });

    it('answers 400 naming the field for bad input', async () => {
      await expectError(await call(app, 'POST', '/api/menus', admin, { type: 1 }), 400, 'title');
      await expectError(await call(app, 'POST', '/api/menus', admin, page('Typed', { type: 5 as 1 })), 400, 'type');
      await expectError(await call(app, 'POST', '/api/menus', admin, page('Far', { iFrame: true, path: 'ftp://example.com' })), 400, 'path');
      await expectError(await call(app, 'POST', '/api/menus', admin, page('Nowhere', { iFrame: true, path: '' })), 400, 'path');
      await expectError(await call(app, 'POST', '/api/menus', admin, page('Orphan', { pid: 999_999 })), 400, 'pid');
    });

    it('accepts an external link with an http(s) address', async () => {
      await create(app, admin, { title: 'Elsewhere', type: 1, iFrame: true, path: 'HTTPS://example.com' });
    });

    it('answers 409 naming the field for a taken title or component name', async () => {
      await expectError(await call(app, 'POST', '/api/menus', admin, page('用户管理')), 409, 'title');
      await expectError(await call(app, 'POST', '/api/menus', admin, page('Fresh', { componentName: 'User' })), 409, 'componentName');
    });
  });

  describe('PUT /api/menus', () => {
    it('updates a menu and recounts both its old and its new parent', async () => {
      const moving = await create(app, admin, page('Moving', { pid: await idOf(app, '系统工具') }));
      // Storage, API docs, installation media (0021), database backups (0022), cloud storage (0023), and this one.
      expect(await subCountOf(app, '系统工具')).toBe(6);
      const systemId = await idOf(app, '系统管理');
      const response = await call(app, 'PUT', '/api/menus', admin, { ...page('Moved', { pid: systemId, menuSort: 3, hidden: true }), id: moving });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      const row = await db(app).selectFrom('sys_menu').selectAll().where('id', '=', moving).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ title: 'Moved', pid: systemId, menu_sort: 3, hidden: 1, component_name: 'Moved', update_by: 'admin' });
      expect(await subCountOf(app, '系统工具')).toBe(5);
      expect(await subCountOf(app, '系统管理')).toBe(6);

      // Keeping its own title and component name is no conflict.
      expect((await call(app, 'PUT', '/api/menus', admin, { ...page('Moved', { pid: 0 }), id: moving })).statusCode).toBe(204);
      expect(await subCountOf(app, '系统管理')).toBe(5);
      expect((await db(app).selectFrom('sys_menu').select('pid').where('id', '=', moving).executeTakeFirstOrThrow()).pid).toBeNull();
    });

    it('refuses to put a menu under itself or under one of its descendants', async () => {
      const systemId = await idOf(app, '系统管理');
      const body = { title: '系统管理', type: 0, path: 'system', icon: 'system', id: systemId } as const;
      await expectError(await call(app, 'PUT', '/api/menus', admin, { ...body, pid: systemId }), 400, 'pid');
      await expectError(await call(app, 'PUT', '/api/menus', admin, { ...body, pid: await idOf(app, '用户管理') }), 400, 'pid');
      await expectError(await call(app, 'PUT', '/api/menus', admin, { ...body, pid: await idOf(app, '用户新增') }), 400, 'pid');
      expect((await db(app).selectFrom('sys_menu').select('pid').where('id', '=', systemId).executeTakeFirstOrThrow()).pid).toBeNull();
    });

    it('answers 400 naming the field, 404 for an unknown menu and 409 for a taken title', async () => {
      await expectError(await call(app, 'PUT', '/api/menus', admin, page('NoId')), 400, 'id');
      await expectError(await call(app, 'PUT', '/api/menus', admin, { ...page('Bad'), id: await idOf(app, '接口文档'), title: '' }), 400, 'title');
      expect((await call(app, 'PUT', '/api/menus', admin, { ...page('Ghost'), id: 999_999 })).statusCode).toBe(404);
      await expectError(await call(app, 'PUT', '/api/menus', admin, { ...page('角色管理'), id: await idOf(app, '接口文档') }), 409, 'title');
    });
  });

  describe('DELETE /api/menus', () => {
    it('deletes each menu with its subtree and role links, and recounts the parent', async () => {
      const userPage = await idOf(app, '用户管理');
      const subtree = menuChildIdsSchema.parse((await call(app, 'GET', `/api/menus/child?id=${userPage}`, admin)).json());
      expect(subtree).toHaveLength(4);
      const before = await subCountOf(app, '系统管理');
      const response = await call(app, 'DELETE', '/api/menus', admin, [userPage]);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('');
      expect(await db(app).selectFrom('sys_menu').select('id').where('id', 'in', subtree).execute()).toEqual([]);
      expect(await db(app).selectFrom('sys_roles_menus').select('menu_id').where('menu_id', 'in', subtree).execute()).toEqual([]);
      expect(await subCountOf(app, '系统管理')).toBe(before - 1);

      await app.auditLogSettled();
      const log = await db(app).selectFrom('sys_log').select('status').where('description', '=', '删除菜单').execute();
      expect(log).toContainEqual({ status: 200 });
    });

    it('answers 400 naming the body for no ids, and 404 for an unknown one without deleting anything', async () => {
      await expectError(await call(app, 'DELETE', '/api/menus', admin, []), 400, 'body');
      const dict = await idOf(app, '字典管理');
      expect((await call(app, 'DELETE', '/api/menus', admin, [dict, 999_999])).statusCode).toBe(404);
      expect(await idOf(app, '字典管理')).toBe(dict);
    });
  });
});

/**
 * A role holding only menu:list and menu:edit (with the directory, the menu page and its edit
 * button) once gave itself online:list and online:del by writing those codes onto its own menus.
 */
describe('menus: a permission code follows the rule of granting it', () => {
  let app: FastifyInstance;
  let admin: string;
  let editor: string;

  /** A non-admin user 'menu-editor' whose one role holds exactly these menus, made through the API. */
  async function addEditor(titles: readonly string[]): Promise<string> {
    const role = await call(app, 'POST', '/api/roles', admin, { name: 'menu-editor', level: 2, dataScope: '全部', description: null, depts: [] });
    expect(role.statusCode, role.body).toBe(201);
    const { id: roleId } = await db(app).selectFrom('sys_role').select('id').where('name', '=', 'menu-editor').executeTakeFirstOrThrow();
    const menus = await Promise.all(titles.map(async (title) => ({ id: await idOf(app, title) })));
    expect((await call(app, 'PUT', '/api/roles/menu', admin, { id: roleId, menus })).statusCode).toBe(204);
    const { id: deptId } = await db(app).selectFrom('sys_dept').select('id').where('name', '=', '研发部').executeTakeFirstOrThrow();
    const user = await call(app, 'POST', '/api/users', admin, {
      username: 'menu-editor', nickName: 'Menu editor', gender: '男', phone: null, email: null,
      enabled: true, dept: { id: deptId }, roles: [{ id: roleId }],
    });
    expect(user.statusCode, user.body).toBe(201);
    const { password } = user.json() as { password: string };
    return loginAs(app, 'menu-editor', password);
  }

  async function menuBody(title: string): Promise<Record<string, unknown>> {
    const all = await db(app).selectFrom('sys_menu').selectAll().where('title', '=', title).executeTakeFirstOrThrow();
    return {
      id: all.id, pid: all.pid, title: all.title, titleEn: all.title_en, type: all.type, permission: all.permission,
      path: all.path, component: all.component, componentName: all.component_name, icon: all.icon,
      iFrame: all.i_frame === 1, cache: all.cache === 1, hidden: all.hidden === 1, menuSort: all.menu_sort,
    };
  }

  const permissionOf = async (title: string) =>
    (await db(app).selectFrom('sys_menu').select('permission').where('title', '=', title).executeTakeFirstOrThrow()).permission;

  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
    editor = await addEditor(['系统管理', '菜单管理', '菜单编辑']);
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses to write a code the editor does not hold onto a menu, with 403, and the code stays', async () => {
    const menuPage = await menuBody('菜单管理');
    const refused = await call(app, 'PUT', '/api/menus', editor, { ...menuPage, permission: 'online:list' });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toBe('permission: you can only grant permissions you hold yourself, not online:list');
    expect(await permissionOf('菜单管理')).toBe('menu:list');

    const editButton = await menuBody('菜单编辑');
    expect((await call(app, 'PUT', '/api/menus', editor, { ...editButton, permission: 'online:del' })).statusCode).toBe(403);
    expect(await permissionOf('菜单编辑')).toBe('menu:edit');
    // A directory grants nothing: the code sent with one is dropped, as the menu form drops it.
    const systemDir = await menuBody('系统管理');
    expect((await call(app, 'PUT', '/api/menus', editor, { ...systemDir, permission: 'online:list' })).statusCode).toBe(204);
    expect(await permissionOf('系统管理')).toBeNull();
    // The escalation's proof: the editor still cannot list or end sessions.
    expect((await call(app, 'GET', '/auth/online', editor)).statusCode).toBe(403);
  });

  it('refuses the administrator wildcard, and a new menu carrying a code the caller lacks', async () => {
    const menuPage = await menuBody('菜单管理');
    expect((await call(app, 'PUT', '/api/menus', editor, { ...menuPage, permission: 'admin' })).statusCode).toBe(403);

    const { id: roleId } = await db(app).selectFrom('sys_role').select('id').where('name', '=', 'menu-editor').executeTakeFirstOrThrow();
    const menus = await Promise.all(['系统管理', '菜单管理', '菜单编辑', '菜单新增'].map(async (title) => ({ id: await idOf(app, title) })));
    expect((await call(app, 'PUT', '/api/roles/menu', admin, { id: roleId, menus })).statusCode).toBe(204);
    const refused = await call(app, 'POST', '/api/menus', editor, page('Sessions', { type: 2, permission: 'online:del' }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('permission: you can only grant permissions you hold yourself, not online:del');
    expect(await db(app).selectFrom('sys_menu').select('id').where('title', '=', 'Sessions').execute()).toEqual([]);
    expect((await call(app, 'POST', '/api/menus', editor, page('Sessions', { type: 2, permission: 'menu:add' }))).statusCode).toBe(201);
    expect((await call(app, 'POST', '/api/menus', admin, page('Admin sessions', { permission: 'online:list' }))).statusCode).toBe(201);
  });

  it('lets the editor keep or set a code they hold, and edit other fields of a menu whose code they lack', async () => {
    const editButton = await menuBody('菜单编辑');
    expect((await call(app, 'PUT', '/api/menus', editor, { ...editButton, titleEn: 'Edit a menu' })).statusCode).toBe(204);
    const userPage = await menuBody('用户管理');
    expect((await call(app, 'PUT', '/api/menus', editor, { ...userPage, menuSort: 77 })).statusCode).toBe(204);
    const dictPage = await menuBody('字典管理');
    expect((await call(app, 'PUT', '/api/menus', editor, { ...dictPage, permission: 'menu:list' })).statusCode).toBe(204);
    expect(await permissionOf('字典管理')).toBe('menu:list');
  });

  it('records the old and the new code in the audit log when a code changes', async () => {
    const dictButton = await menuBody('字典新增');
    expect((await call(app, 'PUT', '/api/menus', admin, { ...dictButton, permission: 'dict:create' })).statusCode).toBe(204);
    await app.auditLogSettled();
    const rows = await db(app).selectFrom('sys_log').select(['params', 'status']).where('description', '=', '修改菜单').where('username', '=', 'admin').execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]?.params ?? 'null')).toMatchObject({ changes: { permission: { from: 'dict:add', to: 'dict:create' } } });
  });
});
