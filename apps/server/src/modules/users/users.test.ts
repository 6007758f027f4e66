import { authInfoSchema } from '@cloud-classroom/shared/auth';
import { pageOf } from '@cloud-classroom/shared/http';
import { resetPasswordResultSchema, userCreatedSchema, userCreateSchema, userSchema, type User } from '@cloud-classroom/shared/users';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedUsers } from '../../db/seed/seed-data.js';
import { sheetRows } from '../../test/sheet-rows.js';
import { buildTestApp, call as callApp, loginAs, TEST_PASSWORD } from '../../test/test-app.js';

const userPage = pageOf(userSchema);

let app: FastifyInstance;
let admin: string;

beforeEach(async () => {
  app = await buildTestApp();
  admin = await loginAs(app, 'admin');
});
afterEach(async () => {
  await app.close();
});

const db = () => app.services.database.db;

const call = (method: InjectOptions['method'], url: string, token?: string, payload?: unknown) => callApp(app, method, url, token, payload);

async function list(query = '', token = admin): Promise<{ content: User[]; totalElements: number }> {
  const response = await call('GET', `/api/users${query}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return userPage.parse(response.json());
}

const usernames = (page: { content: User[] }) => page.content.map((user) => user.username);

async function idOf(table: 'sys_user' | 'sys_role' | 'sys_dept', name: string): Promise<number> {
  const column = table === 'sys_user' ? 'username' : 'name';
  const row = await db().selectFrom(table).select('id').where(column, '=', name).executeTakeFirstOrThrow();
  return row.id;
}

/** Gives a seeded role the menus and buttons that carry these permissions. */
async function grant(role: string, permissions: string[]): Promise<void> {
  const roleId = await idOf('sys_role', role);
  const menus = await db().selectFrom('sys_menu').select('id').where('permission', 'in', permissions).execute();
  await db().insertInto('sys_roles_menus').values(menus.map((menu) => ({ role_id: roleId, menu_id: menu.id }))).execute();
}

const USER_PERMISSIONS = ['user:list', 'user:add', 'user:edit', 'user:del'];

async function newUserBody(overrides: Record<string, unknown> = {}) {
  return {
    username: 'newbie',
    nickName: '新人',
    gender: '女',
    email: 'newbie@example.com',
    phone: '13900000009',
    enabled: true,
    dept: { id: await idOf('sys_dept', '讲师组') },
    roles: [{ id: await idOf('sys_role', 'learner') }],
    ...overrides,
  };
}

async function editBody(username: string, overrides: Record<string, unknown> = {}) {
  const [user] = (await list(`?blurry=${username}`)).content.filter((candidate) => candidate.username === username);
  if (user === undefined) throw new Error(`no user ${username}`);
  return {
    id: user.id,
    username: user.username,
    nickName: user.nickName,
    gender: user.gender,
    email: user.email,
    phone: user.phone,
    enabled: user.enabled,
    dept: { id: user.dept?.id },
    roles: user.roles.map((role) => ({ id: role.id })),
    ...overrides,
  };
}

/** A level-1 (admin role) user who is not an administrator, inside the teacher's departments. */
async function createBoss(): Promise<number> {
  const body = await newUserBody({ username: 'boss', email: 'boss@example.com', roles: [{ id: await idOf('sys_role', 'admin') }] });
  expect((await call('POST', '/api/users', admin, body)).statusCode).toBe(201);
  return idOf('sys_user', 'boss');
}

/** The teacher (level 2, scope 培训部 and below, and 研发部) with every user permission. */
async function teacherWithUserPermissions(): Promise<string> {
  await grant('teacher', USER_PERMISSIONS);
  return loginAs(app, 'teacher');
}

describe('GET /api/users', () => {
  it('lists every user with department and roles, newest first', async () => {
    const page = await list();
    expect(page.totalElements).toBe(5);
    expect(usernames(page)).toEqual(['learner3', 'learner2', 'learner1', 'teacher', 'admin']);
    const teacher = page.content.find((user) => user.username === 'teacher');
    expect(teacher).toMatchObject({
      nickName: '张老师',
      gender: '女',
      email: 'teacher@example.com',
      phone: '13800000001',
      enabled: true,
      dept: { name: '讲师组' },
      roles: [{ name: 'teacher', level: 2, dataScope: '自定义' }],
    });
    expect(teacher?.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('pages and sorts', async () => {
    const page = await list('?page=1&size=2&sort=username,asc');
    expect(page.totalElements).toBe(5);
    expect(usernames(page)).toEqual(['learner2', 'learner3']);
    expect(usernames(await list('?sort=nickName,desc&sort=id,asc&size=1'))).toHaveLength(1);
  });

  it('filters by department subtree, free text, status and creation time', async () => {
    expect(usernames(await list(`?deptId=${await idOf('sys_dept', '培训部')}`))).toEqual(['learner3', 'teacher']);
    expect(usernames(await list(`?deptId=${await idOf('sys_dept', '云课堂')}`))).toHaveLength(5);
    expect(usernames(await list(`?blurry=${encodeURIComponent('李')}`))).toEqual(['learner1']);
    expect(usernames(await list('?blurry=13800000003'))).toEqual(['learner2']);
    expect(usernames(await list('?blurry=TEACHER@EXAMPLE'))).toEqual(['teacher']);
    expect((await list('?blurry=%25')).totalElements).toBe(0);
    expect((await list('?enabled=true')).totalElements).toBe(5);
    expect((await list('?enabled=false')).totalElements).toBe(0);
    expect((await list('?createTime=2000-01-01%2000:00:00&createTime=2099-12-31%2023:59:59')).totalElements).toBe(5);
    expect((await list('?createTime=2000-01-01%2000:00:00&createTime=2000-12-31%2023:59:59')).totalElements).toBe(0);
  });

  it('shows a caller only the departments of their data scope', async () => {
    await grant('teacher', ['user:list']);
    const teacher = await loginAs(app, 'teacher');
    // The teacher's role covers 培训部 and everything below it, and 研发部; not 市场部 (learner2).
    expect(usernames(await list('', teacher))).toEqual(['learner3', 'learner1', 'teacher']);
    // The people who matched outside the scope are counted, not named, so "no data" never hides them.
    expect(await list('', teacher)).toMatchObject({ totalElements: 3, outsideScope: 2 });
    expect(await list('?blurry=learner2', teacher)).toEqual({ content: [], totalElements: 0, outsideScope: 1 });
    expect(await list('?blurry=learner1', teacher)).toEqual({ content: [expect.objectContaining({ username: 'learner1' })], totalElements: 1 });
    expect(await list('?blurry=learner2', admin)).toMatchObject({ totalElements: 1 });
    expect(await list('?blurry=learner2', admin)).not.toHaveProperty('outsideScope');
    // Counted by the names people see, never by contact details: else a count answered digit by
    // digit ("1380000000", "13800000003"…) would spell out the phone or e-mail of someone outside.
    expect(await list('?blurry=13800000003', teacher)).toEqual({ content: [], totalElements: 0 });
    expect(await list('?blurry=wangfang%40', teacher)).toEqual({ content: [], totalElements: 0 });
    expect(usernames(await list(`?deptId=${await idOf('sys_dept', '讲师组')}`, teacher))).toEqual(['teacher']);
    expect(await list(`?deptId=${await idOf('sys_dept', '市场部')}`, teacher)).toEqual({ content: [], totalElements: 0, outsideScope: 1 });
    expect((await list(`?deptId=${await idOf('sys_dept', '云课堂')}`, teacher)).totalElements).toBe(3);
  });

  it('needs a session and user:list', async () => {
    expect((await call('GET', '/api/users')).statusCode).toBe(401);
    expect((await call('GET', '/api/users', await loginAs(app, 'learner1'))).statusCode).toBe(403);
  });

  it.each([
    ['sort=password_hash,asc', /^sort: cannot sort by password_hash; use one of/],
    ['createTime=2024-01-01%2000:00:00', /^createTime: expected a start and an end/],
    ['createTime=yesterday&createTime=today', /^createTime\.0: expected 'yyyy-MM-dd HH:mm:ss'/],
    ['deptId=abc', /^deptId: /],
    ['enabled=maybe', /^enabled: /],
    ['size=0', /^size: /],
  ])('refuses %s naming the field', async (query, message) => {
    const response = await call('GET', `/api/users?${query}`, admin);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });
});

describe('POST /api/users', () => {
  it('creates the user with a generated password, answered once', async () => {
    const response = await call('POST', '/api/users', admin, await newUserBody());
    expect(response.statusCode, response.body).toBe(201);
    const { password } = userCreatedSchema.parse(response.json());
    expect(password.length).toBeGreaterThanOrEqual(16);

    const [created] = (await list('?blurry=newbie')).content;
    expect(created).toMatchObject({
      username: 'newbie',
      nickName: '新人',
      gender: '女',
      email: 'newbie@example.com',
      phone: '13900000009',
      enabled: true,
      dept: { name: '讲师组' },
      roles: [{ name: 'learner' }],
      createBy: 'admin',
    });
    expect(created?.pwdResetTime).not.toBeNull();
    const row = await db().selectFrom('sys_user').select(['password_hash', 'is_admin']).where('username', '=', 'newbie').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.is_admin).toBe(0);
    await loginAs(app, 'newbie', password);
  });

  it('stores no field outside the schema: no administrator, no chosen password', async () => {
    const body = await newUserBody({ isAdmin: true, is_admin: 1, password: 'chosen-password', passwordHash: 'x', id: 1 });
    const response = await call('POST', '/api/users', admin, body);
    expect(response.statusCode).toBe(201);
    const row = await db().selectFrom('sys_user').select(['id', 'is_admin', 'password_hash']).where('username', '=', 'newbie').executeTakeFirstOrThrow();
    expect(row.is_admin).toBe(0);
    expect(row.id).not.toBe(1);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const login = await call('POST', '/auth/login', undefined, { username: 'newbie', password: 'chosen-password' });
    expect(login.statusCode).toBe(400);
    const token = await loginAs(app, 'newbie', userCreatedSchema.parse(response.json()).password);
    expect(authInfoSchema.parse((await call('GET', '/auth/info', token)).json()).roles).toEqual([]);
  });

  it('keeps usernames and e-mail addresses unique, whatever their case', async () => {
    const taken = await call('POST', '/api/users', admin, await newUserBody({ username: 'ADMIN' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/^username: /);
    const email = await call('POST', '/api/users', admin, await newUserBody({ email: 'Teacher@Example.com' }));
    expect(email.statusCode).toBe(409);
    expect(email.json().message).toMatch(/^email: /);
    // Without an e-mail address there is nothing to collide.
    expect((await call('POST', '/api/users', admin, await newUserBody({ email: '' }))).statusCode).toBe(201);
    expect((await call('POST', '/api/users', admin, await newUserBody({ username: 'other', email: null }))).statusCode).toBe(201);
  });

  it('takes user names of letters, digits, _, - and . from 2 to 20 characters', async () => {
    const response = await call('POST', '/api/users', admin, await newUserBody({ username: 'Ann.b-c_20' }));
    expect(response.statusCode, response.body).toBe(201);
    await loginAs(app, 'Ann.b-c_20', userCreatedSchema.parse(response.json()).password);
  });

  it.each([
    [{ username: '' }, /^username: /],
    [{ username: 'a b!' }, /^username: please use 2 to 20 letters, digits, _, - or \.$/],
    [{ username: 'a' }, /^username: please use 2 to 20 letters, digits, _, - or \.$/],
    [{ username: 'a'.repeat(21) }, /^username: please use 2 to 20 letters, digits, _, - or \.$/],
    [{ username: 'li/ming' }, /^username: /],
    [{ username: '李明' }, /^username: /],
    [{ nickName: undefined }, /^nickName: /],
    [{ email: 'not-an-address' }, /^email: please enter a correct e-mail address$/],
    [{ phone: '12345' }, /^phone: please enter a correct phone number$/],
    [{ gender: '?' }, /^gender: /],
    [{ enabled: 'yes' }, /^enabled: /],
    [{ roles: [] }, /^roles: choose at least one role/],
    [{ roles: [{ id: 9999 }] }, /^roles: no role with id 9999/],
    [{ dept: { id: 9999 } }, /^dept: no department with id 9999/],
    [{ dept: undefined }, /^dept: /],
  ])('refuses %j naming the field', async (overrides, message) => {
    const response = await call('POST', '/api/users', admin, await newUserBody(overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it('needs a session and user:add', async () => {
    const body = await newUserBody();
    expect((await call('POST', '/api/users', undefined, body)).statusCode).toBe(401);
    expect((await call('POST', '/api/users', await loginAs(app, 'learner1'), body)).statusCode).toBe(403);
  });

  it('lets nobody give a role more powerful than their own, or place a user outside their departments', async () => {
    const teacher = await teacherWithUserPermissions();
    const tooPowerful = await call('POST', '/api/users', teacher, await newUserBody({ roles: [{ id: await idOf('sys_role', 'admin') }] }));
    expect(tooPowerful.statusCode).toBe(403);
    expect(tooPowerful.json().message).toMatch(/^roles: .*admin.*level 1/);
    const elsewhere = await call('POST', '/api/users', teacher, await newUserBody({ dept: { id: await idOf('sys_dept', '市场部') } }));
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toMatch(/^dept: /);
    expect((await call('POST', '/api/users', teacher, await newUserBody())).statusCode).toBe(201);
  });
});

describe('PUT /api/users', () => {
  it('changes the user', async () => {
    const body = await editBody('learner1', {
      nickName: '李明明',
      email: 'li@example.com',
      phone: '13700000000',
      gender: '女',
      dept: { id: await idOf('sys_dept', '市场部') },
      roles: [{ id: await idOf('sys_role', 'teacher') }, { id: await idOf('sys_role', 'learner') }],
    });
    const response = await call('PUT', '/api/users', admin, body);
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');
    const [user] = (await list('?blurry=learner1')).content;
    expect(user).toMatchObject({
      nickName: '李明明',
      email: 'li@example.com',
      phone: '13700000000',
      gender: '女',
      dept: { name: '市场部' },
      roles: [{ name: 'teacher' }, { name: 'learner' }],
      updateBy: 'admin',
    });
  });

  it('stores no field outside the schema', async () => {
    const body = await editBody('learner1', { isAdmin: true, is_admin: 1, password: 'chosen-password', avatarName: '../x.png' });
    expect((await call('PUT', '/api/users', admin, body)).statusCode).toBe(204);
    const row = await db().selectFrom('sys_user').select(['is_admin', 'avatar_name']).where('username', '=', 'learner1').executeTakeFirstOrThrow();
    expect(row).toEqual({ is_admin: 0, avatar_name: null });
    await loginAs(app, 'learner1', TEST_PASSWORD);
    expect((await call('POST', '/auth/login', undefined, { username: 'learner1', password: 'chosen-password' })).statusCode).toBe(400);
  });

  it('ends the sessions of a user it disables, at once', async () => {
    const learner = await loginAs(app, 'learner1');
    expect((await call('GET', '/auth/info', learner)).statusCode).toBe(200);
    expect((await call('PUT', '/api/users', admin, await editBody('learner1', { enabled: false }))).statusCode).toBe(204);
    expect((await call('GET', '/auth/info', learner)).statusCode).toBe(401);
    const login = await call('POST', '/auth/login', undefined, { username: 'learner1', password: TEST_PASSWORD });
    expect(login.statusCode).toBe(400);
    expect(usernames(await list('?enabled=false'))).toEqual(['learner1']);
  });

  it('answers 404 for an unknown user, 409 for a taken username, 400 naming the field', async () => {
    expect((await call('PUT', '/api/users', admin, await editBody('learner1', { id: 9999 }))).statusCode).toBe(404);
    const taken = await call('PUT', '/api/users', admin, await editBody('learner1', { username: 'learner2' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/^username: /);
    const noId = await call('PUT', '/api/users', admin, await editBody('learner1', { id: undefined }));
    expect(noId.statusCode).toBe(400);
    expect(noId.json().message).toMatch(/^id: /);
    const email = await call('PUT', '/api/users', admin, await editBody('learner1', { email: 'x@' }));
    expect(email.json().message).toBe('email: please enter a correct e-mail address');
  });

  it('refuses to rename a user to a name outside the rule, naming the field', async () => {
    const response = await call('PUT', '/api/users', admin, await editBody('learner1', { username: 'a b!' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('username: please use 2 to 20 letters, digits, _, - or .');
    expect(usernames(await list('?blurry=learner1'))).toEqual(['learner1']);
  });

  it('seeds only accounts whose names fit the rule', () => {
    expect(seedUsers.map((user) => user.username).filter((name) => !userCreateSchema.shape.username.safeParse(name).success)).toEqual([]);
  });

  it('keeps an account whose name predates the rule: it logs in and is edited without a rename', async () => {
    // Names were only 2 to 20 characters of anything before the rule; such accounts must not be locked out.
    await db().updateTable('sys_user').set({ username: 'old name!' }).where('username', '=', 'learner2').execute();
    await loginAs(app, 'old name!');
    const body = await editBody('old name!', { nickName: '王芳芳' });
    expect((await call('PUT', '/api/users', admin, body)).statusCode).toBe(204);
    expect((await list('?blurry=old')).content[0]).toMatchObject({ username: 'old name!', nickName: '王芳芳' });
    const renamed = await call('PUT', '/api/users', admin, { ...body, username: 'older name!' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().message).toMatch(/^username: /);
  });

  it('needs a session and user:edit', async () => {
    const body = await editBody('learner2');
    expect((await call('PUT', '/api/users', undefined, body)).statusCode).toBe(401);
    expect((await call('PUT', '/api/users', await loginAs(app, 'learner1'), body)).statusCode).toBe(403);
  });

  it('keeps a caller away from users above their level, administrators and other departments', async () => {
    await createBoss();
    const teacher = await teacherWithUserPermissions();
    const boss = await call('PUT', '/api/users', teacher, await editBody('boss', { nickName: '改名' }));
    expect(boss.statusCode).toBe(403);
    expect(boss.json().message).toMatch(/boss has a role of level 1, more powerful than your level 2/);
    const administrator = await call('PUT', '/api/users', teacher, await editBody('admin', { enabled: false }));
    expect(administrator.statusCode).toBe(403);
    expect(administrator.json().message).toMatch(/administrator/);
    expect((await call('PUT', '/api/users', teacher, await editBody('learner2', { nickName: '改名' }))).statusCode).toBe(403);
    // Within reach: a learner in the teacher's departments, but not promoted beyond the teacher.
    expect((await call('PUT', '/api/users', teacher, await editBody('learner3', { nickName: '赵磊磊' }))).statusCode).toBe(204);
    const promote = await call('PUT', '/api/users', teacher, await editBody('learner3', { roles: [{ id: await idOf('sys_role', 'admin') }] }));
    expect(promote.statusCode).toBe(403);
    expect((await list('?blurry=admin')).content.find((user) => user.username === 'admin')?.enabled).toBe(true);
  });
});

describe('DELETE /api/users', () => {
  it('deletes the users and ends their sessions', async () => {
    const learner = await loginAs(app, 'learner2');
    const ids = [await idOf('sys_user', 'learner2'), await idOf('sys_user', 'learner3')];
    const response = await call('DELETE', '/api/users', admin, ids);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(usernames(await list())).toEqual(['learner1', 'teacher', 'admin']);
    expect((await call('GET', '/auth/info', learner)).statusCode).toBe(401);
  });

  it('refuses to delete yourself, unknown users and an empty list', async () => {
    const self = await call('DELETE', '/api/users', admin, [await idOf('sys_user', 'admin')]);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toMatch(/^ids: you cannot delete your own account/);
    expect((await call('DELETE', '/api/users', admin, [9999])).statusCode).toBe(404);
    const empty = await call('DELETE', '/api/users', admin, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/^body: choose at least one user/);
    expect((await list()).totalElements).toBe(5);
  });

  it('needs a session and user:del', async () => {
    const ids = [await idOf('sys_user', 'learner2')];
    expect((await call('DELETE', '/api/users', undefined, ids)).statusCode).toBe(401);
    expect((await call('DELETE', '/api/users', await loginAs(app, 'learner1'), ids)).statusCode).toBe(403);
  });

  it('keeps a caller away from users above their level', async () => {
    const bossId = await createBoss();
    const teacher = await teacherWithUserPermissions();
    expect((await call('DELETE', '/api/users', teacher, [bossId])).statusCode).toBe(403);
    expect((await call('DELETE', '/api/users', teacher, [await idOf('sys_user', 'admin')])).statusCode).toBe(403);
    expect((await list()).totalElements).toBe(6);
    expect((await call('DELETE', '/api/users', teacher, [await idOf('sys_user', 'learner3')])).statusCode).toBe(200);
  });
});

describe('PUT /api/users/resetPwd', () => {
  const resetTimeOf = async (username: string) =>
    (await db().selectFrom('sys_user').select('pwd_reset_time').where('username', '=', username).executeTakeFirstOrThrow()).pwd_reset_time;

  it('gives each user a new generated password, answered once, and ends their sessions', async () => {
    const learner = await loginAs(app, 'learner1');
    const before = await resetTimeOf('learner1');
    const ids = [await idOf('sys_user', 'learner1'), await idOf('sys_user', 'learner2')];
    const response = await call('PUT', '/api/users/resetPwd', admin, { ids });
    expect(response.statusCode, response.body).toBe(200);
    const { passwords } = resetPasswordResultSchema.parse(response.json());
    expect(passwords.map((entry) => entry.username).sort()).toEqual(['learner1', 'learner2']);
    expect(passwords[0]?.password).not.toBe(passwords[1]?.password);
    expect((await call('GET', '/auth/info', learner)).statusCode).toBe(401);
    for (const { username, password } of passwords) await loginAs(app, username, password);
    expect((await call('POST', '/auth/login', undefined, { username: 'learner1', password: TEST_PASSWORD })).statusCode).toBe(400);
    expect(await resetTimeOf('learner1')).toBeGreaterThanOrEqual(before ?? 0);
    expect((await call('GET', '/auth/info', admin)).statusCode).toBe(200);
  });

  it("takes eladmin's body too, a bare array of ids, with the same answer", async () => {
    const ids = [await idOf('sys_user', 'learner1'), await idOf('sys_user', 'learner3')];
    const response = await call('PUT', '/api/users/resetPwd', admin, ids);
    expect(response.statusCode, response.body).toBe(200);
    const { passwords } = resetPasswordResultSchema.parse(response.json());
    expect(passwords.map((entry) => entry.username).sort()).toEqual(['learner1', 'learner3']);
    for (const { username, password } of passwords) await loginAs(app, username, password);
    expect((await call('PUT', '/api/users/resetPwd', admin, [])).json().message).toMatch(/^ids: /);
    expect((await call('PUT', '/api/users/resetPwd', admin, ['x'])).statusCode).toBe(400);
  });

  it('sets a chosen password for all of them', async () => {
    const learner = await loginAs(app, 'learner3');
    const ids = [await idOf('sys_user', 'learner2'), await idOf('sys_user', 'learner3')];
    const response = await call('PUT', '/api/users/resetPwd', admin, { ids, password: 'chosen-password' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await call('GET', '/auth/info', learner)).statusCode).toBe(401);
    await loginAs(app, 'learner2', 'chosen-password');
    await loginAs(app, 'learner3', 'chosen-password');
  });

  it('refuses bad input naming the field, and unknown users', async () => {
    const id = await idOf('sys_user', 'learner1');
    const short = await call('PUT', '/api/users/resetPwd', admin, { ids: [id], password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('password: must be at least 8 characters');
    const none = await call('PUT', '/api/users/resetPwd', admin, { ids: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/^ids: /);
    expect((await call('PUT', '/api/users/resetPwd', admin, { ids: [id, 9999] })).statusCode).toBe(404);
    await loginAs(app, 'learner1');
  });

  // eladmin's open issue #910: any signed-in user could reset anyone's password.
  it('needs a session and user:edit', async () => {
    const ids = [await idOf('sys_user', 'admin')];
    expect((await call('PUT', '/api/users/resetPwd', undefined, { ids })).statusCode).toBe(401);
    expect((await call('PUT', '/api/users/resetPwd', await loginAs(app, 'learner1'), { ids })).statusCode).toBe(403);
    await loginAs(app, 'admin');
  });

  it('keeps a caller away from users above their level', async () => {
    const bossId = await createBoss();
    const teacher = await teacherWithUserPermissions();
    expect((await call('PUT', '/api/users/resetPwd', teacher, { ids: [bossId], password: 'chosen-password' })).statusCode).toBe(403);
    expect((await call('PUT', '/api/users/resetPwd', teacher, { ids: [await idOf('sys_user', 'admin')] })).statusCode).toBe(403);
    await loginAs(app, 'admin');
  });
});

describe('GET /api/users/download', () => {
  async function rows(query: string): Promise<unknown[][]> {
    const response = await call('GET', `/api/users/download${query}`, admin);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toMatch(/attachment; filename=/);
    return sheetRows(response.rawPayload);
  }

  it('exports every matching user, with the list filters, and audits the export', async () => {
    const all = await rows('');
    expect(all[0]).toEqual(['用户名', '昵称', '性别', '部门', '角色', '邮箱', '手机号码', '状态', '修改密码的时间', '创建日期']);
    expect(all).toHaveLength(6);
    expect(all[1]?.slice(0, 8)).toEqual(['learner3', '赵磊', '男', '学员服务组', 'learner', 'zhaolei@example.com', '13800000004', '启用']);
    const training = await rows(`?deptId=${await idOf('sys_dept', '培训部')}&page=0&size=1`);
    expect(training.slice(1).map((row) => row[0])).toEqual(['learner3', 'teacher']);
    await app.auditLogSettled();
    const log = await db().selectFrom('sys_log').select(['description', 'username']).where('description', '=', '导出用户数据').execute();
    expect(log).toHaveLength(2);
    expect(log[0]?.username).toBe('admin');
  });

  it('needs a session and user:list, and checks the filters', async () => {
    expect((await call('GET', '/api/users/download')).statusCode).toBe(401);
    expect((await call('GET', '/api/users/download', await loginAs(app, 'learner1'))).statusCode).toBe(403);
    const bad = await call('GET', '/api/users/download?enabled=maybe', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^enabled: /);
  });
});

describe('the password hash', () => {
  const HASH_KEY = /password_?hash/i;

  function assertNoHash(body: string, where: string): void {
    expect(body, where).not.toContain('$argon2');
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (value === null || typeof value !== 'object') return;
      for (const [key, inner] of Object.entries(value)) {
        expect(key, `${where}: ${key}`).not.toMatch(HASH_KEY);
        visit(inner);
      }
    };
    visit(JSON.parse(body));
  }

  it('never leaves the server in any answer of auth or users', async () => {
    const login = await call('POST', '/auth/login', undefined, { username: 'admin', password: TEST_PASSWORD });
    const answers: [string, string][] = [
      ['auth/login', login.body],
      ['auth/info', (await call('GET', '/auth/info', admin)).body],
      ['users', (await call('GET', '/api/users?size=100', admin)).body],
      ['users filtered', (await call('GET', '/api/users?blurry=learner&sort=username,asc', admin)).body],
      ['users create', (await call('POST', '/api/users', admin, await newUserBody())).body],
      ['users reset', (await call('PUT', '/api/users/resetPwd', admin, { ids: [await idOf('sys_user', 'learner1')] })).body],
    ];
    for (const [where, body] of answers) assertNoHash(body, where);
    expect(answers.map(([, body]) => body.length).every((length) => length > 2)).toBe(true);
  });
});
