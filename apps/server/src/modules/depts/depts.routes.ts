import {
  deptCreateSchema,
  deptIdsSchema,
  deptQuerySchema,
  deptSchema,
  deptSuperiorQuerySchema,
  deptTreeSchema,
  deptUpdateSchema,
  type Dept,
} from '@cloud-classroom/shared/depts';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../http/route-access.js';
import { sendXlsx, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';

// The user page's department tree reads these too.
// Enrolling people picks them, and rules pick departments: the enrollers read both.
const READERS = ['dept:list', 'user:list', 'applicant:add'] as const;

const exportColumns: XlsxColumn<Dept>[] = [
  { header: '部门名称', value: (dept) => dept.name, width: 24 },
  { header: '部门状态', value: (dept) => (dept.enabled ? '启用' : '停用') },
  { header: '排序', value: (dept) => dept.deptSort },
  { header: '创建日期', value: (dept) => dept.createTime, width: 20 },
];

export const deptRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { depts } = services;

  app.get(
    '/api/dept',
    { config: { access: { permissions: READERS } }, schema: { querystring: deptQuerySchema, response: { 200: pageOf(deptSchema) } } },
    async (request) => depts.list(request.query, principalOf(request).userId),
  );

  app.get(
    '/api/dept/download',
    { config: { access: { permissions: ['dept:list'] }, audit: '导出部门数据' }, schema: { querystring: deptQuerySchema } },
    async (request, reply) => sendXlsx(reply, '部门数据', exportColumns, await depts.exportRows(request.query, principalOf(request).userId)),
  );

  app.post(
    '/api/dept/superior',
    {
      // A read, but a POST (the ids travel in the body), so the audit log records it anyway.
      config: { access: { permissions: READERS }, audit: false },
      schema: { querystring: deptSuperiorQuerySchema, body: deptIdsSchema, response: { 200: z.array(deptTreeSchema) } },
    },
    async (request) => depts.superior(request.body, request.query.exclude, principalOf(request).userId),
  );

  app.post(
    '/api/dept',
    { config: { access: { permissions: ['dept:add'] }, audit: '新增部门' }, schema: { body: deptCreateSchema } },
    async (request, reply) => {
      await depts.create(request.body, principalOf(request).username);
      return reply.code(201).send();
    },
  );

  app.put(
    '/api/dept',
    { config: { access: { permissions: ['dept:edit'] }, audit: '修改部门' }, schema: { body: deptUpdateSchema } },
    async (request, reply) => {
      await depts.update(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/dept',
    { config: { access: { permissions: ['dept:del'] }, audit: '删除部门' }, schema: { body: deptIdsSchema } },
    async (request, reply) => {
      await depts.delete(request.body);
      return reply.code(200).send();
    },
  );
};
