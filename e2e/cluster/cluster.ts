import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import S3rver from 's3rver';
import { freePort, startServer, type RunningServer } from '../server-process.js';

/**
 * Issue 31's deployment, on one machine: two server processes on one fresh PostgreSQL database
 * and one S3 bucket (s3rver), behind Debian's nginx configured with the very file the deployment
 * guide ships (docs/nginx.conf), its CHANGE lines filled in (ports, certificate, log) and nothing
 * else, with a throwaway certificate. The journeys in cluster.cluster.ts drive it; the bench's
 * cluster scenario (bench/scenarios/cluster.ts) starts it with one node, then with two.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const GUIDE_CONFIG = path.join(repoRoot, 'docs/nginx.conf');
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const BUCKET = 'cluster';

export const postgresReady = () => spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-q']).status === 0;
export const nginxInstalled = () => fs.existsSync(NGINX);

/** Runs SQL on the cluster's database through psql, answering its rows as tab-separated lines. */
export function psql(database: string, sql: string): string[] {
  const result = spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', database, '-qAtX', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', sql], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
  return result.stdout.split('\n').filter((line) => line !== '');
}

export type ClusterNode = {
  readonly name: 'A' | 'B';
  readonly port: number;
  /** The node's own address, past nginx. */
  readonly url: string;
  running: () => boolean;
  /** The node's process id while it runs (for its CPU time in /proc). */
  pid: () => number | undefined;
  /** Started anew (a restart after kill) on the same port, rejoining nginx's upstream. */
  start: () => Promise<void>;
  /** SIGKILL, as a crash. */
  kill: () => Promise<void>;
  /** SIGSTOP / SIGCONT: a node that hangs, holding its connections. */
  pause: () => void;
  resume: () => void;
  output: () => string;
};

export type Cluster<Nodes extends ClusterNode[] = [ClusterNode, ClusterNode]> = {
  /** nginx's https address: what a browser opens. */
  url: string;
  /** For node's https requests through nginx: trusts the throwaway certificate, keeps connections alive. */
  agent: https.Agent;
  /** The throwaway certificate (PEM) nginx serves: for an agent of one's own (another pool size). */
  certificate: Buffer;
  /** nginx's master process (its worker is its child). */
  nginxPid: number;
  nodes: Nodes;
  database: string;
  password: string;
  /** The access log's lines (the guide's log format: the upstream address is quoted, after the time taken). */
  accessLog: () => string[];
  stop: () => Promise<void>;
};

/**
 * docs/nginx.conf with its CHANGE lines filled in, and the listening ports moved off 80 and 443
 * (the machine may have its own). Fails naming any line that is no longer where it was, so the
 * file the guide ships and the file this runs cannot drift apart unnoticed.
 */
