import fs from 'node:fs';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { AppDatabase } from './db/database.js';
import { registerErrorHandler, sendNotFound } from './http/error-handler.js';
import { responseSerializerCompiler } from './http/response-serializer.js';
import { enforceRouteAccessDeclarations } from './http/route-access.js';
import { registerWebApp } from './http/web-app.js';
import { healthRoutes } from './modules/health/health.routes.js';

export type AppOptions = {
  config: Config;
  /** Opened and migrated by the caller; the app closes it when it closes. */
  database: AppDatabase;
  logger?: FastifyServerOptions['logger'];
};

const { version } = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Builds the whole HTTP app without listening: main.ts listens, tests inject requests. */
export async function buildApp({ config, database, logger = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    disableRequestLogging: true,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  registerErrorHandler(app);
  enforceRouteAccessDeclarations(app);
  // Node drops idle keep-alive sockets only at the moment close() is called; a socket whose
  // request finishes later would hold shutdown open until its keep-alive timeout (72 s).
  let idleSweeper: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    idleSweeper = setInterval(() => app.server.closeIdleConnections(), 50).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(idleSweeper);
    await database.db.destroy();
  });

  await app.register(healthRoutes, { version, dialect: database.dialect });

  if (config.webDistDir === undefined) {
    app.setNotFoundHandler(sendNotFound);
  } else {
    await registerWebApp(app, config.webDistDir);
  }
  return app;
}
