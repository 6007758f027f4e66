import { createHash } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettableClock } from '../clock.js';
import { buildTestApp, buildTestAppPair, loginAs } from '../test/test-app.js';
import { db } from '../test/course-fixtures.js';

const HOUR_MS = 60 * 60 * 1000;

function send(app: FastifyInstance, token: string, method: InjectOptions['method'], url: string, payload: unknown, key?: string) {
  return app.inject({ method, url, headers: { authorization: token, ...(key === undefined ? {} : { 'idempotency-key': key }) }, payload: payload as InjectOptions['payload'] });
}

const answerOf = (response: LightMyRequestResponse) => ({ status: response.statusCode, type: response.headers['content-type'], body: response.body });
const replayed = (responses: LightMyRequestResponse[]) => responses.map((response) => response.headers['idempotent-replayed'] === 'true').sort();

async function categoriesNamed(app: FastifyInstance, name: string): Promise<number> {
  return (await db(app).selectFrom('edu_category').select('id').where('name', '=', name).execute()).length;
}

describe('Idempotency-Key', () => {
  const clock = new SettableClock(Date.UTC(2026, 5, 1, 9));
  let app: FastifyInstance;
  let teacher: string;
  let admin: string;
  beforeAll(async () => {
    app = await buildTestApp({}, { clock });
    teacher = await loginAs(app, 'teacher');
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app.close();
  });

  it('the same key sent twice at once makes one category, and both get its answer, the second as a replay', async () => {
    const key = crypto.randomUUID();
    const body = { name: 'Double click', pid: null, sort: 1 };
    const responses = await Promise.all([send(app, teacher, 'POST', '/api/categories', body, key), send(app, teacher, 'POST', '/api/categories', body, key)]);
    const [first, second] = responses.map(answerOf);
    expect(first?.status, first?.body).toBe(201);
    expect(second).toEqual(first);
    expect(replayed(responses)).toEqual([false, true]);
    expect(await categoriesNamed(app, 'Double click')).toBe(1);
  });

  it('the same key again later answers the stored answer without doing the work again', async () => {
    const key = crypto.randomUUID();
    const body = { name: 'Retried', pid: null, sort: 1 };
    const first = await send(app, teacher, 'POST', '/api/categories', body, key);
    const again = await send(app, teacher, 'POST', '/api/categories', body, key);
    expect(answerOf(again)).toEqual(answerOf(first));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await categoriesNamed(app, 'Retried')).toBe(1);
  });

  it('refuses the same key with another body (422) and does nothing', async () => {
    const key = crypto.randomUUID();
    expect((await send(app, teacher, 'POST', '/api/categories', { name: 'First body', pid: null, sort: 1 }, key)).statusCode).toBe(201);
    const other = await send(app, teacher, 'POST', '/api/categories', { name: 'Other body', pid: null, sort: 1 }, key);
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json()).toMatchObject({ status: 422, message: expect.stringMatching(/^Idempotency-Key: /) as unknown });
    expect(await categoriesNamed(app, 'Other body')).toBe(0);
  });

  it('works as before without a key: two requests, two categories', async () => {
    const body = { name: 'No key', pid: null, sort: 1 };
    await Promise.all([send(app, teacher, 'POST', '/api/categories', body), send(app, teacher, 'POST', '/api/categories', body)]);
    expect(await categoriesNamed(app, 'No key')).toBe(2);
  });

  it('keeps each person’s keys apart: another person sending the same key gets an answer of their own', async () => {
    const key = crypto.randomUUID();
    const body = { name: 'Same key, two people', pid: null, sort: 1 };
    const [mine, theirs] = await Promise.all([send(app, teacher, 'POST', '/api/categories', body, key), send(app, admin, 'POST', '/api/categories', body, key)]);
    expect([mine?.statusCode, theirs?.statusCode]).toEqual([201, 201]);
    expect(mine?.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs?.headers['idempotent-replayed']).toBeUndefined();
    expect(await categoriesNamed(app, 'Same key, two people')).toBe(2);
  });

  it('gives a refusal (4xx) again too, as it was', async () => {
    const key = crypto.randomUUID();
    const body = { name: '', pid: null, sort: 1 };
    const first = await send(app, teacher, 'POST', '/api/categories', body, key);
    expect(first.statusCode).toBe(400);
    const again = await send(app, teacher, 'POST', '/api/categories', body, key);
    expect(answerOf(again)).toEqual(answerOf(first));
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('refuses a malformed key, naming the header', async () => {
    const response = await send(app, teacher, 'POST', '/api/categories', { name: 'Bad key', pid: null, sort: 1 }, 'short');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: expect.stringMatching(/^Idempotency-Key: /) as unknown });
    expect(await categoriesNamed(app, 'Bad key')).toBe(0);
  });

  it('takes over a key whose request never answered (its process died) once it is minutes old', async () => {
    const key = crypto.randomUUID();
    const body = { name: 'After a crash', pid: null, sort: 1 };
    const userId = (await db(app).selectFrom('sys_user').select('id').where('username', '=', 'teacher').executeTakeFirstOrThrow()).id;
    // What a process killed mid-request leaves: the claim (the request's hash as the hook makes it), no answer; the work was not committed.
    const hash = createHash('sha256').update(`POST /api/categories\n${JSON.stringify(body)}`).digest('hex');
    await db(app).insertInto('sys_idempotency').values({ user_id: userId, idem_key: key, request_hash: hash, status: null, content_type: null, body: null, created_at: clock.now() - 10 * 60 * 1000 }).execute();
    const retried = await send(app, teacher, 'POST', '/api/categories', body, key);
    expect(retried.statusCode, retried.body).toBe(201);
    expect(await categoriesNamed(app, 'After a crash')).toBe(1);
  });

  it('keeps a key a day: after that it runs again, and the keys of the day before are purged', async () => {
    const key = crypto.randomUUID();
    const body = { name: 'A day later', pid: null, sort: 1 };
    expect((await send(app, teacher, 'POST', '/api/categories', body, key)).statusCode).toBe(201);
    const keptBefore = await db(app).selectFrom('sys_idempotency').select('idem_key').execute();
    clock.advance(24 * HOUR_MS + HOUR_MS);
    // The session has ended meanwhile; the key is the person's, whichever session sends it.
    teacher = await loginAs(app, 'teacher');
    const later = await send(app, teacher, 'POST', '/api/categories', body, key);
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await categoriesNamed(app, 'A day later')).toBe(2);
    const kept = await db(app).selectFrom('sys_idempotency').select('idem_key').execute();
    expect(keptBefore.length).toBeGreaterThan(1);
    expect(kept.map((row) => row.idem_key)).toEqual([key]);
  });
});

describe('Idempotency-Key across processes', () => {
  let first: FastifyInstance;
  let second: FastifyInstance;
  beforeAll(async () => {
    [first, second] = await buildTestAppPair();
  });
  afterAll(async () => {
    await first.close();
  });

  it('the same key sent to two processes at once makes one category', async () => {
    const teacher = await loginAs(first, 'teacher');
    const key = crypto.randomUUID();
    const body = { name: 'Two processes', pid: null, sort: 1 };
    const responses = await Promise.all([send(first, teacher, 'POST', '/api/categories', body, key), send(second, teacher, 'POST', '/api/categories', body, key)]);
    const [one, other] = responses.map(answerOf);
    expect(one?.status, one?.body).toBe(201);
    expect(other).toEqual(one);
    expect(replayed(responses)).toEqual([false, true]);
    expect(await categoriesNamed(first, 'Two processes')).toBe(1);
  });
});
