import { idTextSchema, pageOf } from '@cloud-classroom/shared/http';
import {
  roleCreateSchema,
  roleIdsSchema,
  roleLevelSchema,
  roleMenusSchema,
  roleQuerySchema,
  roleSchema,
  roleUpdateSchema,
  type Role,
} from '@cloud-classroom/shared/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../http/route-access.js';
import { sendXlsx, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';

const exportColumns: XlsxColumn<Role>[] = [
  { header: '角色名称', value: (role) => role.name },
  { header: '角色级别', value: (role) => role.level },
  { header: '数据权限', value: (role) => role.dataScope },
  { header: '描述', value: (role) => role.description, width: 40 },
  { header: '英文描述', value: (role) => role.descriptionEn, width: 40 },
  { header: '创建日期', value: (role) => role.createTime, width: 20 },
];

export const roleRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { roles } = services;

  app.get(
    '/api/roles',
    { config: { access: { permissions: ['roles:list'] } }, schema: { querystring: roleQuerySchema, response: { 200: pageOf(roleSchema) } } },
    async (request) => roles.list(request.query),
  );

  // The user form offers every role, so those who create or edit users may read them too.
  app.get(
    '/api/roles/all',
    { config: { access: { permissions: ['roles:list', 'user:add', 'user:edit', 'applicant:add'] } }, schema: { response: { 200: z.array(roleSchema) } } },
    async () => roles.all(),
  );

  app.get(
    '/api/roles/level',
    { config: { access: { authenticated: true } }, schema: { response: { 200: roleLevelSchema } } },
    async (request) => roles.levelOf(principalOf(request)),
  );

  app.get(
    '/api/roles/download',
    { config: { access: { permissions: ['roles:list'] }, audit: '导出角色数据' }, schema: { querystring: roleQuerySchema } },
    async (request, reply) => sendXlsx(reply, '角色数据', exportColumns, await roles.all(request.query)),
  );

  app.get(
    '/api/roles/:id',
    {
      config: { access: { permissions: ['roles:list'] } },
      schema: { params: z.object({ id: idTextSchema }), response: { 200: roleSchema } },
    },
    async (request) => roles.get(request.params.id),
  );

  app.post(
    '/api/roles',
    { config: { access: { permissions: ['roles:add'] }, audit: '新增角色' }, schema: { body: roleCreateSchema } },
    async (request, reply) => {
      await roles.create(request.body, principalOf(request));
      return reply.code(201).send();
    },
  );

  app.put(
    '/api/roles',
    { config: { access: { permissions: ['roles:edit'] }, audit: '修改角色' }, schema: { body: roleUpdateSchema } },
    async (request, reply) => {
      await roles.update(request.body, principalOf(request));
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/roles/menu',
    { config: { access: { permissions: ['roles:edit'] }, audit: '修改角色菜单' }, schema: { body: roleMenusSchema } },
    async (request, reply) => {
      await roles.updateMenus(request.body, principalOf(request));
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/roles',
    { config: { access: { permissions: ['roles:del'] }, audit: '删除角色' }, schema: { body: roleIdsSchema } },
    async (request, reply) => {
      await roles.delete(request.body, principalOf(request));
      return reply.code(200).send();
    },
  );
};
