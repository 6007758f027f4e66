import { pageOf } from '@cloud-classroom/shared/http';
import { logExceptionSchema, logIdParamsSchema, logQuerySchema, logSchema, type Log } from '@cloud-classroom/shared/logs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../http/route-access.js';
import { sendXlsx, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';
import { LogService } from './logs.service.js';

const exportColumns: XlsxColumn<Log>[] = [
  { header: '用户名', value: (row) => row.username },
  { header: 'IP', value: (row) => row.requestIp },
  { header: '描述', value: (row) => row.description, width: 24 },
  { header: '方法', value: (row) => row.method, width: 30 },
  { header: '参数', value: (row) => row.params, width: 40 },
  { header: '状态', value: (row) => row.status, width: 8 },
  { header: '浏览器', value: (row) => row.browser },
  { header: '请求耗时(ms)', value: (row) => row.time, width: 12 },
  { header: '创建日期', value: (row) => row.createTime, width: 20 },
];

const page = pageOf(logSchema);

export const logRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const logs = new LogService(services.database.db);

  app.get(
    '/api/logs',
    { config: { access: { permissions: ['log:list'] } }, schema: { querystring: logQuerySchema, response: { 200: page } } },
    async (request) => logs.page({ logType: 'INFO' }, request.query),
  );

  app.get(
    '/api/logs/user',
    { config: { access: { authenticated: true } }, schema: { querystring: logQuerySchema, response: { 200: page } } },
    async (request) => logs.page({ logType: 'INFO', username: principalOf(request).username }, request.query),
  );

  app.get(
    '/api/logs/error',
    { config: { access: { permissions: ['log:list'] } }, schema: { querystring: logQuerySchema, response: { 200: page } } },
    async (request) => logs.page({ logType: 'ERROR' }, request.query),
  );

  app.get(
    '/api/logs/error/:id',
    {
      // A stack trace shows the server's insides: log:list alone does not open it.
      config: { access: { admin: true } },
      schema: { params: logIdParamsSchema, response: { 200: logExceptionSchema } },
    },
    async (request) => logs.exceptionOf(request.params.id),
  );

  app.get(
    '/api/logs/download',
    { config: { access: { permissions: ['log:list'] }, audit: '导出操作日志' }, schema: { querystring: logQuerySchema } },
    async (request, reply) => sendXlsx(reply, '操作日志', exportColumns, await logs.all({ logType: 'INFO' }, request.query)),
  );

  app.get(
    '/api/logs/error/download',
    { config: { access: { permissions: ['log:list'] }, audit: '导出异常日志' }, schema: { querystring: logQuerySchema } },
    async (request, reply) => sendXlsx(reply, '异常日志', exportColumns, await logs.all({ logType: 'ERROR' }, request.query)),
  );

  app.delete(
    '/api/logs/del/info',
    { config: { access: { admin: true }, audit: '清空操作日志' } },
    async (_request, reply) => {
      await logs.clear('INFO');
      return reply.code(200).send();
    },
  );

  app.delete(
    '/api/logs/del/error',
    { config: { access: { admin: true }, audit: '清空异常日志' } },
    async (_request, reply) => {
      await logs.clear('ERROR');
      return reply.code(200).send();
    },
  );
};
