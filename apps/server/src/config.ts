import path from 'node:path';
import { DEFAULT_TIME_ZONE, isTimeZone } from '@cloud-classroom/shared/calendar-day';
import { DEPLOY_MAX_MB_DEFAULT } from '@cloud-classroom/shared/deploy';
import { MEDIA_MAX_MB_DEFAULT } from '@cloud-classroom/shared/media';
import { z } from 'zod';
import { trustedProxyEntryProblem } from './http/client-address.js';
import type { S3BucketSettings } from './files/s3-bucket.js';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

const configSchema = z.object({
  PORT: z.coerce
    .number({ message: 'must be a whole number from 0 to 65535' })
    .int('must be a whole number from 0 to 65535')
    .min(0, 'must be a whole number from 0 to 65535')
    .max(65535, 'must be a whole number from 0 to 65535')
    .default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  TRUST_PROXY: z
    .string()
    .transform((value) => value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== ''))
    .superRefine((entries, context) => {
      for (const entry of entries) {
        const problem = trustedProxyEntryProblem(entry);
        if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
      }
    })
    .default([]),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  CAPTCHA_ENABLED: booleanFlag.default(true),
  DB_STATEMENT_STATS: booleanFlag.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' })
    .refine((url) => !/[?#]/.test(url), 'must be an address without a query or fragment')
    .optional(),
  UPLOAD_QUOTA_MB: z.coerce
    .number({ message: 'must be a whole number of MiB, at least 1' })
    .int('must be a whole number of MiB, at least 1')
    .min(1, 'must be a whole number of MiB, at least 1')
    .default(1024),
  MEDIA_MAX_MB: z.coerce
    .number({ message: 'must be a whole number of MiB, at least 1' })
    .int('must be a whole number of MiB, at least 1')
    .min(1, 'must be a whole number of MiB, at least 1')
    .default(MEDIA_MAX_MB_DEFAULT),
  DEPLOY_MAX_MB: z.coerce
    .number({ message: 'must be a whole number of MiB, at least 1' })
    .int('must be a whole number of MiB, at least 1')
    .min(1, 'must be a whole number of MiB, at least 1')
    .default(DEPLOY_MAX_MB_DEFAULT),
  STORAGE_SECRET_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  STORAGE: z.enum(['local', 's3'], { message: 'must be local or s3' }).default('local'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_PATH_STYLE: booleanFlag.default(true),
  S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-][A-Za-z0-9._-]*\/)+$/, 'must be folder names ending in / (classroom/)')
    .optional(),
  SOCKETS_PER_SESSION: z.coerce
    .number({ message: 'must be a whole number, at least 1' })
    .int('must be a whole number, at least 1')
    .min(1, 'must be a whole number, at least 1')
    .default(5),
  SOCKETS_PER_USER: z.coerce
    .number({ message: 'must be a whole number, at least 1' })
    .int('must be a whole number, at least 1')
    .min(1, 'must be a whole number, at least 1')
    .default(10),
  SOCKETS_MAX: z.coerce
    .number({ message: 'must be a whole number, at least 1' })
    .int('must be a whole number, at least 1')
    .min(1, 'must be a whole number, at least 1')
    .default(10_000),
  SOCKET_HEARTBEAT_SECONDS: z.coerce
    .number({ message: 'must be a whole number of seconds from 1 to 3600' })
    .int('must be a whole number of seconds from 1 to 3600')
    .min(1, 'must be a whole number of seconds from 1 to 3600')
    .max(3600, 'must be a whole number of seconds from 1 to 3600')
    .default(30),
  JOB_LEASE_SECONDS: z.coerce
    .number({ message: 'must be a whole number of seconds from 5 to 3600' })
    .int('must be a whole number of seconds from 5 to 3600')
    .min(5, 'must be a whole number of seconds from 5 to 3600')
    .max(3600, 'must be a whole number of seconds from 5 to 3600')
    .default(60),
  TZ: z.string().refine(isTimeZone, 'must be a time zone such as Asia/Shanghai').default(DEFAULT_TIME_ZONE),
}).superRefine((c, context) => {
  if (c.STORAGE !== 's3') return;
  for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
    if (c[name] === undefined) context.addIssue({ code: 'custom', path: [name], message: 'is required with STORAGE=s3' });
  }
});

