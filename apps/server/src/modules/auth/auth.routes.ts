import { authInfoSchema, captchaSchema, loginBodySchema, loginResponseSchema } from '@cloud-classroom/shared/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../http/route-access.js';
import { describeBrowser } from '../../http/user-agent.js';
import type { Services } from '../../services.js';
import { issueCaptcha } from './captcha.service.js';

export const authRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { auth, sessions, database, config } = services;

  app.get(
    '/auth/code',
    { config: { access: { public: true } }, schema: { response: { 200: captchaSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { ...(await issueCaptcha(database.db, request.ip, services.clock.now())), enabled: config.captchaEnabled };
    },
  );

  app.post(
    '/auth/login',
    {
      config: { access: { public: true }, audit: '用户登录' },
      schema: { body: loginBodySchema, response: { 200: loginResponseSchema } },
    },
    async (request) =>
      auth.login({ ...request.body, ip: request.ip, browser: describeBrowser(request.headers['user-agent']) }),
  );

  app.get(
    '/auth/info',
    { config: { access: { authenticated: true } }, schema: { response: { 200: authInfoSchema } } },
    async (request) => auth.info(principalOf(request).userId),
  );

  // Public, like eladmin's: a client with a dead token must still be able to "log out".
  app.delete('/auth/logout', { config: { access: { public: true }, audit: '退出登录' } }, async (request, reply) => {
    // Read before the session ends, so the audit log names who logged out.
    const principal = await sessions.authenticate(request.headers.authorization);
    if (principal !== undefined) request.principal = principal;
    const sessionId = principal?.sessionId ?? sessions.sessionIdOf(request.headers.authorization);
    if (sessionId !== undefined) await sessions.end([sessionId], 'logout');
    return reply.code(200).send();
  });
};
