import { pageOf } from '@cloud-classroom/shared/http';
import {
  avatarResultSchema,
  resetPasswordResultSchema,
  resetPasswordSchema,
  updatePasswordSchema,
  userCenterSchema,
  userCreatedSchema,
  userCreateSchema,
  userFilterSchema,
  userIdsSchema,
  userQuerySchema,
  userSchema,
  userUpdateSchema,
  type User,
} from '@cloud-classroom/shared/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptUploads, withUpload } from '../../files/upload-reader.js';
import { HttpError } from '../../http/http-error.js';
import { principalOf } from '../../http/route-access.js';
import { sendXlsx, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';
import { AVATAR_UPLOAD } from './avatar-files.js';

const exportColumns: XlsxColumn<User>[] = [
  { header: '用户名', value: (user) => user.username },
  { header: '昵称', value: (user) => user.nickName },
  { header: '性别', value: (user) => user.gender, width: 8 },
  { header: '部门', value: (user) => user.dept?.name },
  { header: '角色', value: (user) => user.roles.map((role) => role.name).join(', ') },
  { header: '邮箱', value: (user) => user.email, width: 24 },
  { header: '手机号码', value: (user) => user.phone },
  { header: '状态', value: (user) => (user.enabled ? '启用' : '禁用'), width: 8 },
  { header: '修改密码的时间', value: (user) => user.pwdResetTime, width: 20 },
  { header: '创建日期', value: (user) => user.createTime, width: 20 },
];

export const userRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { users } = services;
  acceptUploads(app);

  app.get(
    '/api/users',
    {
      // Enrolling people picks them from this list, within the enroller's data scope.
      config: { access: { permissions: ['user:list', 'applicant:add'] } },
      schema: { querystring: userQuerySchema, response: { 200: pageOf(userSchema) } },
    },
    async (request) => users.page(principalOf(request), request.query),
  );

  app.get(
    '/api/users/download',
    { config: { access: { permissions: ['user:list'] }, audit: '导出用户数据' }, schema: { querystring: userFilterSchema } },
    async (request, reply) => sendXlsx(reply, '用户数据', exportColumns, await users.all(principalOf(request), request.query)),
  );

  app.post(
    '/api/users',
    {
      config: { access: { permissions: ['user:add'] }, audit: '新增用户' },
      schema: { body: userCreateSchema, response: { 201: userCreatedSchema } },
    },
    async (request, reply) => reply.code(201).send(await users.create(principalOf(request), request.body)),
  );

  app.put(
    '/api/users',
    { config: { access: { permissions: ['user:edit'] }, audit: '修改用户' }, schema: { body: userUpdateSchema } },
    async (request, reply) => {
      await users.update(principalOf(request), request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/users',
    { config: { access: { permissions: ['user:del'] }, audit: '删除用户' }, schema: { body: userIdsSchema } },
    async (request, reply) => {
      await users.remove(principalOf(request), request.body);
      return reply.code(200).send();
    },
  );

  app.put(
    '/api/users/resetPwd',
    {
      config: { access: { permissions: ['user:edit'] }, audit: '重置密码' },
      schema: { body: resetPasswordSchema, response: { 200: resetPasswordResultSchema, 204: z.null() } },
    },
    async (request, reply) => {
      const passwords = await users.resetPasswords(principalOf(request), request.body);
      return passwords === undefined ? reply.code(204).send(null) : reply.code(200).send({ passwords });
    },
  );

  app.put(
    '/api/users/center',
    { config: { access: { authenticated: true }, audit: '修改个人资料' }, schema: { body: userCenterSchema } },
    async (request, reply) => {
      await users.updateCenter(principalOf(request), request.body);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/users/updatePass',
    { config: { access: { authenticated: true }, audit: '修改密码' }, schema: { body: updatePasswordSchema } },
    async (request, reply) => {
      await users.changePassword(principalOf(request), request.body, request.ip);
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/users/updateAvatar',
    { config: { access: { authenticated: true }, audit: '修改头像' }, schema: { response: { 200: avatarResultSchema } } },
    async (request) => withUpload(request, AVATAR_UPLOAD, (upload) => users.changeAvatar(principalOf(request), upload)),
  );

  // Outside /api, so outside the access system: public like eladmin's, the 128-bit name being the
  // secret. A wildcard, so that every path under /avatar/ answers here (JSON 404), never the web app.
  app.get('/avatar/*', { schema: { params: z.object({ '*': z.string() }) } }, async (request, reply) => {
    const avatar = await users.avatar(request.params['*']);
    if (avatar === undefined) throw new HttpError(404, 'avatar: no such image');
    // A name is never reused for other bytes, so the image may be cached for good.
    return reply
      .header('content-type', avatar.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(avatar.content);
  });
};
