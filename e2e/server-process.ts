import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const serverEntry = path.join(repoRoot, 'apps/server/dist/server.js');

export type RunningServer = {
  baseUrl: string;
  port: number;
  pid: number;
  dataDir: string;
  output: () => string;
  /** SIGTERM, then the exit code the process ended with; removes the data folder. */
  stop: () => Promise<number | null>;
  /** SIGKILL, as a crash would end it: the data folder stays, for a restart on it. */
  kill: () => Promise<void>;
};

export type StartOptions = {
  /** Start on this data folder (a restart) rather than a fresh one. */
  dataDir?: string;
  /** Listen on this port (a node behind a proxy that names it) rather than a free one. */
  port?: number;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The real built server, as `npm start` runs it, on a free port and a fresh data folder (or the one given). */
export async function startServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<RunningServer> {
  if (!fs.existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run \`npm run build\` first`);
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cc-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [serverEntry], {
    cwd: repoRoot,
    // The organisation's zone is the one the journeys and their Chromium run in: the times a
    // journey writes and reads (an exam's window, a term's dates) mean the same on both sides.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', TZ: localZone, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (!output.includes('is running at')) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the server did not start within 30 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    baseUrl,
    port,
    pid: child.pid as number,
    dataDir,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      const code = await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
