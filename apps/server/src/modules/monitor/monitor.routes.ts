import { serverMonitorSchema } from '@cloud-classroom/shared/monitor';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.js';
import { MonitorService } from './monitor.service.js';

export const monitorRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const monitor = new MonitorService(services.database, services.config.dataDir, services.clock);

  app.get(
    '/api/monitor',
    { config: { access: { permissions: ['monitor:list'] } }, schema: { response: { 200: serverMonitorSchema } } },
    async () => monitor.snapshot(),
  );
};
