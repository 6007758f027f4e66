import {
  SOCKET_CLOSE_BUSY,
  SOCKET_CLOSE_REPLACED,
  SOCKET_CLOSE_TOO_MANY,
  SOCKET_CLOSE_UNAUTHORIZED,
  sessionEndedMessageSchema,
} from '@cloud-classroom/shared/auth';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, buildTestAppPair, loginAs } from '../../test/test-app.js';

type ClientSocket = {
  readonly readyState: number;
  ping(): void;
  on(event: 'open' | 'pong', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  close(): void;
};

// Node 20 has no WebSocket client of its own. `ws` (which @fastify/websocket is built on) ships
// no types and @types/ws is not installed: a specifier TypeScript does not resolve keeps the
// import typed by the shape above.
const WS_PACKAGE = 'ws';
const { WebSocket } = (await import(WS_PACKAGE)) as {
  WebSocket: new (url: string, options?: { autoPong?: boolean }) => ClientSocket & { readonly OPEN: number };
};

/** A real client over TCP; what it receives is collected, and `closed` gives the close code. */
async function openClient(url: string, options: { autoPong?: boolean } = {}) {
  const socket = new WebSocket(url, options);
  const messages: unknown[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
  const closed = new Promise<number>((resolve) => socket.on('close', resolve));
  await new Promise<void>((resolve, reject) => {
    socket.on('open', resolve);
    socket.on('error', reject);
  });
  return { socket, messages, closed, isOpen: () => socket.readyState === socket.OPEN };
}

// Small caps keep the floods small; a short heartbeat lets a silent client be caught soon.
const LIMITS = { perSession: 3, perUser: 5, total: 100, heartbeatMs: 200 };

describe('/websocket', () => {
  let app: FastifyInstance;
  let baseUrl: string;

  async function start(limits: typeof LIMITS): Promise<void> {
    app = await buildTestApp({ sockets: limits });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('no address');
    baseUrl = `ws://127.0.0.1:${address.port}/websocket`;
  }

  beforeEach(() => start(LIMITS));

  afterEach(async () => {
    // Closes sockets that are still open too.
    await app.close();
  });

  const connect = (token?: string, options: { autoPong?: boolean } = {}) =>
    openClient(token === undefined ? baseUrl : `${baseUrl}?token=${encodeURIComponent(token)}`, options);

  const kick = (keys: string[], token: string) =>
    app.inject({ method: 'DELETE', url: '/auth/online', payload: keys, headers: { authorization: token } });

  async function keyOf(token: string): Promise<string> {
    const key = await app.services.sessions.sessionIdOf(token);
    if (key === undefined) throw new Error('not a token');
    return key;
  }

  it('closes with 4401 a socket without a token, with a bad token, or with a token whose session has ended', async () => {
    const ended = await loginAs(app, 'learner1');
    await app.inject({ method: 'DELETE', url: '/auth/logout', headers: { authorization: ended } });
    for (const token of [undefined, '', 'Bearer not-a-jwt', 'not-a-jwt', ended]) {
      const client = await connect(token);
      expect(await client.closed).toBe(SOCKET_CLOSE_UNAUTHORIZED);
      expect(client.messages).toEqual([]);
    }
  });

  it('pushes session-ended to the sockets of a kicked-out session only, then closes them with 4401', async () => {
    const admin = await loginAs(app, 'admin');
    const first = await loginAs(app, 'learner1');
    const second = await loginAs(app, 'learner1');
    // The token works with its 'Bearer ' prefix or without it.
    const kicked = await connect(first);
    const kickedToo = await connect(first.replace(/^Bearer /, ''));
    const other = await connect(second);

    expect((await kick([await keyOf(first)], admin)).statusCode).toBe(200);
    for (const client of [kicked, kickedToo]) {
      expect(await client.closed).toBe(SOCKET_CLOSE_UNAUTHORIZED);
      expect(client.messages.map((message) => sessionEndedMessageSchema.parse(message))).toEqual([
        { type: 'session-ended', reason: 'kicked-out' },
      ]);
    }
    expect(other.isOpen()).toBe(true);

    // The other session's socket still works, and the end of its own session is the first
    // thing it was ever sent: the kick above sent it nothing.
    await app.inject({ method: 'DELETE', url: '/auth/logout', headers: { authorization: second } });
    expect(await other.closed).toBe(SOCKET_CLOSE_UNAUTHORIZED);
    expect(other.messages).toEqual([{ type: 'session-ended', reason: 'logout' }]);
  });

  it('keeps a socket open while its session lives, and the app closes it on shutdown', async () => {
    const client = await connect(await loginAs(app, 'teacher'));
    expect(client.isOpen()).toBe(true);
    await app.close();
    expect(await client.closed).not.toBe(SOCKET_CLOSE_UNAUTHORIZED);
    expect(client.messages).toEqual([]);
  });

  it('keeps a session to its newest sockets: a flood of 30 on one token holds 3, the others closed as replaced', async () => {
    const token = await loginAs(app, 'learner1');
    const clients = [];
    for (let index = 0; index < 30; index++) clients.push(await connect(token));
    const replaced = clients.slice(0, -LIMITS.perSession);
    expect(await Promise.all(replaced.map((client) => client.closed))).toEqual(replaced.map(() => SOCKET_CLOSE_REPLACED));
    expect(clients.map((client) => client.isOpen())).toEqual(clients.map((_, index) => index >= 30 - LIMITS.perSession));
    // The server still answers everyone else.
    const health = await fetch(baseUrl.replace(/^ws:(.*)\/websocket$/, 'http:$1/api/health'));
    expect(health.status).toBe(200);
  });

  it('refuses a person’s sockets past their cap across sessions, without closing the other session’s', async () => {
    const laptop = await loginAs(app, 'learner1');
    const phone = await loginAs(app, 'learner1');
    const accepted = [];
    for (let index = 0; index < LIMITS.perSession; index++) accepted.push(await connect(laptop));
    for (let index = LIMITS.perSession; index < LIMITS.perUser; index++) accepted.push(await connect(phone));
    const refused = await connect(phone);
    expect(await refused.closed).toBe(SOCKET_CLOSE_TOO_MANY);
    expect(accepted.every((client) => client.isOpen())).toBe(true);
    // Another person is not held to learner1's cap.
    expect(await kept(await connect(await loginAs(app, 'learner2')))).toBe(true);
  });

  it('refuses any socket past the process’s total, and takes one again once a socket has gone', async () => {
    await app.close();
    await start({ ...LIMITS, total: 8 });
    const held = [];
    for (const username of ['admin', 'teacher', 'learner1']) {
      const token = await loginAs(app, username);
      for (let index = 0; index < LIMITS.perSession && held.length < 8; index++) held.push(await connect(token));
    }
    const learner2 = await loginAs(app, 'learner2');
    const refused = await connect(learner2);
    expect(await refused.closed).toBe(SOCKET_CLOSE_BUSY);
    expect(held.every((client) => client.isOpen())).toBe(true);

    held[0]!.socket.close();
    await held[0]!.closed;
    // The server counts the socket gone once its own side of the close is done.
    await expect.poll(async () => kept(await connect(learner2))).toBe(true);
  });

  it('terminates a socket that stops answering pings, and keeps one that answers', async () => {
    const token = await loginAs(app, 'learner1');
    const answering = await connect(token);
    const silent = await connect(token, { autoPong: false });
    // 1006: cut off without a close frame.
    expect(await silent.closed).toBe(1006);
    expect(await kept(answering)).toBe(true);
  });
});

// Two processes on one PostgreSQL database (SQLite is one process): a session ended on either
// closes the sockets the other holds.
describe.runIf(process.env.TEST_DATABASE_URL)('/websocket with two server processes', () => {
  let first: FastifyInstance;
  let second: FastifyInstance;
  afterEach(async () => {
    await first.close();
  });

  async function connectTo(app: FastifyInstance, token: string) {
    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('no address');
    return openClient(`ws://127.0.0.1:${address.port}/websocket?token=${encodeURIComponent(token)}`);
  }

  it('closes on one the sockets of a session kicked out, logged out, or of an account disabled on the other', async () => {
    [first, second] = await buildTestAppPair();
    const admin = await loginAs(second, 'admin');
    const kicked = await loginAs(first, 'learner1');
    const stays = await loginAs(first, 'learner1');
    const kickedSocket = await connectTo(first, kicked);
    const staysSocket = await connectTo(first, stays);
    const key = await first.services.sessions.sessionIdOf(kicked);
    const kick = await second.inject({ method: 'DELETE', url: '/auth/online', payload: [key], headers: { authorization: admin } });
    expect(kick.statusCode).toBe(200);
    expect(await kickedSocket.closed).toBe(SOCKET_CLOSE_UNAUTHORIZED);
    expect(kickedSocket.messages).toEqual([{ type: 'session-ended', reason: 'kicked-out' }]);
    expect(staysSocket.isOpen()).toBe(true);

    await second.inject({ method: 'DELETE', url: '/auth/logout', headers: { authorization: stays } });
    expect(await staysSocket.closed).toBe(SOCKET_CLOSE_UNAUTHORIZED);
    expect(staysSocket.messages).toEqual([{ type: 'session-ended', reason: 'logout' }]);

    const teacherSocket = await connectTo(first, await loginAs(first, 'teacher'));
    const teacher = await second.services.database.db.selectFrom('sys_user').selectAll().where('username', '=', 'teacher').executeTakeFirstOrThrow();
    const user = (await second.inject({ method: 'GET', url: `/api/users?blurry=teacher`, headers: { authorization: admin } })).json<{ content: Record<string, unknown>[] }>().content[0];
    const disable = await second.inject({
      method: 'PUT',
      url: '/api/users',
      payload: { ...user, id: teacher.id, enabled: false },
      headers: { authorization: admin },
    });
    expect(disable.statusCode, disable.body).toBe(204);
    expect(await teacherSocket.closed).toBe(SOCKET_CLOSE_UNAUTHORIZED);
    expect(teacherSocket.messages).toEqual([{ type: 'session-ended', reason: 'disabled' }]);
  });
});

/**
 * Whether the server kept the socket: it answers a ping while it holds it, and a refusal's close
 * frame goes out before the server reads the ping.
 */
function kept(client: { socket: ClientSocket; closed: Promise<number> }): Promise<boolean> {
  return new Promise((resolve) => {
    client.socket.on('pong', () => resolve(true));
    void client.closed.then(() => resolve(false));
    client.socket.ping();
  });
}
