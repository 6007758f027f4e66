import {
  notificationPageSchema,
  notificationPreferencesSchema,
  notificationPreferencesUpdateSchema,
  notificationQuerySchema,
  notificationReadSchema,
  unreadCountSchema,
} from '@cloud-classroom/shared/notifications';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../http/route-access.js';
import type { Services } from '../../services.js';

// A person's own notifications, staff and learners alike, decided by the session alone: there is
// no one else's to ask for, so no permission to hold.
export const notificationRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { notifications } = services;

  app.get(
    '/api/site/notifications',
    { config: { access: { authenticated: true } }, schema: { querystring: notificationQuerySchema, response: { 200: notificationPageSchema } } },
    async (request) => notifications.list(principalOf(request).userId, request.query),
  );

  // Marks are a reader's clicks: in the audit log they would be noise.
  app.put(
    '/api/site/notifications/read',
    { config: { access: { authenticated: true }, audit: false }, schema: { body: notificationReadSchema, response: { 200: unreadCountSchema } } },
    async (request) => notifications.markRead(principalOf(request).userId, request.body.ids),
  );

  app.put(
    '/api/site/notifications/read-all',
    { config: { access: { authenticated: true }, audit: false }, schema: { response: { 200: unreadCountSchema } } },
    async (request) => notifications.markRead(principalOf(request).userId, 'all'),
  );

  app.get(
    '/api/site/notification-preferences',
    { config: { access: { authenticated: true } }, schema: { response: { 200: notificationPreferencesSchema } } },
    async (request) => notifications.preferences(principalOf(request).userId),
  );

  app.put(
    '/api/site/notification-preferences',
    {
      config: { access: { authenticated: true }, audit: '修改通知设置' },
      schema: { body: notificationPreferencesUpdateSchema, response: { 200: notificationPreferencesSchema } },
    },
    async (request) => notifications.savePreferences(principalOf(request).userId, request.body),
  );
};
