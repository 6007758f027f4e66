import { healthSchema } from '@cloud-classroom/shared/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DatabaseDialect } from '../../db/database.js';

export type HealthRoutesOptions = { version: string; dialect: DatabaseDialect };

export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (app, { version, dialect }) => {
  app.get(
    '/api/health',
    { config: { access: { public: true } }, schema: { response: { 200: healthSchema } } },
    async () => ({ status: 'UP' as const, version, uptimeSeconds: Math.round(process.uptime()), database: dialect }),
  );
};
