import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loginAs } from '../test/test-app.js';

const BOUNDARY = 'cc-refused-upload';
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MiB = 1024 * 1024;

/** Only a failure guard: a hung connection would otherwise leave the test waiting for 73 s. */
const GUARD_MS = 10_000;

function multipartBody(field: string, fileName: string, content: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${field}"; filename="${fileName}"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

type Answer = { status: number; headers: Record<string, string>; body: string };

/**
 * One keep-alive connection spoken to by hand, so that nothing (no agent, no client library)
 * hides what the server does with the rest of a body it refused.
 */
class RawConnection {
  private readonly socket: net.Socket;
  private received = Buffer.alloc(0);
  private closed = false;
  private waiter: (() => void) | undefined;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.waiter?.();
    });
    const onClose = () => {
      this.closed = true;
      this.waiter?.();
    };
    this.socket.on('close', onClose);
    this.socket.on('end', onClose);
    // A reset after the server answered and closed is a closed connection, which the test allows.
    this.socket.on('error', onClose);
  }

  send(head: string, body: Buffer = Buffer.alloc(0)): void {
    this.socket.write(Buffer.concat([Buffer.from(head), body]));
  }

  /** The next answer on the connection, or undefined when the server closed it instead. */
  async nextAnswer(): Promise<Answer | undefined> {
    const deadline = Date.now() + GUARD_MS;
    for (;;) {
      const answer = this.takeAnswer();
      if (answer !== undefined) return answer;
      if (this.closed) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no answer and no close within ${GUARD_MS} ms: the connection hangs`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = undefined;
    }
  }

  close(): void {
    this.socket.destroy();
  }

  private takeAnswer(): Answer | undefined {
    const headEnd = this.received.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const [statusLine = '', ...lines] = this.received.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = headEnd + 4;
    if (this.received.length < bodyStart + length) return undefined;
    const body = this.received.subarray(bodyStart, bodyStart + length).toString('utf8');
    this.received = this.received.subarray(bodyStart + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }
}

const upload = (url: string, token: string, body: Buffer) =>
  [
    `POST ${url} HTTP/1.1`,
    'host: 127.0.0.1',
    'connection: keep-alive',
    `authorization: ${token}`,
    `content-type: multipart/form-data; boundary=${BOUNDARY}`,
    `content-length: ${body.length}`,
    '',
    '',
  ].join('\r\n');

const HEALTH = 'GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\n\r\n';

const refusals = [
  {
    name: 'an HTML page named .png with 2 MiB of padding',
    url: '/api/localStorage/pictures',
    body: multipartBody('file', 'x.png', Buffer.concat([Buffer.from('<!doctype html><script>alert(1)</script>'), Buffer.alloc(2 * MiB, 0x20)])),
    status: 400,
    message: 'file: the content is not a .png file',
  },
  {
    name: 'a 6 MiB picture',
    url: '/api/localStorage/pictures',
    body: multipartBody('file', 'big.png', Buffer.concat([PNG_HEAD, Buffer.alloc(6 * MiB)])),
    status: 413,
    message: 'file: is larger than 5.00 MiB',
  },
  {
    name: 'a 2 MiB file of a type local storage does not take',
    url: '/api/localStorage',
    body: multipartBody('file', 'tool.exe', Buffer.alloc(2 * MiB, 0x4d)),
    status: 400,
    message: /^file: only /,
  },
  {
    name: 'a 2 MiB file in the wrong field',
    url: '/api/localStorage/pictures',
    body: multipartBody('picture', 'x.png', Buffer.concat([PNG_HEAD, Buffer.alloc(2 * MiB)])),
    status: 400,
    message: 'file: is required',
  },
  {
    name: 'a 3 MiB avatar',
    url: '/api/users/updateAvatar',
    body: multipartBody('avatar', 'me.png', Buffer.concat([PNG_HEAD, Buffer.alloc(3 * MiB)])),
    status: 413,
    message: /^avatar: /,
  },
  {
    name: 'an HTML page as an avatar with 2 MiB of padding',
    url: '/api/users/updateAvatar',
    body: multipartBody('avatar', 'me.png', Buffer.concat([Buffer.from('<!doctype html>'), Buffer.alloc(2 * MiB - 100, 0x20)])),
    status: 400,
    message: /^avatar: /,
  },
];

describe('an upload refused mid-way', () => {
  let app: FastifyInstance;
  let admin: string;
  let port: number;
  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
    await app.listen({ port: 0, host: '127.0.0.1' });
    ({ port } = app.server.address() as AddressInfo);
  });
  afterAll(async () => {
    await app.close();
  });

  it.each(refusals)('answers $name, then the connection answers the next request or is closed', async ({ url, body, status, message }) => {
    const connection = new RawConnection(port);
    try {
      connection.send(upload(url, admin, body), body);
      const refused = await connection.nextAnswer();
      expect(refused?.status, refused?.body).toBe(status);
      expect((JSON.parse(refused?.body ?? '{}') as { message?: string }).message).toMatch(message);
      if (refused?.headers.connection === 'close') return;
      connection.send(HEALTH);
      const next = await connection.nextAnswer();
      if (next !== undefined) expect(next.status).toBe(200);
    } finally {
      connection.close();
    }
  });

  it('closes the connection instead of reading on when a refused body goes on past the drain limit', async () => {
    const body = multipartBody('file', 'x.png', Buffer.concat([Buffer.from('<!doctype html>'), Buffer.alloc(20 * MiB, 0x20)]));
    const connection = new RawConnection(port);
    try {
      connection.send(upload('/api/localStorage/pictures', admin, body), body);
      const refused = await connection.nextAnswer();
      expect(refused?.status, refused?.body).toBe(400);
      connection.send(HEALTH);
      expect(await connection.nextAnswer()).toBeUndefined();
    } finally {
      connection.close();
    }
  });

  it('leaves no file behind when the client goes away mid-upload', async () => {
    const filesUnder = () => {
      const root = path.join(app.services.config.dataDir, 'files');
      return fs.existsSync(root) ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(root, entry)).isFile()) : [];
    };
    const body = multipartBody('file', 'book.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(8 * MiB, 0x20)]));
    const connection = new RawConnection(port);
    try {
      connection.send(upload('/api/localStorage', admin, body), body.subarray(0, 2 * MiB));
      // The write has begun…
      await vi.waitFor(() => expect(filesUnder()).not.toEqual([]), { timeout: GUARD_MS });
    } finally {
      connection.close();
    }
    // …and goes with the client.
    await vi.waitFor(() => expect(filesUnder()).toEqual([]), { timeout: GUARD_MS });
  });
});