export function clusterConfigFrom(guide: string, values: { httpPort: number; httpsPort: number; nodePorts: number[]; certificate: string; key: string; accessLog: string }): string {
  let config = guide;
  const replace = (pattern: RegExp, replacement: string) => {
    if (!pattern.test(config)) throw new Error(`docs/nginx.conf no longer has ${pattern}`);
    config = config.replace(pattern, replacement);
  };
  replace(/ {4}server 127\.0\.0\.1:8001 (.*);\n {4}server 127\.0\.0\.1:8002 .*;\n/, values.nodePorts.map((port) => `    server 127.0.0.1:${port} $1;\n`).join(''));
  replace(/listen 80;\n\s*listen \[::\]:80;/, `listen 127.0.0.1:${values.httpPort};`);
  replace(/listen 443 ssl http2;\n\s*listen \[::\]:443 ssl http2;/, `listen 127.0.0.1:${values.httpsPort} ssl http2;`);
  replace(/server_name learn\.example\.com; {2}# CHANGE\n/g, 'server_name localhost;\n');
  replace(/ssl_certificate {5}\S+;/, `ssl_certificate     ${values.certificate};`);
  replace(/ssl_certificate_key \S+;/, `ssl_certificate_key ${values.key};`);
  replace(/access_log \/var\/log\/nginx\/cloud-classroom\.access\.log/, `access_log ${values.accessLog}`);
  return config;
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function throwawayCertificate(dir: string): { certificate: string; key: string } {
  const certificate = path.join(dir, 'fullchain.pem');
  const key = path.join(dir, 'privkey.pem');
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', certificate, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return { certificate, key };
}

async function startNginx(dir: string, siteConfig: string): Promise<ChildProcess> {
  fs.writeFileSync(path.join(dir, 'cloud-classroom.conf'), siteConfig);
  // The machine's nginx.conf would start it as a daemon with its own logs; this one keeps all to dir.
  const main = `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    client_body_temp_path ${dir}/client-body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/cloud-classroom.conf;
}
`;
  fs.writeFileSync(path.join(dir, 'nginx.conf'), main);
  const tested = spawnSync(NGINX, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf')], { encoding: 'utf8' });
  if (tested.status !== 0) throw new Error(`nginx refused the guide's configuration:\n${tested.stderr}`);
  const child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  child.once('exit', (code) => {
    if (code !== 0 && code !== null) console.error(`nginx exited with ${code}: ${errors}`);
  });
  return child;
}

/** A request to `url` (nginx's or a node's), answering the status and the body, parsed when JSON. */
export async function request<T = unknown>(
  url: string,
  options: { method?: string; token?: string; body?: unknown; headers?: Record<string, string>; agent?: https.Agent; timeoutMs?: number } = {},
): Promise<{ status: number; body: T; headers: Record<string, string | string[] | undefined>; raw: Buffer }> {
  const target = new URL(url);
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string> = {
    ...(options.token === undefined ? {} : { authorization: options.token }),
    ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(payload.length) }),
    ...options.headers,
  };
  const { request: send } = target.protocol === 'https:' ? https : await import('node:http');
  return new Promise((resolve, reject) => {
    const outgoing = send(target, { method: options.method ?? 'GET', headers, ...(target.protocol === 'https:' ? { agent: options.agent } : {}), timeout: options.timeoutMs ?? 15_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        const text = raw.toString('utf8');
        const json = (response.headers['content-type'] ?? '').includes('json') && text !== '';
        resolve({ status: response.statusCode ?? 0, body: (json ? JSON.parse(text) : text) as T, headers: response.headers, raw });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`${options.method ?? 'GET'} ${url}: no answer within ${(options.timeoutMs ?? 15_000) / 1000} s`)));
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

export type ClusterOptions = {
  /**
   * How many nodes run behind nginx, 2 by default; nginx's upstream lists only these. One node
   * behind the same nginx is the bench's measure of what the second adds.
   */
  nodes?: 1 | 2;
};

/** Two nodes (or the one asked for) on a fresh PostgreSQL database and an S3 bucket, behind nginx with the guide's configuration. */
export function startCluster(options?: { nodes?: 2 }): Promise<Cluster>;
export function startCluster(options: { nodes: 1 }): Promise<Cluster<[ClusterNode]>>;
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster<ClusterNode[]>> {
  const nodeCount = options.nodes ?? 2;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-cluster-'));
  const database = `cc_cluster_${process.pid}_${Date.now()}`;
  const password = `cluster-${crypto.randomBytes(9).toString('base64url')}`;
  const cleanups: (() => Promise<void> | void)[] = [() => fs.rmSync(scratch, { recursive: true, force: true })];
  // Once: a second call (a Ctrl-C handler's, say, beside a finally's) waits for the first to finish.
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const cleanup of cleanups.splice(0).reverse()) {
        try {
          await cleanup();
        } catch (error) {
          console.error('cluster cleanup:', error);
        }
      }
    })());
  try {
    psql('postgres', `create database ${database}`);
    cleanups.push(() => void psql('postgres', `drop database if exists ${database} with (force)`));

    const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(scratch, 's3'), configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port: s3Port } = await s3.run();
    cleanups.push(() => s3.close());

    const [httpPort, httpsPort, portA, portB] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const { certificate, key } = throwawayCertificate(scratch);
    const url = `https://localhost:${httpsPort}`;
    const env = {
      DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
      STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      // nginx runs beside the nodes: its address as they see it.
      TRUST_PROXY: 'loopback',
      PUBLIC_URL: url,
      ADMIN_PASSWORD: password,
      CAPTCHA_ENABLED: 'false',
      // A job held by a node that died is taken up by the other after this long.
      JOB_LEASE_SECONDS: '5',
    };

    const node = (name: 'A' | 'B', port: number): ClusterNode => {
      const dataDir = path.join(scratch, `node-${name}`);
      fs.mkdirSync(dataDir);
      let server: RunningServer | undefined;
      let lastOutput = '';
      return {
        name,
        port,
        url: `http://127.0.0.1:${port}`,
        running: () => server !== undefined,
        pid: () => server?.pid,
        start: async () => {
          server = await startServer(env, { dataDir, port });
        },
        kill: async () => {
          lastOutput = server?.output() ?? lastOutput;
          await server?.kill();
          server = undefined;
        },
        pause: () => void (server && process.kill(server.pid, 'SIGSTOP')),
        resume: () => void (server && process.kill(server.pid, 'SIGCONT')),
        output: () => server?.output() ?? lastOutput,
      };
    };
    const nodes: ClusterNode[] = (['A', 'B'] as const).slice(0, nodeCount).map((name, index) => node(name, [portA, portB][index] as number));
    // Together, as a rolling deploy on a fresh database starts them: one migrates and seeds, the other waits.
    await Promise.all(nodes.map((each) => each.start()));
    cleanups.push(async () => {
      for (const each of nodes) {
        each.resume();
        await each.kill();
      }
    });

    const accessLog = path.join(scratch, 'access.log');
    const guide = fs.readFileSync(GUIDE_CONFIG, 'utf8');
    const nginx = await startNginx(scratch, clusterConfigFrom(guide, { httpPort, httpsPort, nodePorts: nodes.map((each) => each.port), certificate, key, accessLog }));
    cleanups.push(async () => {
      if (nginx.exitCode === null) {
        const exited = new Promise((resolve) => nginx.once('exit', resolve));
        nginx.kill('SIGQUIT');
        await exited;
      }
    });

    const agent = new https.Agent({ keepAlive: true, ca: fs.readFileSync(certificate), maxSockets: 64 });
    cleanups.push(() => agent.destroy());
    await waitFor('nginx answering', async () => {
      try {
        return (await request(`${url}/api/health/ready`, { agent })).status === 200;
      } catch {
        return false;
      }
    });
    return {
      url,
      agent,
      certificate: fs.readFileSync(certificate),
      nginxPid: nginx.pid as number,
      nodes,
      database,
      password,
      accessLog: () => (fs.existsSync(accessLog) ? fs.readFileSync(accessLog, 'utf8').split('\n').filter((line) => line !== '') : []),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export { waitFor };
