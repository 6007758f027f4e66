import { SOCKET_CLOSE_UNAUTHORIZED, websocketQuerySchema } from '@cloud-classroom/shared/auth';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services.js';

const BEARER = 'Bearer ';

export const websocketRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { sessions, sockets } = services;
  await app.register(fastifyWebsocket);
  const unsubscribe = sessions.onSessionsEnded(({ sessionIds, reason }) => sockets.endSessions(sessionIds, reason));
  app.addHook('onClose', async () => unsubscribe());

  // Public to the access guard (it is not under /api anyway): the socket authenticates itself,
  // and a refusal is a close code the client can act on rather than a failed handshake. The
  // session is looked up before the upgrade so that the socket is registered the moment it
  // opens, with no window in which it could close unnoticed.
  app.get(
    '/websocket',
    {
      websocket: true,
      config: { access: { public: true } },
      schema: { querystring: websocketQuerySchema },
      preHandler: async (request) => {
        const { token } = request.query;
        request.principal = (await sessions.authenticate(token.startsWith(BEARER) ? token : `${BEARER}${token}`)) ?? null;
      },
    },
    (socket, request) => {
      if (request.principal === null) sockets.refuse(socket, SOCKET_CLOSE_UNAUTHORIZED, 'unauthorized');
      else sockets.add(request.principal.sessionId, request.principal.userId, socket);
    },
  );
};
