import { SOCKET_CLOSE_UNAUTHORIZED, sessionEndedMessageSchema } from '@cloud-classroom/shared/auth';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../../test/test-app.js';

type ClientSocket = {
  readonly readyState: number;
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: (code: number) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  close(): void;
};

// Node 20 has no WebSocket client of its own. `ws` (which @fastify/websocket is built on) ships
// no types and @types/ws is not installed: a specifier TypeScript does not resolve keeps the
// import typed by the shape above.
const WS_PACKAGE = 'ws';
const { WebSocket } = (await import(WS_PACKAGE)) as { WebSocket: new (url: string) => ClientSocket & { readonly OPEN: number } };

describe('/websocket', () => {
  let app: FastifyInstance;
  let baseUrl: string;

  beforeEach(async () => {
    app = await buildTestApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('no address');
    baseUrl = `ws://127.0.0.1:${address.port}/websocket`;
  });

  afterEach(async () => {
    // Closes sockets that are still open too.
    await app.close();
  });

  /** A real client over TCP; what it receives is collected, and `closed` gives the close code. */
  async function connect(token?: string) {
    const socket = new WebSocket(token === undefined ? baseUrl : `${baseUrl}?token=${encodeURIComponent(token)}`);
    const messages: unknown[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
    const closed = new Promise<number>((resolve) => socket.on('close', resolve));
    await new Promise<void>((resolve, reject) => {
      socket.on('open', resolve);
      socket.on('error', reject);
    });
    return { socket, messages, closed, isOpen: () => socket.readyState === socket.OPEN };
  }

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
});
