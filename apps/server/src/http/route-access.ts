import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * What a route demands of its caller. Every API route must say it: a route that declares
 * nothing is refused when the app is built, so it can never ship open by accident.
 */
export type RouteAccess = { public: true };

export type ApiRoute = { method: string; url: string; access: RouteAccess };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** Every API route with what it demands, for the permission listing and the tests. */
    apiRoutes: ApiRoute[];
  }
}

const API_PREFIXES = ['/api/', '/auth/'] as const;

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? url;
  return pathname === '/api' || pathname === '/auth' || API_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

export function enforceRouteAccessDeclarations(app: FastifyInstance): void {
  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isApiPath(route.url)) return;
    const access = route.config?.access;
    if (access === undefined) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access (config.access)`);
    }
    for (const method of [route.method].flat()) apiRoutes.push({ method, url: route.url, access });
  });
}
