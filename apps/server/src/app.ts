import fs from 'node:fs';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { AppDatabase } from './db/database.js';
import { answerFrameworkError, registerErrorHandler, sendNotFound } from './http/error-handler.js';
import { responseSerializerCompiler } from './http/response-serializer.js';
import { registerAuditLog } from './http/audit-log.js';
import { registerIdempotency } from './http/idempotency.js';
import { registerOpenApi } from './http/openapi.js';
import { believeRealIpHeader, trustProxyOption } from './http/client-address.js';
import { refuseNulCharacters } from './http/refuse-nul-characters.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { enforceRouteAccess } from './http/route-access.js';
import { registerWebApp } from './http/web-app.js';
import { applicantRoutes } from './modules/applicants/applicants.routes.js';
import { attemptRoutes } from './modules/attempts/attempts.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { censusRoutes } from './modules/census/census.routes.js';
import { databaseRoutes } from './modules/database/database.routes.js';
import { certificateRoutes } from './modules/certificates/certificates.routes.js';
import { courseRoutes } from './modules/courses/courses.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { cloudStorageRoutes } from './modules/cloud-storage/cloud-storage.routes.js';
import { deployRoutes } from './modules/deploy/deploy.routes.js';
import { deptRoutes } from './modules/depts/depts.routes.js';
import { dictRoutes } from './modules/dicts/dicts.routes.js';
import { examRoutes } from './modules/exams/exams.routes.js';
import { examReportRoutes } from './modules/attempts/exam-report.routes.js';
import { markingRoutes } from './modules/attempts/marking.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { registerMetrics } from './modules/metrics/metrics.routes.js';
import { logRoutes } from './modules/logs/logs.routes.js';
import { mediaRoutes } from './modules/media/media.routes.js';
import { notificationRoutes } from './modules/notifications/notifications.routes.js';
import { progressRoutes } from './modules/progress/progress.routes.js';
import { questionRoutes } from './modules/questions/questions.routes.js';
import { menuRoutes } from './modules/menus/menus.routes.js';
import { monitorRoutes } from './modules/monitor/monitor.routes.js';
import { onlineRoutes } from './modules/online/online.routes.js';
import { roleRoutes } from './modules/roles/roles.routes.js';
import { storageRoutes } from './modules/storage/storage.routes.js';
import { userRoutes } from './modules/users/users.routes.js';
import { websocketRoutes } from './modules/websocket/websocket.routes.js';
import { createServices } from './services.js';

export type AppOptions = {
  config: Config;
  /** Opened and migrated by the caller; the app closes it when it closes. */
  database: AppDatabase;
  logger?: FastifyServerOptions['logger'];
  /** The system clock unless a test sets the time. */
  clock?: Clock;
};

const { version } = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

// Every route, plugins' included, validates with zod and answers through our serializer. Given
// as factories rather than set on the instance, fastify never loads its default ones (ajv and
// its own fast-json-stringify build), which cost more to load than fastify itself. (Fastify types the
// factories after ajv's; they receive the route's schema, a zod one here.)
const compilersFactory = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => responseSerializerCompiler,
} as unknown as CompilersFactory;

/** Builds the whole HTTP app without listening: main.ts listens, tests inject requests. */
export async function buildApp({ config, database, logger = false, clock }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // Access is recorded by the audit log; a log line per request would be noise (and slow).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    frameworkErrors: answerFrameworkError,
    schemaController: { compilersFactory },
    trustProxy: trustProxyOption(config.trustProxy),
  });
  believeRealIpHeader(app, config.trustProxy);
  registerErrorHandler(app);
  registerSecurityHeaders(app);
  refuseNulCharacters(app);
  const services = await createServices(config, database, { clock, log: app.log });
  app.decorate('services', services);
  // Before any route can write a notification, so that none is missed by this process's sockets.
  await services.notificationPush.start();
  await services.sessions.listenToOtherProcesses();
  if (config.metricsToken !== undefined) await registerMetrics(app, { token: config.metricsToken, database, services });
  enforceRouteAccess(app, { sessions: services.sessions, permissionsOf: (userId) => services.access.menuPermissionsOf(userId) });
  registerAuditLog(app, database.db, services.clock);
  registerIdempotency(app, database.db, services.clock);
  // Node drops idle keep-alive sockets only at the moment close() is called; a socket whose
  // request finishes later would hold shutdown open until its keep-alive timeout (72 s).
  let idleSweeper: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    idleSweeper = setInterval(() => app.server.closeIdleConnections(), 50).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(idleSweeper);
    // Already stopping when main.ts began the shutdown; then this waits for the same end.
    await services.jobs.stop();
    await services.notificationPush.close();
    await services.sessions.close();
    // Audit entries of the last answers are written after those answers went out.
    await app.auditLogSettled();
    await database.db.destroy();
    services.files.close();
  });

  await registerOpenApi(app, { version });

  await app.register(healthRoutes, { version, dialect: database.dialect, db: database.db });
  await app.register(authRoutes, { services });
  await app.register(onlineRoutes, { services });
  await app.register(menuRoutes, { services });
  await app.register(dictRoutes, { services });
  await app.register(userRoutes, { services });
  await app.register(roleRoutes, { services });
  await app.register(deptRoutes, { services });
  await app.register(logRoutes, { services });
  await app.register(monitorRoutes, { services });
  await app.register(storageRoutes, { services });
  await app.register(mediaRoutes, { services });
  await app.register(deployRoutes, { services });
  await app.register(cloudStorageRoutes, { services });
  await app.register(websocketRoutes, { services });
  await app.register(courseRoutes, { services });
  await app.register(applicantRoutes, { services });
  await app.register(examRoutes, { services });
  await app.register(attemptRoutes, { services });
  await app.register(markingRoutes, { services });
  await app.register(examReportRoutes, { services });
  await app.register(certificateRoutes, { services });
  await app.register(censusRoutes, { services });
  await app.register(databaseRoutes, { services });
  await app.register(dashboardRoutes, { services });
  await app.register(notificationRoutes, { services });
  await app.register(progressRoutes, { services });
  await app.register(questionRoutes, { services });

  if (config.webDistDir === undefined) {
    app.setNotFoundHandler(sendNotFound);
  } else {
    await registerWebApp(app, config.webDistDir);
  }
  return app;
}
