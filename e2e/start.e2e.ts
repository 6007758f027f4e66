import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './server-process.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The processes (on Linux, through /proc) whose environment names this data folder. */
function processesUsing(dataDir: string): number[] {
  const marker = `DATA_DIR=${dataDir}\0`;
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return fs.readFileSync(`/proc/${entry}/environ`, 'latin1').includes(marker) ? [Number(entry)] : [];
    } catch {
      return []; // Gone meanwhile, or not ours to read.
    }
  });
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm start', () => {
  let dataDir: string | undefined;
  afterEach(() => {
    // Should the test fail half-way, nothing it started outlives it.
    for (const pid of dataDir === undefined ? [] : processesUsing(dataDir)) process.kill(pid, 'SIGKILL');
    if (dataDir !== undefined) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** `npm start` on a fresh data folder and a free port, with the generated password (no ADMIN_PASSWORD). */
  function npmStart() {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-start-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // The build the journeys already use: this tests the start, not the build.
      SKIP_BUILD: '1',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      CAPTCHA_ENABLED: 'false',
    };
    delete env.ADMIN_PASSWORD;
    delete env.DATABASE_URL;
    return { env, dataDir };
  }

  async function run(env: NodeJS.ProcessEnv, until: RegExp) {
    const npm = spawn('npm', ['start'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    await expect.poll(() => output, { timeout: 30_000, interval: 100 }).toMatch(until);
    return { npm, exited, output: () => output };
  }

  it('on SIGTERM to npm, stops the server: nothing is left running or listening', async () => {
    const { env, dataDir: dir } = npmStart();
    const port = await freePort();
    const { npm, exited } = await run({ ...env, PORT: String(port) }, /is running at/);
    expect(await portAccepts(port)).toBe(true);
    expect(processesUsing(dir).length).toBeGreaterThan(0);

    npm.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(processesUsing(dir)).toEqual([]);
    expect(await portAccepts(port)).toBe(false);
  });

  it('prints the generated password last, in a box that says how to set a new one', async () => {
    const { env } = npmStart();
    const port = await freePort();
    // At the info level the server logs its listening address too: the box still comes after it.
    const { npm, exited, output } = await run({ ...env, PORT: String(port), LOG_LEVEL: 'info' }, /is running at [^\n]*\n[\s\S]*└─+┘\n/);
    const [, afterRunning = ''] = output().split(/is running at [^\n]*\n/);
    const box = afterRunning.trim().split('\n');
    // The box is the last thing printed: its first line opens it, its last closes it.
    expect(box[0]).toMatch(/^┌─+┐$/);
    expect(box.at(-1)).toMatch(/^└─+┘$/);
    const boxText = box.join('\n');
    expect(boxText).toContain('admin, teacher, learner1, learner2 and learner3');
    expect(boxText).toContain('npm run reset-password -- admin');
    const password = /^│\s+(\S{16})\s+│$/m.exec(boxText)?.[1];
    expect(password).toBeDefined();
    const login = await fetch(`http://127.0.0.1:${port}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    expect(login.status).toBe(200);
    npm.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
