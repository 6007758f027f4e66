import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverEntry, startServer, type RunningServer } from './server-process.js';

const distDir = path.dirname(serverEntry);
const PASSWORD = 'Restart-pass-123';
const codeCaches = () => fs.readdirSync(distDir).filter((name) => name.endsWith('.code-cache'));

describe('the built server restarted on the code cache its first start wrote', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('still loads the packages it imports on first use (captcha, xlsx export)', async () => {
    // The launcher writes the cache a few seconds after a start of a build that has none.
    if (codeCaches().length === 0) {
      server = await startServer();
      await expect.poll(codeCaches, { timeout: 15_000, interval: 200 }).toHaveLength(1);
      await server.stop();
    }
    server = await startServer({ ADMIN_PASSWORD: PASSWORD, CAPTCHA_ENABLED: 'false' });

    const captcha = await fetch(`${server.baseUrl}/auth/code`);
    expect(captcha.status).toBe(200);
    expect(((await captcha.json()) as { img: string }).img).toMatch(/^data:image\/svg\+xml;base64,/);

    const login = await fetch(`${server.baseUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const xlsx = await fetch(`${server.baseUrl}/api/users/download`, { headers: { authorization: token } });
    expect(xlsx.status).toBe(200);
    // An xlsx file is a zip archive.
    expect(Buffer.from(await xlsx.arrayBuffer()).subarray(0, 2).toString('latin1')).toBe('PK');
  });
});
