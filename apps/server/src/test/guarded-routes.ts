import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, call, loginAs } from './test-app.js';

export type GuardedCall = [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown];

/**
 * Inside a describe: builds an app and checks that each call answers 401 without a session and 403
 * to learner1, who holds no back-office permission. Answers the app and the learner's token for the
 * describe's other tests (such as: nothing was changed by the refused writes).
 */
export function itRefusesOutsiders(guarded: GuardedCall[]): { app: () => FastifyInstance; learner: () => string } {
  let app: FastifyInstance;
  let learner: string;
  beforeAll(async () => {
    app = await buildTestApp();
    learner = await loginAs(app, 'learner1');
  });
  afterAll(async () => {
    await app.close();
  });

  it.each(guarded)('%s %s answers 401 without a session and 403 to a learner', async (method, url, payload) => {
    const anonymous = await call(app, method, url, undefined, payload);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ status: 401 });
    const forbidden = await call(app, method, url, learner, payload);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ status: 403 });
  });

  return { app: () => app, learner: () => learner };
}
