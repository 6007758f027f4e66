import type { FastifyInstance, FastifyRequest, onErrorHookHandler, onResponseHookHandler, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../db/schema.js';
import { LogService } from '../modules/logs/logs.service.js';
import { describeBrowser } from './user-agent.js';
import { isApiPath } from './route-access.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the audit log calls this action, in Chinese; the shared catalogue's `audit.*` entries
     * show it in the reader's language. Reads are logged only when they set it (exports).
     * `false` keeps a read that travels as a POST (a picker's tree for a list of ids) out of it.
     */
    audit?: string | false;
  }
  interface FastifyRequest {
    failure: Error | null;
    /**
     * What a write changed that its body alone does not show (a menu's permission code before
     * and after); logged beside the body as `changes`.
     */
    auditChanges: Record<string, unknown> | null;
  }
  interface FastifyInstance {
    /** Resolves once every audit entry of answered requests is written (close waits for it too). */
    auditLogSettled: () => Promise<void>;
    /** Every audited API route and what its entries are called, for the tests. */
    auditedRoutes: AuditedRoute[];
  }
}

/** `description` undefined: the entry is called by its method and path. */
export type AuditedRoute = { method: string; url: string; description: string | undefined };

const SECRET_KEY = /pass(word)?|secret|token|authorization|credential/i;
const MAX_PARAMS_LENGTH = 4000;

/** A copy with every secret-looking field masked, at any depth. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) ? '******' : maskSecrets(inner)]),
  );
}

function paramsOf(request: FastifyRequest): string | null {
  const parts: Record<string, unknown> = {};
  if (request.query !== null && typeof request.query === 'object' && Object.keys(request.query).length > 0) {
    parts.query = request.query;
  }
  if (request.params !== null && typeof request.params === 'object' && Object.keys(request.params).length > 0) {
    parts.params = request.params;
  }
  // Uploads are logged by what they are, not by their bytes.
  if (request.body !== undefined && !request.headers['content-type']?.startsWith('multipart/')) parts.body = request.body;
  if (request.auditChanges !== null) parts.changes = request.auditChanges;
  if (Object.keys(parts).length === 0) return null;
  const text = JSON.stringify(maskSecrets(parts));
  return text.length > MAX_PARAMS_LENGTH ? `${text.slice(0, MAX_PARAMS_LENGTH)}…` : text;
}

function usernameOf(request: FastifyRequest): string | null {
  if (request.principal !== null) return request.principal.username;
  const body = request.body as { username?: unknown } | undefined;
  // A login names its user in the body, whether or not it succeeds.
  return typeof body?.username === 'string' ? body.username.slice(0, 64) : null;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Records every API write and every login, success or not, after the answer has gone out. The
 * hooks are attached to the routes that are audited when they are registered, so reads pay
 * nothing for them.
 */
export function registerAuditLog(app: FastifyInstance, db: Kysely<Database>, clock: Clock): void {
  app.decorateRequest('failure', null);
  app.decorateRequest('auditChanges', null);
  const logs = new LogService(db);
  const pending = new Set<Promise<void>>();
  app.decorate('auditLogSettled', async () => {
    await Promise.all(pending);
  });
  const auditedRoutes: AuditedRoute[] = [];
  app.decorate('auditedRoutes', auditedRoutes);

  const rememberFailure: onErrorHookHandler = async (request, _reply, error) => {
    request.failure = error;
  };

  const writeEntry: onResponseHookHandler = async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.audit === false || (READS.has(request.method) && config.audit === undefined)) return;
    const status = reply.statusCode;
    const route = request.routeOptions.url ?? request.url.split('?')[0] ?? request.url;
    const write = logs
      .record({
        username: usernameOf(request),
        description: config.audit ?? `${request.method} ${route}`,
        method: `${request.method} ${route}`,
        params: paramsOf(request),
        log_type: status >= 500 ? 'ERROR' : 'INFO',
        status,
        request_ip: request.ip,
        browser: describeBrowser(request.headers['user-agent']),
        time: Math.round(reply.elapsedTime),
        exception_detail: status >= 500 && request.failure !== null ? (request.failure.stack ?? String(request.failure)) : null,
        create_time: clock.now(),
      })
      .catch((error: unknown) => request.log.error({ err: error }, 'could not write the audit log'))
      .finally(() => pending.delete(write));
    pending.add(write);
    await write;
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isApiPath(route.url)) return;
    const audit = route.config?.audit;
    const audited = audit !== false && (audit !== undefined || [route.method].flat().some((method) => !READS.has(method)));
    if (!audited) return;
    for (const method of [route.method].flat()) auditedRoutes.push({ method, url: route.url, description: audit });
    route.onError = [...(route.onError === undefined ? [] : [route.onError].flat()), rememberFailure];
    route.onResponse = [...(route.onResponse === undefined ? [] : [route.onResponse].flat()), writeEntry];
  });
}
