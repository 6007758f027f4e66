import { TOKEN_COOKIE } from '@cloud-classroom/shared/constants';
import { checkPermission, type Permission } from '@cloud-classroom/shared/permission';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import type { Principal, SessionService } from '../modules/auth/session.service.js';
import { HttpError } from './http-error.js';
import { t } from './request-locale.js';

/**
 * What a route demands of its caller. Every API route must say it: a route that declares
 * nothing is refused when the app is built, so it can never ship open by accident.
 * - `public`: anyone;
 * - `authenticated`: any live session;
 * - `permissions`: a live session whose user holds at least one of these (an administrator holds all);
 *   a code outside `Permission` (shared/permission.ts) does not compile;
 * - `admin`: a live session of an administrator (what no permission should open, such as stack traces).
 */
export type RouteAccess =
  | { public: true }
  | { authenticated: true }
  | { permissions: readonly [Permission, ...Permission[]] }
  | { admin: true };

export type ApiRoute = { method: string; url: string; access: RouteAccess };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /**
     * The session may also come from the web app's token cookie: for GET routes that `<video>`
     * and `<img>` load, which send no Authorization header. The cookie is SameSite=Strict, so no
     * other site's page sends it, and a GET changes nothing.
     */
    tokenCookie?: true;
  }
  interface FastifyInstance {
    /** Every API route with what it demands, for the permission listing and the tests. */
    apiRoutes: ApiRoute[];
  }
  interface FastifyRequest {
    /** Who is calling; set on every route that is not public. */
    principal: Principal | null;
  }
}

const API_PREFIXES = ['/api/', '/auth/'] as const;

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? url;
  return pathname === '/api' || pathname === '/auth' || API_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

export type AccessGuardDependencies = {
  sessions: SessionService;
  /** The permissions of a caller who is not an administrator (administrators are let through first). */
  permissionsOf: (userId: number) => Promise<string[]>;
};

/** The token the web app keeps in its cookie (js-cookie writes it percent-encoded), if the request carries it. */
function tokenFromCookie(header: string | undefined): string | undefined {
  for (const pair of header?.split(';') ?? []) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== TOKEN_COOKIE) continue;
    try {
      return decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function guardFor(access: RouteAccess, { sessions, permissionsOf }: AccessGuardDependencies, tokenCookie: boolean): onRequestHookHandler {
  return async (request) => {
    const authorization = request.headers.authorization ?? (tokenCookie ? tokenFromCookie(request.headers.cookie) : undefined);
    const principal = await sessions.authenticate(authorization);
    if (principal === undefined) throw new HttpError(401, t(request, 'error.sessionExpired'));
    request.principal = principal;
    if (principal.isAdmin) return;
    if ('admin' in access) throw new HttpError(403, t(request, 'error.forbidden'));
    if ('permissions' in access && !checkPermission(await permissionsOf(principal.userId), access.permissions)) {
      throw new HttpError(403, t(request, 'error.forbidden'));
    }
  };
}

/** Refuses undeclared API routes and puts the session and permission check in front of the others. */
export function enforceRouteAccess(app: FastifyInstance, dependencies: AccessGuardDependencies): void {
  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.decorateRequest('principal', null);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isApiPath(route.url)) return;
    const access = route.config?.access;
    if (access === undefined) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access (config.access)`);
    }
    const methods = [route.method].flat();
    const tokenCookie = route.config?.tokenCookie === true;
    if (tokenCookie && methods.some((method) => method !== 'GET' && method !== 'HEAD')) {
      throw new Error(`Route ${methods.join(',')} ${route.url} takes the token cookie, which only GET routes may`);
    }
    for (const method of methods) apiRoutes.push({ method, url: route.url, access });
    if ('public' in access) return;
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [guardFor(access, dependencies, tokenCookie), ...existing];
  });
}

/** The caller of a route that is not public; the guard has already made sure there is one. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new HttpError(401, t(request, 'error.sessionExpired'));
  return request.principal;
}
