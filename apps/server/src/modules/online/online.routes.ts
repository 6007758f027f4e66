import { onlineKeysSchema, onlineQuerySchema, onlineSessionSchema, type OnlineSession } from '@cloud-classroom/shared/online';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendXlsx, type XlsxColumn } from '../../http/xlsx-export.js';
import { principalOf } from '../../http/route-access.js';
import type { Services } from '../../services.js';
import { UserService } from '../users/users.service.js';
import { OnlineService } from './online.service.js';

const exportColumns: XlsxColumn<OnlineSession>[] = [
  { header: '用户名', value: (row) => row.userName },
  { header: '用户昵称', value: (row) => row.nickName },
  { header: '部门', value: (row) => row.dept },
  { header: '登录IP', value: (row) => row.ip },
  { header: '浏览器', value: (row) => row.browser, width: 24 },
  { header: '登录时间', value: (row) => row.loginTime, width: 20 },
  { header: '最后访问', value: (row) => row.lastSeenTime, width: 20 },
];

export const onlineRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { db } = services.database;
  const users = new UserService({ db, sessions: services.sessions, files: services.files });
  const online = new OnlineService(db, services.sessions, users);

  app.get(
    '/auth/online',
    {
      config: { access: { permissions: ['online:list'] } },
      schema: { querystring: onlineQuerySchema, response: { 200: pageOf(onlineSessionSchema) } },
    },
    async (request) => online.page(request.query),
  );

  app.delete(
    '/auth/online',
    { config: { access: { permissions: ['online:del'] }, audit: '强制退出用户' }, schema: { body: onlineKeysSchema } },
    async (request, reply) => {
      await online.kick(request.body, principalOf(request));
      return reply.code(200).send();
    },
  );

  app.get(
    '/auth/online/download',
    { config: { access: { permissions: ['online:list'] }, audit: '导出在线用户' }, schema: { querystring: onlineQuerySchema } },
    async (request, reply) => sendXlsx(reply, '在线用户', exportColumns, await online.all(request.query.username)),
  );
};