/** Where uploaded files live: folders under DATA_DIR, or one S3-compatible bucket that several processes share. */
export type StorageConfig = { kind: 'local' } | { kind: 's3'; bucket: S3BucketSettings; prefix: string };

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * The reverse proxies in front of this node (`TRUST_PROXY`: addresses, CIDR ranges, or loopback,
   * linklocal, uniquelocal); only from them are `X-Forwarded-For` and `X-Real-IP` believed as the
   * client's address (`request.ip`, which every limit and record by address reads). Empty: none.
   */
  trustProxy: string[];
  adminPassword: string | undefined;
  /** Turns on Prometheus's `GET /metrics`, answered to this bearer token only (`METRICS_TOKEN`); absent: no such route. */
  metricsToken: string | undefined;
  captchaEnabled: boolean;
  /** Count every statement for the database monitor (`DB_STATEMENT_STATS`, default on; the bench turns it off to compare). */
  statementStats: boolean;
  logLevel: z.infer<typeof configSchema>['LOG_LEVEL'];
  /**
   * The address people reach the site at, without a trailing slash: `PUBLIC_URL`, else this
   * machine's own (`localAddress`, what the start notice prints). Every link that leaves the site
   * (a certificate's QR code) is built from it alone, never from a request's Host or X-Forwarded-*
   * headers, which whoever sends the request writes: a forged Host made genuine certificates
   * point at a phishing site.
   */
  publicUrl: string;
  /** `PUBLIC_URL` was not set: `publicUrl` is this machine's own address (`publicUrlWarning`). */
  publicUrlAssumed: boolean;
  /** Folder of the built web app; absent when the server runs without it (API only). */
  webDistDir: string | undefined;
  /** The most one user's local-storage uploads may take together (`UPLOAD_QUOTA_MB`). */
  uploadQuotaBytes: number;
  /** The largest file the course media library takes (`MEDIA_MAX_MB`). */
  mediaMaxBytes: number;
  /** The largest installation package `POST api/deploy/upload` takes (`DEPLOY_MAX_MB`). */
  deployMaxBytes: number;
  /** Encrypts secrets kept in the database (the cloud bucket's secret key); absent: none can be saved. */
  storageSecretKey: string | undefined;
  /** The organisation's zone (`TZ`, an IANA name): the calendar days study time is counted in. */
  timeZone: string;
  /** `STORAGE` and its `S3_*` settings. */
  storage: StorageConfig;
  /** `/websocket`'s caps and heartbeat (`SOCKETS_PER_SESSION`, `SOCKETS_PER_USER`, `SOCKETS_MAX`, `SOCKET_HEARTBEAT_SECONDS`). */
  sockets: SocketLimits;
  /** `JOB_LEASE_SECONDS`: how long a job claimed by a process that died stays claimed before another takes it up. */
  jobLeaseMs: number;
};

/** How many `/websocket` sockets one session, one person and the whole process may hold, and how often each is pinged. */
export type SocketLimits = { perSession: number; perUser: number; total: number; heartbeatMs: number };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the environment once at start; a bad value stops the process with every problem named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  // An empty variable means "not set" (docker-compose and systemd files often leave them blank).
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(cwd, c.DATA_DIR),
    databaseUrl: c.DATABASE_URL,
    trustProxy: c.TRUST_PROXY,
    adminPassword: c.ADMIN_PASSWORD,
    metricsToken: c.METRICS_TOKEN,
    captchaEnabled: c.CAPTCHA_ENABLED,
    statementStats: c.DB_STATEMENT_STATS,
    logLevel: c.LOG_LEVEL,
    publicUrl: c.PUBLIC_URL?.replace(/\/+$/, '') ?? localAddress(c.HOST, c.PORT),
    publicUrlAssumed: c.PUBLIC_URL === undefined,
    webDistDir: c.WEB_DIST_DIR === undefined ? undefined : path.resolve(cwd, c.WEB_DIST_DIR),
    uploadQuotaBytes: c.UPLOAD_QUOTA_MB * 1024 * 1024,
    mediaMaxBytes: c.MEDIA_MAX_MB * 1024 * 1024,
    deployMaxBytes: c.DEPLOY_MAX_MB * 1024 * 1024,
    storageSecretKey: c.STORAGE_SECRET_KEY,
    timeZone: c.TZ,
    sockets: { perSession: c.SOCKETS_PER_SESSION, perUser: c.SOCKETS_PER_USER, total: c.SOCKETS_MAX, heartbeatMs: c.SOCKET_HEARTBEAT_SECONDS * 1000 },
    jobLeaseMs: c.JOB_LEASE_SECONDS * 1000,
    storage:
      c.STORAGE === 's3'
        ? {
            kind: 's3',
            bucket: {
              endpoint: c.S3_ENDPOINT,
              region: c.S3_REGION,
              // Present: the schema's refinement requires them with STORAGE=s3.
              bucket: c.S3_BUCKET ?? '',
              accessKeyId: c.S3_ACCESS_KEY_ID ?? '',
              secretAccessKey: c.S3_SECRET_ACCESS_KEY ?? '',
              pathStyle: c.S3_PATH_STYLE,
            },
            prefix: c.S3_PREFIX ?? '',
          }
        : { kind: 'local' },
  };
}

/** The address a person at this machine reaches the server at: the start notice prints it. */
export function localAddress(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

const LOOPBACK = /^(localhost|127(\.\d+){3}|::1)$/;

/**
 * What to warn of at start when `PUBLIC_URL` is missing on a server other machines can reach:
 * there it is required for links that leave the site, yet a trial with no settings must still
 * start (`npm install && npm start`), so it is a warning rather than a refusal.
 */
export function publicUrlWarning(config: Pick<Config, 'host' | 'publicUrl' | 'publicUrlAssumed'>): string | undefined {
  if (!config.publicUrlAssumed || LOOPBACK.test(config.host)) return undefined;
  return `PUBLIC_URL is not set: certificates' QR codes and verification links name ${config.publicUrl}, which only this machine reaches. Set PUBLIC_URL to the address people reach the site at (https://learn.example.com).`;
}

/**
 * The most sockets a process allowed `openFiles` descriptors (its RLIMIT_NOFILE; unknown off
 * Linux) may hold: a quarter stays for the database, files and HTTP requests, or sockets would
 * again leave none for `/auth/login`.
 */
export function socketCeiling(total: number, openFiles: number | undefined): number {
  return openFiles === undefined ? total : Math.min(total, Math.max(1, Math.floor(openFiles * 0.75)));
}
