import { healthSchema, readinessSchema } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DatabaseDialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { HttpError } from '../../http/http-error.js';
import { pingDatabase } from './health.repo.js';

export type HealthRoutesOptions = { version: string; dialect: DatabaseDialect; db: Kysely<Database> };

/** Longer than a healthy database ever takes, shorter than a load balancer's probe timeout. */
export const READINESS_TIMEOUT_MS = 2000;

/**
 * `api/health` is the liveness probe: the process answers. `api/health/ready` is the readiness
 * probe a load balancer routes by: the node listens only once its migrations are done, and it is
 * ready while its database answers within READINESS_TIMEOUT_MS (a 503 otherwise, never a hang).
 */
export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (app, { version, dialect, db }) => {
  app.get(
    '/api/health',
    { config: { access: { public: true } }, schema: { response: { 200: healthSchema } } },
    async () => ({ status: 'UP' as const, version, uptimeSeconds: Math.round(process.uptime()), database: dialect }),
  );

  app.get(
    '/api/health/ready',
    { config: { access: { public: true } }, schema: { response: { 200: readinessSchema } } },
    async () => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), READINESS_TIMEOUT_MS);
      });
      // A ping that fails after the timeout won must not become an unhandled rejection.
      const ping = pingDatabase(db).then(
        () => 'ok' as const,
        () => 'down' as const,
      );
      const answer = await Promise.race([ping, late]).finally(() => clearTimeout(timer));
      if (answer === 'late') throw new HttpError(503, `not ready: the database did not answer within ${READINESS_TIMEOUT_MS / 1000} s`);
      if (answer === 'down') throw new HttpError(503, 'not ready: the database does not answer');
      return { status: 'READY' as const };
    },
  );
};
