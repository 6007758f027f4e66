import { pageOf } from '@cloud-classroom/shared/http';
import { roleLevelSchema, roleSchema, type Role, type RoleCreate } from '@cloud-classroom/shared/roles';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sheetRows } from '../../test/sheet-rows.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

const db = (app: FastifyInstance) => app.services.database.db;

async function roleId(app: FastifyInstance, name: string): Promise<number> {
  return (await db(app).selectFrom('sys_role').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

async function deptId(app: FastifyInstance, name: string): Promise<number> {
  return (await db(app).selectFrom('sys_dept').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

async function menuId(app: FastifyInstance, title: string): Promise<number> {
  return (await db(app).selectFrom('sys_menu').select('id').where('title', '=', title).executeTakeFirstOrThrow()).id;
}

async function getRole(app: FastifyInstance, token: string, id: number): Promise<Role> {
  const response = await call(app, 'GET', `/api/roles/${id}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return roleSchema.parse(response.json());
}

async function list(app: FastifyInstance, token: string, query = ''): Promise<{ content: Role[]; totalElements: number }> {
  const response = await call(app, 'GET', `/api/roles${query}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return pageOf(roleSchema).parse(response.json());
}

const names = (roles: readonly Role[]) => roles.map((role) => role.name);

const role = (name: string, extra: Partial<RoleCreate> = {}): RoleCreate => ({
  name,
  level: 3,
  dataScope: '本级',
  description: null,
  descriptionEn: null,
  depts: [],
  ...extra,
});

async function create(app: FastifyInstance, token: string, body: RoleCreate): Promise<number> {
  const response = await call(app, 'POST', '/api/roles', token, body);
  expect(response.statusCode, response.body).toBe(201);
  return roleId(app, body.name);
}

/**
 * A non-admin 'manager' whose only role has level 2 and every roles:* button: what a
 * department head who manages roles below their own would hold.
 */
async function addManager(app: FastifyInstance): Promise<string> {
  const now = Date.now();
  const audit = { create_by: 'test', update_by: 'test', create_time: now, update_time: now };
  const { id: managerRole } = await db(app)
    .insertInto('sys_role')
    .values({ ...audit, name: 'role-manager', level: 2, data_scope: '全部', description: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const menus = await db(app).selectFrom('sys_menu').select('id').where('permission', 'like', 'roles:%').execute();
  await db(app).insertInto('sys_roles_menus').values(menus.map((menu) => ({ role_id: managerRole, menu_id: menu.id }))).execute();
  const { password_hash } = await db(app).selectFrom('sys_user').select('password_hash').where('username', '=', 'learner1').executeTakeFirstOrThrow();
  const { id: userId } = await db(app)
    .insertInto('sys_user')
    .values({ ...audit, dept_id: null, username: 'manager', nick_name: 'Manager', gender: null, phone: null, email: null, avatar_name: null, password_hash, is_admin: 0, enabled: 1, pwd_reset_time: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db(app).insertInto('sys_users_roles').values({ user_id: userId, role_id: managerRole }).execute();
  return loginAs(app, 'manager');
}

describe('roles: access', () => {
  const { app } = itRefusesOutsiders([
    ['GET', '/api/roles'],
    ['GET', '/api/roles/1'],
    ['GET', '/api/roles/all'],
    ['GET', '/api/roles/download'],
    ['POST', '/api/roles', role('nope')],
    ['PUT', '/api/roles', { ...role('nope'), id: 1 }],
    ['PUT', '/api/roles/menu', { id: 1, menus: [] }],
    ['DELETE', '/api/roles', [3]],
  ]);

  it('GET /api/roles/level answers 401 without a session', async () => {
    expect((await call(app(), 'GET', '/api/roles/level')).statusCode).toBe(401);
  });

  it('nothing was changed by the refused writes', async () => {
    expect(await db(app()).selectFrom('sys_role').select('name').orderBy('id').execute()).toEqual([
      { name: 'admin' },
      { name: 'teacher' },
      { name: 'learner' },
    ]);
  });
});

describe('roles: reading', () => {
  let app: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists roles best level first, with their departments and menus', async () => {
    const page = await list(app, admin);
    expect(page.totalElements).toBe(3);
    expect(names(page.content)).toEqual(['admin', 'teacher', 'learner']);
    const [adminRole, teacher, learner] = page.content;
    const { count } = await db(app).selectFrom('sys_menu').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(adminRole?.menus).toHaveLength(Number(count));
    expect(adminRole?.menus).toContainEqual({ id: await menuId(app, '角色管理'), title: '角色管理' });
    expect(teacher).toMatchObject({
      level: 2,
      dataScope: '自定义',
      depts: [
        { id: await deptId(app, '研发部'), name: '研发部' },
        { id: await deptId(app, '培训部'), name: '培训部' },
      ],
      createBy: 'system',
      updateBy: 'system',
    });
    // The demo teachers hold the course menus (migration 0010, granted by the seed).
    expect(teacher?.menus).toContainEqual({ id: await menuId(app, '课程列表'), title: '课程列表' });
    expect(teacher?.menus).not.toContainEqual({ id: await menuId(app, '角色管理'), title: '角色管理' });
    expect(teacher?.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // Described in both languages, as menus are titled.
    expect(learner).toMatchObject({ level: 3, dataScope: '本级', depts: [], description: '学员：不进入后台', descriptionEn: 'Learners: no back office' });
    expect(adminRole).toMatchObject({ description: '管理员：全部权限', descriptionEn: 'Administrators: everything' });
  });

  it('filters by blurry (name or description) and by creation time, pages and sorts', async () => {
    expect(names((await list(app, admin, '?blurry=TEACH')).content)).toEqual(['teacher']);
    expect(names((await list(app, admin, `?blurry=${encodeURIComponent('no back office')}`)).content)).toEqual(['learner']);
    // The user's wildcards are taken literally.
    expect((await list(app, admin, `?blurry=${encodeURIComponent('%')}`)).totalElements).toBe(0);
    expect((await list(app, admin, '?blurry=_')).totalElements).toBe(0);
    const old = await list(app, admin, '?createTime=2000-01-01+00:00:00&createTime=2000-12-31+23:59:59');
    expect(old).toEqual({ content: [], totalElements: 0 });
    const wide = await list(app, admin, '?createTime=2000-01-01+00:00:00&createTime=2999-12-31+23:59:59');
    expect(wide.totalElements).toBe(3);

    const second = await list(app, admin, '?page=1&size=1');
    expect(second.totalElements).toBe(3);
    expect(names(second.content)).toEqual(['teacher']);
    expect(names((await list(app, admin, '?sort=name,desc')).content)).toEqual(['teacher', 'learner', 'admin']);
    // Created in the same millisecond (as the seed makes teacher and learner), the second order decides.
    await db(app).updateTable('sys_role').set({ create_time: 1_700_000_000_000 }).execute();
    expect(names((await list(app, admin, '?sort=createTime,asc&sort=id,desc')).content)).toEqual(['learner', 'teacher', 'admin']);
  });

  it.each([
    ['?sort=password,asc', /^sort: cannot sort by password; use one of id, name, level/],
    ['?sort=name', /^sort: /],
    ['?createTime=2024-01-01+00:00:00', /^createTime: /],
    ['?createTime=yesterday&createTime=today', /^createTime\.0: /],
    ['?page=-1', /^page: /],
  ])('answers 400 naming the field for %s', async (query, message) => {
    const response = await call(app, 'GET', `/api/roles${query}`, admin);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it('reads one role by id; 404 for an unknown one, 400 for a malformed one', async () => {
    const teacher = await getRole(app, admin, await roleId(app, 'teacher'));
    expect(teacher).toMatchObject({ name: 'teacher', level: 2, dataScope: '自定义' });
    const missing = await call(app, 'GET', '/api/roles/9999', admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toContain('9999');
    const malformed = await call(app, 'GET', '/api/roles/abc', admin);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/^id: /);
  });

  it('GET /api/roles/all answers every role as a bare array', async () => {
    const response = await call(app, 'GET', '/api/roles/all', admin);
    expect(response.statusCode).toBe(200);
    expect(names(z.array(roleSchema).parse(response.json()))).toEqual(['admin', 'teacher', 'learner']);
  });

  it('GET /api/roles/level answers the caller’s best level', async () => {
    const levelOf = async (username: string) => {
      const response = await call(app, 'GET', '/api/roles/level', await loginAs(app, username));
      expect(response.statusCode).toBe(200);
      return roleLevelSchema.parse(response.json()).level;
    };
    expect(await levelOf('admin')).toBe(1);
    expect(await levelOf('teacher')).toBe(2);
    expect(await levelOf('learner1')).toBe(3);
  });

  it('exports the matching roles as .xlsx, and audits the export', async () => {
    const response = await call(app, 'GET', '/api/roles/download?blurry=e', admin);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toContain('.xlsx');
    const rows = await sheetRows(response.rawPayload);
    expect(rows[0]).toEqual(['角色名称', '角色级别', '数据权限', '描述', '英文描述', '创建日期']);
    // 'e' is in teacher and learner, and in the admin role's description ('everything').
    expect(rows).toHaveLength(4);
    expect(rows[2]).toEqual(expect.arrayContaining(['teacher', 2, '自定义']));

    const filtered = await call(app, 'GET', '/api/roles/download?blurry=learn', admin);
    expect(await sheetRows(filtered.rawPayload)).toHaveLength(2);

    await expect
      .poll(() => db(app).selectFrom('sys_log').select(['username', 'method']).where('description', '=', '导出角色数据').execute())
      .toContainEqual({ username: 'admin', method: 'GET /api/roles/download' });
  });

  it('lets whoever may add or edit users read every role, and nothing more', async () => {
    const learnerRole = await roleId(app, 'learner');
    const granted = await call(app, 'PUT', '/api/roles/menu', admin, { id: learnerRole, menus: [{ id: await menuId(app, '用户新增') }] });
    expect(granted.statusCode).toBe(204);
    const learner = await loginAs(app, 'learner1');
    const all = await call(app, 'GET', '/api/roles/all', learner);
    expect(all.statusCode).toBe(200);
    expect(z.array(roleSchema).parse(all.json())).toHaveLength(3);
    expect((await call(app, 'GET', '/api/roles', learner)).statusCode).toBe(403);
    await call(app, 'PUT', '/api/roles/menu', admin, { id: learnerRole, menus: [] });
    expect((await call(app, 'GET', '/api/roles/all', learner)).statusCode).toBe(403);
  });
});

describe('roles: writing', () => {
  let app: FastifyInstance;
  let admin: string;
  beforeEach(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
  });
  afterEach(async () => {
    await app.close();
  });

  it('creates a role with a custom scope and its departments; the body is allow-listed', async () => {
    const research = await deptId(app, '研发部');
    const response = await call(app, 'POST', '/api/roles', admin, {
      ...role('reviewer', { level: 2, dataScope: '自定义', description: '  Reviews  ', depts: [{ id: research }, { id: research }] }),
      id: 999,
      createBy: 'mallory',
      menus: [{ id: 1 }],
    });
    expect(response.statusCode).toBe(201);
    expect(response.body).toBe('');
    const id = await roleId(app, 'reviewer');
    expect(id).not.toBe(999);
    const created = await getRole(app, admin, id);
    expect(created).toMatchObject({
      name: 'reviewer',
      level: 2,
      dataScope: '自定义',
      description: 'Reviews',
      depts: [{ id: research, name: '研发部' }],
      menus: [],
      createBy: 'admin',
      updateBy: 'admin',
    });
    await expect
      .poll(() => db(app).selectFrom('sys_log').select(['username', 'status']).where('description', '=', '新增角色').execute())
      .toContainEqual({ username: 'admin', status: 201 });
  });

  it('keeps no departments for a scope other than 自定义', async () => {
    const id = await create(app, admin, role('everyone', { dataScope: '全部', depts: [{ id: await deptId(app, '研发部') }] }));
    expect((await getRole(app, admin, id)).depts).toEqual([]);
  });

  it.each([
    [{ ...role('x'), name: '  ' }, /^name: is required/],
    [{ ...role('x'), level: 0 }, /^level: /],
    [{ ...role('x'), dataScope: 'everything' }, /^dataScope: /],
    [{ ...role('x'), dataScope: '自定义', depts: [] }, /^depts: .*自定义/],
    [{ ...role('x'), dataScope: '自定义', depts: [{ id: 9999 }] }, /^depts: unknown department id\(s\) 9999/],
    [{ name: 'x', dataScope: '本级' }, /^level: /],
  ])('answers 400 naming the field for %j', async (body, message) => {
    const response = await call(app, 'POST', '/api/roles', admin, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
    expect(await db(app).selectFrom('sys_role').select('id').where('name', '=', 'x').execute()).toEqual([]);
  });

  it('answers 409 naming the name when it is taken', async () => {
    const response = await call(app, 'POST', '/api/roles', admin, role('teacher'));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/^name: .*'teacher'/);
  });

  it('edits a role: fields, scope and departments together', async () => {
    const teacher = await roleId(app, 'teacher');
    const response = await call(app, 'PUT', '/api/roles', admin, { ...role('mentor', { level: 2, dataScope: '全部', description: '导师', descriptionEn: 'Mentors' }), id: teacher });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const edited = await getRole(app, admin, teacher);
    expect(edited).toMatchObject({ name: 'mentor', level: 2, dataScope: '全部', description: '导师', descriptionEn: 'Mentors', depts: [], createBy: 'system', updateBy: 'admin' });
    // Found by either description.
    expect(names((await list(app, admin, '?blurry=Mentors')).content)).toEqual(['mentor']);

    const market = await deptId(app, '市场部');
    await call(app, 'PUT', '/api/roles', admin, { ...role('mentor', { dataScope: '自定义', depts: [{ id: market }] }), id: teacher });
    expect((await getRole(app, admin, teacher)).depts).toEqual([{ id: market, name: '市场部' }]);
  });

  it('refuses an edit for an unknown role (404), a taken name (409) and a missing id (400)', async () => {
    expect((await call(app, 'PUT', '/api/roles', admin, { ...role('ghost'), id: 9999 })).statusCode).toBe(404);
    const taken = await call(app, 'PUT', '/api/roles', admin, { ...role('admin'), id: await roleId(app, 'teacher') });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/^name: /);
    const noId = await call(app, 'PUT', '/api/roles', admin, role('teacher'));
    expect(noId.statusCode).toBe(400);
    expect(noId.json().message).toMatch(/^id: /);
    const customWithout = await call(app, 'PUT', '/api/roles', admin, { ...role('teacher', { dataScope: '自定义' }), id: await roleId(app, 'teacher') });
    expect(customWithout.statusCode).toBe(400);
    expect(customWithout.json().message).toMatch(/^depts: /);
    expect((await getRole(app, admin, await roleId(app, 'teacher'))).depts).toHaveLength(2);
  });

  it('replaces a role’s menus, and its holders’ permissions follow at once', async () => {
    const teacher = await loginAs(app, 'teacher');
    // The download needs dept:list itself (the list is open to enrollers too).
    const teacherRole = await roleId(app, 'teacher');
    expect((await call(app, 'GET', '/api/dept/download', teacher)).statusCode).toBe(403);

    const deptPage = await menuId(app, '部门管理');
    const deptAdd = await menuId(app, '部门新增');
    const response = await call(app, 'PUT', '/api/roles/menu', admin, { id: teacherRole, menus: [{ id: deptPage }, { id: deptAdd }, { id: deptPage }] });
    expect(response.statusCode).toBe(204);
    expect((await getRole(app, admin, teacherRole)).menus).toEqual([
      { id: deptPage, title: '部门管理' },
      { id: deptAdd, title: '部门新增' },
    ]);
    expect((await call(app, 'GET', '/api/dept/download', teacher)).statusCode).toBe(200);
    const info = await call(app, 'GET', '/auth/info', teacher);
    expect(info.json().roles).toEqual(['dept:add', 'dept:list']);

    await call(app, 'PUT', '/api/roles/menu', admin, { id: teacherRole, menus: [] });
    expect((await getRole(app, admin, teacherRole)).menus).toEqual([]);
    expect((await call(app, 'GET', '/api/dept/download', teacher)).statusCode).toBe(403);
  });

  it('refuses unknown menus (400, nothing changed), an unknown role (404) and a body without menus (400)', async () => {
    const adminRole = await roleId(app, 'admin');
    const before = (await getRole(app, admin, adminRole)).menus;
    const unknown = await call(app, 'PUT', '/api/roles/menu', admin, { id: adminRole, menus: [{ id: before[0]?.id }, { id: 9998 }, { id: 9999 }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('menus: unknown menu id(s) 9998, 9999');
    expect((await getRole(app, admin, adminRole)).menus).toEqual(before);
    expect((await call(app, 'PUT', '/api/roles/menu', admin, { id: 9999, menus: [] })).statusCode).toBe(404);
    const noMenus = await call(app, 'PUT', '/api/roles/menu', admin, { id: adminRole });
    expect(noMenus.statusCode).toBe(400);
    expect(noMenus.json().message).toMatch(/^menus: /);
  });

  it('deletes roles nobody holds, with their menu and department links', async () => {
    const a = await create(app, admin, role('temp-a', { dataScope: '自定义', depts: [{ id: await deptId(app, '市场部') }] }));
    const b = await create(app, admin, role('temp-b'));
    await call(app, 'PUT', '/api/roles/menu', admin, { id: a, menus: [{ id: await menuId(app, '部门管理') }] });
    const response = await call(app, 'DELETE', '/api/roles', admin, [a, b]);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect((await call(app, 'GET', `/api/roles/${a}`, admin)).statusCode).toBe(404);
    expect(names((await list(app, admin)).content)).toEqual(['admin', 'teacher', 'learner']);
    expect(await db(app).selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', a).execute()).toEqual([]);
    expect(await db(app).selectFrom('sys_roles_depts').select('dept_id').where('role_id', '=', a).execute()).toEqual([]);
  });

  it('refuses to delete a role users still hold (409, naming it), an unknown one (404) and no ids (400)', async () => {
    const spare = await create(app, admin, role('spare'));
    const held = await call(app, 'DELETE', '/api/roles', admin, [spare, await roleId(app, 'learner')]);
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toMatch(/'learner' is still held by 3 user/);
    expect((await call(app, 'GET', `/api/roles/${spare}`, admin)).statusCode).toBe(200);

    const unknown = await call(app, 'DELETE', '/api/roles', admin, [spare, 9999]);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain('9999');
    expect((await call(app, 'GET', `/api/roles/${spare}`, admin)).statusCode).toBe(200);

    const empty = await call(app, 'DELETE', '/api/roles', admin, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/^body: /);
    const malformed = await call(app, 'DELETE', '/api/roles', admin, ['x']);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/^body\.0: /);
  });
});

describe('roles: levels', () => {
  let app: FastifyInstance;
  let admin: string;
  let manager: string;
  beforeEach(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
    manager = await addManager(app);
  });
  afterEach(async () => {
    await app.close();
  });

  it('a level-2 manager reads level 2 and may create roles of level 2 and below, not above', async () => {
    expect(roleLevelSchema.parse((await call(app, 'GET', '/api/roles/level', manager)).json())).toEqual({ level: 2 });
    const above = await call(app, 'POST', '/api/roles', manager, role('boss', { level: 1 }));
    expect(above.statusCode).toBe(403);
    expect(above.json().message).toMatch(/^level: your role level is 2; .*level 1/);
    expect(await db(app).selectFrom('sys_role').select('id').where('name', '=', 'boss').execute()).toEqual([]);
    await create(app, manager, role('peer', { level: 2 }));
    const below = await create(app, manager, role('junior', { level: 3 }));
    expect((await getRole(app, admin, below)).createBy).toBe('manager');
  });

  it('may not edit a role above their level, nor lift one above it', async () => {
    const adminRole = await roleId(app, 'admin');
    const learnerRole = await roleId(app, 'learner');
    const editAbove = await call(app, 'PUT', '/api/roles', manager, { ...role('admin', { level: 1, dataScope: '全部' }), id: adminRole });
    expect(editAbove.statusCode).toBe(403);
    expect(editAbove.json().message).toMatch(/^level: /);
    const lift = await call(app, 'PUT', '/api/roles', manager, { ...role('learner', { level: 1 }), id: learnerRole });
    expect(lift.statusCode).toBe(403);
    expect((await getRole(app, admin, learnerRole)).level).toBe(3);
    expect((await call(app, 'PUT', '/api/roles', manager, { ...role('learner', { level: 2 }), id: learnerRole })).statusCode).toBe(204);
    expect((await getRole(app, admin, learnerRole)).level).toBe(2);
  });

  it('may not change the menus of a role above their level', async () => {
    const menus = [{ id: await menuId(app, '角色管理') }];
    const above = await call(app, 'PUT', '/api/roles/menu', manager, { id: await roleId(app, 'admin'), menus });
    expect(above.statusCode).toBe(403);
    expect(above.json().message).toMatch(/^level: /);
    expect((await call(app, 'PUT', '/api/roles/menu', manager, { id: await roleId(app, 'learner'), menus })).statusCode).toBe(204);
  });

  it('may grant only permissions they hold themselves, even to their own role', async () => {
    const escalate = await call(app, 'PUT', '/api/roles/menu', manager, {
      id: await roleId(app, 'role-manager'),
      menus: [{ id: await menuId(app, '角色管理') }, { id: await menuId(app, '用户删除') }, { id: await menuId(app, '部门管理') }],
    });
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().message).toBe('menus: you can only grant permissions you hold yourself, not dept:list, user:del');
    expect((await call(app, 'GET', '/api/dept', manager)).statusCode).toBe(403);
  });

  it('may not delete a role above their level, and deletes nothing when one of the ids is', async () => {
    const junior = await create(app, manager, role('junior'));
    const mixed = await call(app, 'DELETE', '/api/roles', manager, [junior, await roleId(app, 'admin')]);
    expect(mixed.statusCode).toBe(403);
    expect(mixed.json().message).toMatch(/^level: /);
    expect((await call(app, 'GET', `/api/roles/${junior}`, manager)).statusCode).toBe(200);
    expect((await call(app, 'DELETE', '/api/roles', manager, [junior])).statusCode).toBe(200);
  });

  it('an administrator passes every level check', async () => {
    const adminRole = await roleId(app, 'admin');
    expect((await call(app, 'PUT', '/api/roles', admin, { ...role('admin', { level: 1, dataScope: '全部', description: 'All' }), id: adminRole })).statusCode).toBe(204);
    const top = await create(app, admin, role('top', { level: 1 }));
    expect((await call(app, 'DELETE', '/api/roles', admin, [top])).statusCode).toBe(200);
  });
});
