import { trainingDashboardQuerySchema, trainingDashboardSchema } from '@cloud-classroom/shared/dashboard';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../http/route-access.js';
import type { Services } from '../../services.js';

/** The back office home's training figures (`/dashboard`). */
export const dashboardRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { dashboard } = services;

  // Whoever may look at any of the lists the figures summarise; each figure stays within their data scope.
  app.get(
    '/api/dashboard/training',
    {
      config: { access: { permissions: ['applicant:list', 'exam:list', 'mark:list', 'cert:list', 'census:list'] } },
      schema: { querystring: trainingDashboardQuerySchema, response: { 200: trainingDashboardSchema } },
    },
    async (request) => dashboard.training(principalOf(request), request.query.days),
  );
};
