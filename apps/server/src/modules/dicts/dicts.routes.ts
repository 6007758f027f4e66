import {
  dictBodySchema,
  dictDetailBodySchema,
  dictDetailIdParamsSchema,
  dictDetailMapQuerySchema,
  dictDetailMapSchema,
  dictDetailQuerySchema,
  dictDetailSchema,
  dictDetailUpdateBodySchema,
  dictIdsSchema,
  dictQuerySchema,
  dictSchema,
  dictUpdateBodySchema,
  type DictDetail,
} from '@cloud-classroom/shared/dicts';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../http/route-access.js';
import { sendXlsx, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';
import { DictService, type DictWithDetails } from './dicts.service.js';

type ExportRow = { dict: DictWithDetails; detail: DictDetail | undefined };

const exportColumns: XlsxColumn<ExportRow>[] = [
  { header: '字典名称', value: (row) => row.dict.name },
  { header: '字典描述', value: (row) => row.dict.description },
  { header: '字典标签', value: (row) => row.detail?.label },
  { header: '英文标签', value: (row) => row.detail?.labelEn },
  { header: '字典值', value: (row) => row.detail?.value },
  { header: '排序', value: (row) => row.detail?.dictSort, width: 8 },
  { header: '创建日期', value: (row) => row.dict.createTime, width: 20 },
];

export const dictRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const dicts = new DictService(services.database.db, services.clock);

  app.get(
    '/api/dict',
    {
      config: { access: { permissions: ['dict:list'] } },
      schema: { querystring: dictQuerySchema, response: { 200: pageOf(dictSchema) } },
    },
    async (request) => dicts.page(request.query),
  );

  app.get(
    '/api/dict/all',
    { config: { access: { permissions: ['dict:list'] } }, schema: { response: { 200: z.array(dictSchema) } } },
    async () => dicts.all(),
  );

  app.get(
    '/api/dict/download',
    { config: { access: { permissions: ['dict:list'] }, audit: '导出字典数据' }, schema: { querystring: dictQuerySchema } },
    async (request, reply) => {
      const rows = (await dicts.export(request.query)).flatMap((dict): ExportRow[] =>
        dict.details.length === 0 ? [{ dict, detail: undefined }] : dict.details.map((detail) => ({ dict, detail })),
      );
      return sendXlsx(reply, '字典数据', exportColumns, rows);
    },
  );

  app.post(
    '/api/dict',
    { config: { access: { permissions: ['dict:add'] }, audit: '新增字典' }, schema: { body: dictBodySchema } },
    async (request, reply) => {
      await dicts.create(request.body, principalOf(request).username);
      return reply.code(201).send();
    },
  );

  app.put(
    '/api/dict',
    { config: { access: { permissions: ['dict:edit'] }, audit: '修改字典' }, schema: { body: dictUpdateBodySchema } },
    async (request, reply) => {
      await dicts.update(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/dict',
    { config: { access: { permissions: ['dict:del'] }, audit: '删除字典' }, schema: { body: dictIdsSchema } },
    async (request, reply) => {
      await dicts.delete(request.body);
      return reply.code(200).send();
    },
  );

  // Every page shows dictionary labels, so any signed-in user may read the entries.
  app.get(
    '/api/dictDetail',
    {
      config: { access: { authenticated: true } },
      schema: { querystring: dictDetailQuerySchema, response: { 200: pageOf(dictDetailSchema) } },
    },
    async (request) => dicts.detailPage(request.query),
  );

  app.get(
    '/api/dictDetail/map',
    {
      config: { access: { authenticated: true } },
      schema: { querystring: dictDetailMapQuerySchema, response: { 200: dictDetailMapSchema } },
    },
    async (request) => dicts.detailMap(request.query.dictName),
  );

  app.post(
    '/api/dictDetail',
    { config: { access: { permissions: ['dict:add'] }, audit: '新增字典详情' }, schema: { body: dictDetailBodySchema } },
    async (request, reply) => {
      await dicts.createDetail(request.body, principalOf(request).username);
      return reply.code(201).send();
    },
  );

  app.put(
    '/api/dictDetail',
    { config: { access: { permissions: ['dict:edit'] }, audit: '修改字典详情' }, schema: { body: dictDetailUpdateBodySchema } },
    async (request, reply) => {
      await dicts.updateDetail(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/dictDetail/:id',
    { config: { access: { permissions: ['dict:del'] }, audit: '删除字典详情' }, schema: { params: dictDetailIdParamsSchema } },
    async (request, reply) => {
      await dicts.deleteDetail(request.params.id);
      return reply.code(200).send();
    },
  );
};
