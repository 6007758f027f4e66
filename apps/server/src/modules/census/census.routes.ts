import { censusIdParamsSchema, censusListQuerySchema, censusRowSchema, censusUserQuerySchema, censusUserSchema } from '@cloud-classroom/shared/census';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../http/route-access.js';
import { sendXlsxFile } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';

/** People statistics (DESIGN §10): the census list and one person's record, each with its workbook. */
export const censusRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { census } = services;

  app.get(
    '/api/census/users',
    { config: { access: { permissions: ['census:list'] } }, schema: { querystring: censusListQuerySchema, response: { 200: pageOf(censusRowSchema) } } },
    async (request) => census.list(principalOf(request), request.query),
  );

  app.get(
    '/api/census/users/download',
    { config: { access: { permissions: ['census:list'] }, audit: '导出学员统计' }, schema: { querystring: censusListQuerySchema } },
    async (request, reply) => {
      const { title, content } = await census.listWorkbook(principalOf(request), request.query);
      return sendXlsxFile(reply, title, content);
    },
  );

  // After the list's download, so that 'download' is not read as an id.
  app.get(
    '/api/census/users/:id',
    { config: { access: { permissions: ['census:list'] } }, schema: { params: censusIdParamsSchema, querystring: censusUserQuerySchema, response: { 200: censusUserSchema } } },
    async (request) => census.user(principalOf(request), request.params.id, request.query),
  );

  app.get(
    '/api/census/users/:id/download',
    { config: { access: { permissions: ['census:list'] }, audit: '导出学员档案' }, schema: { params: censusIdParamsSchema, querystring: censusUserQuerySchema } },
    async (request, reply) => {
      const { title, content } = await census.userWorkbook(principalOf(request), request.params.id, request.query);
      return sendXlsxFile(reply, title, content);
    },
  );
};
