import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { authInfoSchema } from '@cloud-classroom/shared/auth';
import { AVATAR_MAX_BYTES, avatarResultSchema } from '@cloud-classroom/shared/users';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettableClock } from '../../clock.js';
import { LOCK_AFTER_FAILURES, LOCK_MS } from '../auth/failure-throttle.js';
import { buildTestApp, call as callApp, loginAs, TEST_PASSWORD } from '../../test/test-app.js';

let app: FastifyInstance;
let learner: string;
let clock: SettableClock;

beforeEach(async () => {
  clock = new SettableClock();
  app = await buildTestApp({}, { clock });
  learner = await loginAs(app, 'learner1');
});
afterEach(async () => {
  await app.close();
});

const call = (method: InjectOptions['method'], url: string, token?: string, payload?: unknown) => callApp(app, method, url, token, payload);

async function me(token = learner) {
  const response = await call('GET', '/auth/info', token);
  expect(response.statusCode).toBe(200);
  return authInfoSchema.parse(response.json()).user;
}

describe('PUT /api/users/center', () => {
  const profile = { nickName: '小明', gender: '女', phone: '13911112222', email: 'xiaoming@example.com' };

  it('changes the caller’s own profile and nothing else', async () => {
    const response = await call('PUT', '/api/users/center', learner, {
      ...profile,
      username: 'renamed',
      enabled: false,
      isAdmin: true,
      id: 1,
      roles: [{ id: 1 }],
      dept: { id: 1 },
    });
    expect(response.statusCode, response.body).toBe(204);
    const user = await me();
    expect(user).toMatchObject({ ...profile, username: 'learner1', enabled: true, dept: { name: '研发部' }, roles: [{ name: 'learner' }] });
    expect(authInfoSchema.parse((await call('GET', '/auth/info', learner)).json()).roles).toEqual([]);
    expect((await me(await loginAs(app, 'admin'))).nickName).toBe('管理员');
  });

  it('keeps e-mail addresses unique and checks the fields', async () => {
    const taken = await call('PUT', '/api/users/center', learner, { ...profile, email: 'ADMIN@example.com' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toMatch(/^email: /);
    const phone = await call('PUT', '/api/users/center', learner, { ...profile, phone: '123' });
    expect(phone.statusCode).toBe(400);
    expect(phone.json().message).toBe('phone: please enter a correct phone number');
    const nickName = await call('PUT', '/api/users/center', learner, { ...profile, nickName: '' });
    expect(nickName.statusCode).toBe(400);
    expect(nickName.json().message).toMatch(/^nickName: /);
    // Keeping your own address is no conflict.
    expect((await call('PUT', '/api/users/center', learner, { ...profile, email: 'liming@example.com' })).statusCode).toBe(204);
  });

  it('needs a session', async () => {
    expect((await call('PUT', '/api/users/center', undefined, profile)).statusCode).toBe(401);
  });
});

describe('POST /api/users/updatePass', () => {
  it('changes the password and ends every other session of the user, keeping this one', async () => {
    const other = await loginAs(app, 'learner1');
    clock.advance(60_000);
    const response = await call('POST', '/api/users/updatePass', learner, { oldPass: TEST_PASSWORD, newPass: 'a-new-password' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toBe('');
    expect((await call('GET', '/auth/info', learner)).statusCode).toBe(200);
    expect((await call('GET', '/auth/info', other)).statusCode).toBe(401);
    await loginAs(app, 'learner1', 'a-new-password');
    expect((await call('POST', '/auth/login', undefined, { username: 'learner1', password: TEST_PASSWORD })).statusCode).toBe(400);
    const row = await app.services.database.db
      .selectFrom('sys_user')
      .select(['pwd_reset_time', 'password_hash'])
      .where('username', '=', 'learner1')
      .executeTakeFirstOrThrow();
    expect(row.pwd_reset_time).toBe(clock.now());
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it.each([
    [{ oldPass: 'wrong-password', newPass: 'a-new-password' }, 'oldPass: the current password is wrong'],
    [{ newPass: 'a-new-password' }, /^oldPass: /],
    [{ oldPass: TEST_PASSWORD, newPass: 'short' }, 'newPass: must be at least 8 characters'],
    [{ oldPass: TEST_PASSWORD, newPass: TEST_PASSWORD }, 'newPass: must differ from the current password'],
  ])('refuses %j naming the field', async (body, message) => {
    const response = await call('POST', '/api/users/updatePass', learner, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
    await loginAs(app, 'learner1', TEST_PASSWORD);
  });

  it(`locks the account's password change for 10 minutes after ${LOCK_AFTER_FAILURES} wrong current passwords in a row`, async () => {
    const wrong = { oldPass: 'wrong-password', newPass: 'a-new-password' };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LOCK_AFTER_FAILURES; attempt += 1) {
      statuses.push((await call('POST', '/api/users/updatePass', learner, wrong)).statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    // Counted per account and address: another session of the same user there is locked too, even with the right password.
    const otherSession = await loginAs(app, 'learner1');
    for (const token of [learner, otherSession]) {
      const locked = await call('POST', '/api/users/updatePass', token, { oldPass: TEST_PASSWORD, newPass: 'a-new-password' });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toBe('oldPass: too many wrong passwords; try again in 10 minutes');
    }
    // The lock is on changing the password, not on the account's logins, and other accounts are untouched.
    await loginAs(app, 'learner1');
    const learner2 = await loginAs(app, 'learner2');
    expect((await call('POST', '/api/users/updatePass', learner2, wrong)).statusCode).toBe(400);

    // Locked to the last millisecond; once the lock is over, the right password works again and clears the count.
    clock.advance(LOCK_MS - 1);
    const lastMoment = await call('POST', '/api/users/updatePass', learner, { oldPass: TEST_PASSWORD, newPass: 'a-new-password' });
    expect(lastMoment.json().message).toBe('oldPass: too many wrong passwords; try again in 1 second');
    clock.advance(1);
    const changed = await call('POST', '/api/users/updatePass', learner, { oldPass: TEST_PASSWORD, newPass: 'a-new-password' });
    expect(changed.statusCode, changed.body).toBe(200);
    const again: number[] = [];
    for (let attempt = 0; attempt < LOCK_AFTER_FAILURES - 1; attempt += 1) {
      again.push((await call('POST', '/api/users/updatePass', learner, wrong)).statusCode);
    }
    expect(again).toEqual([400, 400, 400, 400]);
  });

  it('counts wrong current passwords per address: a stolen session elsewhere cannot lock the owner out of changing it', async () => {
    const change = (oldPass: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/users/updatePass', headers: { authorization: learner }, payload: { oldPass, newPass: 'a-new-password' }, remoteAddress });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LOCK_AFTER_FAILURES; attempt += 1) statuses.push((await change('wrong-password', '10.20.0.1')).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    expect((await change(TEST_PASSWORD, '10.20.0.1')).statusCode).toBe(429);
    const owner = await change(TEST_PASSWORD, '10.20.0.2');
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it('needs a session', async () => {
    expect((await call('POST', '/api/users/updatePass', undefined, { oldPass: TEST_PASSWORD, newPass: 'a-new-password' })).statusCode).toBe(401);
  });
});

describe('avatars', () => {
  const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(64)]);

  function upload(bytes: Buffer, { field = 'avatar', filename = 'me.png', token = learner } = {}) {
    const boundary = `----test${crypto.randomBytes(8).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return app.inject({
      method: 'POST',
      url: '/api/users/updateAvatar',
      headers: { authorization: token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
  }

  const avatarFiles = () => fs.readdirSync(path.join(app.services.config.dataDir, 'avatar'));

  it('stores an image under a generated name, serves it, and replaces the previous one', async () => {
    const first = await upload(PNG, { filename: '../../evil.png' });
    expect(first.statusCode, first.body).toBe(200);
    const { avatar } = avatarResultSchema.parse(first.json());
    expect(avatar).toMatch(/^[0-9a-f]{32}\.png$/);
    expect((await me()).avatarName).toBe(avatar);

    const served = await call('GET', `/avatar/${avatar}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    // The extension follows the bytes, not the name the browser sent.
    const second = await upload(JPEG, { filename: 'photo.png' });
    const replaced = avatarResultSchema.parse(second.json()).avatar;
    expect(replaced).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect((await call('GET', `/avatar/${replaced}`)).headers['content-type']).toBe('image/jpeg');
    expect((await call('GET', `/avatar/${avatar}`)).statusCode).toBe(404);
    expect(avatarFiles()).toEqual([replaced]);
  });

  it('refuses a file that is not an image, whatever its name', async () => {
    const response = await upload(Buffer.from('just some text, honestly'), { filename: 'picture.png' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('avatar: must be a PNG, JPEG, GIF or WebP image');
    expect((await me()).avatarName).toBeNull();
  });

  it('refuses an image larger than 2 MiB', async () => {
    const response = await upload(Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES)]));
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('avatar: is larger than 2.00 MiB');
    expect((await me()).avatarName).toBeNull();
  });

  it('refuses a request without the avatar field, or not multipart', async () => {
    const wrongField = await upload(PNG, { field: 'file' });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().message).toBe('avatar: is required');
    const json = await call('POST', '/api/users/updateAvatar', learner, { avatar: 'x' });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toMatch(/^avatar: /);
  });

  it('needs a session to upload', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/users/updateAvatar', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--\r\n' });
    expect(response.statusCode).toBe(401);
  });

  it.each([
    'ffffffffffffffffffffffffffffffff.png',
    '..%2fcloud-classroom.sqlite',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e',
    'abc.svg',
    `${'a'.repeat(32)}.PNG`,
    `nested/${'a'.repeat(32)}.png`,
    '',
  ])('answers a JSON 404 for /avatar/%s', async (name) => {
    const response = await call('GET', `/avatar/${name}`);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toMatchObject({ status: 404 });
  });
});
