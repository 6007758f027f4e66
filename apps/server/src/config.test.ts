import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, publicUrlWarning, socketCeiling } from './config.js';

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const config = loadConfig({}, '/srv/cc');
    expect(config).toEqual({
      port: 8000,
      host: '0.0.0.0',
      dataDir: path.resolve('/srv/cc', 'data'),
      databaseUrl: undefined,
      trustProxy: [],
      adminPassword: undefined,
      metricsToken: undefined,
      captchaEnabled: true,
      statementStats: true,
      logLevel: 'info',
      publicUrl: 'http://localhost:8000',
      publicUrlAssumed: true,
      webDistDir: undefined,
      uploadQuotaBytes: 1024 * 1024 * 1024,
      mediaMaxBytes: 2048 * 1024 * 1024,
      deployMaxBytes: 2048 * 1024 * 1024,
      timeZone: 'Asia/Shanghai',
      storage: { kind: 'local' },
      sockets: { perSession: 5, perUser: 10, total: 10_000, heartbeatMs: 30_000 },
      jobLeaseMs: 60_000,
    });
  });

  it('reads STORAGE=s3 and its bucket', () => {
    const env = { STORAGE: 's3', S3_ENDPOINT: 'https://minio.example.com', S3_BUCKET: 'classroom', S3_ACCESS_KEY_ID: 'AKIA', S3_SECRET_ACCESS_KEY: 'secret', S3_PREFIX: 'cc/media/' };
    expect(loadConfig(env).storage).toEqual({
      kind: 's3',
      bucket: { endpoint: 'https://minio.example.com', region: 'us-east-1', bucket: 'classroom', accessKeyId: 'AKIA', secretAccessKey: 'secret', pathStyle: true },
      prefix: 'cc/media/',
    });
    expect(loadConfig({ ...env, S3_ENDPOINT: '', S3_REGION: 'eu-west-3', S3_PATH_STYLE: 'false', S3_PREFIX: '' }).storage).toMatchObject({
      bucket: { endpoint: undefined, region: 'eu-west-3', pathStyle: false },
      prefix: '',
    });
    // The S3 settings mean nothing until STORAGE says s3.
    expect(loadConfig({ S3_BUCKET: 'classroom' }).storage).toEqual({ kind: 'local' });
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '9001',
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/cc',
        DATABASE_URL: 'postgres://cc@db:5432/cc',
        TRUST_PROXY: '10.0.0.1, 172.16.0.0/12,loopback',
        ADMIN_PASSWORD: 'correct horse',
        CAPTCHA_ENABLED: 'false',
        DB_STATEMENT_STATS: 'false',
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: 'web',
        PUBLIC_URL: 'https://learn.example.com/',
        UPLOAD_QUOTA_MB: '50',
        MEDIA_MAX_MB: '300',
        TZ: 'Europe/Paris',
        SOCKETS_PER_SESSION: '3',
        SOCKETS_PER_USER: '6',
        SOCKETS_MAX: '2000',
        SOCKET_HEARTBEAT_SECONDS: '10',
        JOB_LEASE_SECONDS: '15',
      },
      '/srv/cc',
    );
    expect(config).toMatchObject({
      port: 9001,
      host: '127.0.0.1',
      dataDir: '/var/lib/cc',
      databaseUrl: 'postgres://cc@db:5432/cc',
      trustProxy: ['10.0.0.1', '172.16.0.0/12', 'loopback'],
      adminPassword: 'correct horse',
      captchaEnabled: false,
      statementStats: false,
      logLevel: 'warn',
      publicUrl: 'https://learn.example.com',
      publicUrlAssumed: false,
      webDistDir: '/srv/cc/web',
      uploadQuotaBytes: 50 * 1024 * 1024,
      mediaMaxBytes: 300 * 1024 * 1024,
      timeZone: 'Europe/Paris',
      sockets: { perSession: 3, perUser: 6, total: 2000, heartbeatMs: 10_000 },
      jobLeaseMs: 15_000,
    });
  });

  it('names each TRUST_PROXY entry that is not an address, a range or a named range', () => {
    expect(loadConfig({ TRUST_PROXY: '::1,fd00::/8,uniquelocal,linklocal' }).trustProxy).toEqual(['::1', 'fd00::/8', 'uniquelocal', 'linklocal']);
    expect(() => loadConfig({ TRUST_PROXY: 'nginx.internal,10.0.0.0/33,10.0.0.0/8/1,*' })).toThrow(
      new ConfigError(
        [
          'Invalid configuration:',
          '  TRUST_PROXY: "nginx.internal" is not an address, a CIDR range (10.0.0.0/8) or loopback, linklocal or uniquelocal',
          '  TRUST_PROXY: "10.0.0.0/33" is not an address, a CIDR range (10.0.0.0/8) or loopback, linklocal or uniquelocal',
          '  TRUST_PROXY: "10.0.0.0/8/1" is not an address, a CIDR range (10.0.0.0/8) or loopback, linklocal or uniquelocal',
          '  TRUST_PROXY: "*" is not an address, a CIDR range (10.0.0.0/8) or loopback, linklocal or uniquelocal',
        ].join('\n'),
      ),
    );
  });

  it('takes links that leave the site from PUBLIC_URL, else from the address the start notice prints, warning when others can reach the server', () => {
    expect(loadConfig({ HOST: '127.0.0.1', PORT: '9001' }).publicUrl).toBe('http://127.0.0.1:9001');
    expect(loadConfig({ HOST: '::1' }).publicUrl).toBe('http://[::1]:8000');
    expect(loadConfig({ HOST: '::' }).publicUrl).toBe('http://localhost:8000');
    // A fresh machine with no settings starts, told what to set.
    expect(publicUrlWarning(loadConfig({}))).toMatch(/^PUBLIC_URL is not set: .* name http:\/\/localhost:8000, /);
    expect(publicUrlWarning(loadConfig({ HOST: '10.0.0.5' }))).toMatch(/^PUBLIC_URL is not set/);
    expect(publicUrlWarning(loadConfig({ HOST: '127.0.0.1' }))).toBeUndefined();
    expect(publicUrlWarning(loadConfig({ HOST: 'localhost' }))).toBeUndefined();
    expect(publicUrlWarning(loadConfig({ PUBLIC_URL: 'https://learn.example.com' }))).toBeUndefined();
  });

  it('keeps the sockets a quarter of the open-file limit short of it', () => {
    expect(socketCeiling(10_000, 20_000)).toBe(10_000);
    expect(socketCeiling(10_000, 1024)).toBe(768);
    expect(socketCeiling(10_000, undefined)).toBe(10_000);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).databaseUrl).toBeUndefined();
    expect(loadConfig({ PORT: '' }).port).toBe(8000);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT: must be a whole number from 0 to 65535'],
    [{ PORT: '70000' }, 'PORT: must be a whole number from 0 to 65535'],
    [{ DATABASE_URL: 'mysql://root@localhost/cc' }, 'DATABASE_URL: must be a postgres://'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD: must be at least 8 characters'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN: must be at least 16 characters'],
    [{ CAPTCHA_ENABLED: 'yes' }, 'CAPTCHA_ENABLED: must be true or false'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    [{ PUBLIC_URL: 'learn.example.com' }, 'PUBLIC_URL: must be an http:// or https:// URL'],
    [{ PUBLIC_URL: 'https://learn.example.com/?x=1' }, 'PUBLIC_URL: must be an address without a query or fragment'],
    [{ UPLOAD_QUOTA_MB: '0' }, 'UPLOAD_QUOTA_MB: must be a whole number of MiB, at least 1'],
    [{ UPLOAD_QUOTA_MB: 'lots' }, 'UPLOAD_QUOTA_MB: must be a whole number of MiB, at least 1'],
    [{ MEDIA_MAX_MB: '0' }, 'MEDIA_MAX_MB: must be a whole number of MiB, at least 1'],
    [{ MEDIA_MAX_MB: '1.5' }, 'MEDIA_MAX_MB: must be a whole number of MiB, at least 1'],
    [{ SOCKETS_PER_SESSION: '0' }, 'SOCKETS_PER_SESSION: must be a whole number, at least 1'],
    [{ SOCKETS_MAX: 'many' }, 'SOCKETS_MAX: must be a whole number, at least 1'],
    [{ SOCKET_HEARTBEAT_SECONDS: '0.5' }, 'SOCKET_HEARTBEAT_SECONDS: must be a whole number of seconds from 1 to 3600'],
    [{ TZ: 'Mars/Olympus' }, 'TZ: must be a time zone such as Asia/Shanghai'],
    [{ STORAGE: 'ftp' }, 'STORAGE: must be local or s3'],
    [{ STORAGE: 's3', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' }, 'S3_BUCKET: is required with STORAGE=s3'],
    [{ STORAGE: 's3', S3_BUCKET: 'b' }, /S3_ACCESS_KEY_ID: is required with STORAGE=s3\n {2}S3_SECRET_ACCESS_KEY: is required/],
    [{ STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT: must be an http:// or https:// URL'],
    [{ S3_PREFIX: 'media' }, 'S3_PREFIX: must be folder names ending in / (classroom/)'],
    [{ S3_PREFIX: '../x/' }, 'S3_PREFIX: must be folder names ending in /'],
  ])('rejects %o naming the variable', (env, expected) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(expected);
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'loud' })).toThrow(/PORT[\s\S]*LOG_LEVEL/);
  });
});
