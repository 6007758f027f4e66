import fs from 'node:fs/promises';
import path from 'node:path';
import { databaseMonitorQuerySchema, databaseMonitorSchema, serverMonitorSchema } from '@cloud-classroom/shared/monitor';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../domain-error.js';
import type { Services } from '../../services.js';
import { DatabaseMonitorService } from './database-monitor.service.js';
import { MonitorService } from './monitor.service.js';

export const monitorRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const monitor = new MonitorService(services.database, services.config.dataDir, services.clock);
  const databaseMonitor = new DatabaseMonitorService(services.database, services.clock);

  app.get(
    '/api/monitor',
    { config: { access: { permissions: ['monitor:list'] } }, schema: { response: { 200: serverMonitorSchema } } },
    async () => monitor.snapshot(),
  );

  app.get(
    '/api/monitor/database',
    { config: { access: { permissions: ['monitor:list'] } }, schema: { querystring: databaseMonitorQuerySchema, response: { 200: databaseMonitorSchema } } },
    async (request) => databaseMonitor.snapshot(request.query),
  );

  app.delete(
    '/api/monitor/database/statements',
    { config: { access: { permissions: ['monitor:reset'] }, audit: '重置SQL监控' } },
    async (_request, reply) => {
      databaseMonitor.reset();
      return reply.code(200).send();
    },
  );

  // eladmin's address of Druid's monitor: the web app's page, opened in the browser (the session
  // from the token cookie), refused at the door without a session (401) or `monitor:list` (403).
  app.get(
    '/druid/index.html',
    { config: { access: { permissions: ['monitor:list'] }, sessionCookie: true }, schema: { hide: true } },
    async (_request, reply) => {
      const { webDistDir } = services.config;
      if (webDistDir === undefined) throw notFound('the web app is not served here');
      const page = await fs.readFile(path.join(webDistDir, 'index.html'));
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
    },
  );
};
