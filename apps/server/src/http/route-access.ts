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
     * Also take the session from the web app's token cookie when no Authorization header comes:
     * for what the browser itself loads (a `<video>`'s or `<img>`'s source), which can send no
     * header. Only for reads: a cookie is sent with any same-site request.
     */
    sessionCookie?: true;
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

/** The token cookie's value (`Bearer …`, as the web app stores it), if the request carries it. */
export function tokenFromCookie(cookieHeader: string | undefined): string | undefined {
  for (const pair of cookieHeader?.split(';') ?? []) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === TOKEN_COOKIE) {
      try {
        return decodeURIComponent(pair.slice(separator + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function guardFor(access: RouteAccess, sessionCookie: boolean, { sessions, permissionsOf }: AccessGuardDependencies): onRequestHookHandler {
  return async (request) => {
    const { authorization, cookie } = request.headers;
    const principal = await sessions.authenticate(authorization ?? (sessionCookie ? tokenFromCookie(cookie) : undefined));
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
    const access = route.config?.access;
    // A page outside the API may declare access too (the database monitor's `/druid/index.html`): it is guarded alike.
    if (!isApiPath(route.url) && access === undefined) return;
    if (access === undefined) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access (config.access)`);
    }
    if (isApiPath(route.url)) for (const method of [route.method].flat()) apiRoutes.push({ method, url: route.url, access });
    if ('public' in access) return;
    if (route.config?.sessionCookie === true && [route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD')) {
      throw new Error(`Route ${String(route.method)} ${route.url} takes its session from a cookie: only reads may`);
    }
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [guardFor(access, route.config?.sessionCookie === true, dependencies), ...existing];
  });
}

/** The caller of a route that is not public; the guard has already made sure there is one. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new HttpError(401, t(request, 'error.sessionExpired'));
  return request.principal;
}
