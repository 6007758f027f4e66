import {
  cloudConfigSchema,
  cloudConfigUpdateSchema,
  cloudFileIdsSchema,
  cloudFileQuerySchema,
  cloudFileSchema,
  cloudLinkSchema,
  cloudSyncSchema,
} from '@cloud-classroom/shared/cloud-storage';
import { idTextSchema, pageOf } from '@cloud-classroom/shared/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptUploads, withUpload, type UploadOptions } from '../../files/upload-reader.js';
import { principalOf } from '../../http/route-access.js';
import type { Services } from '../../services.js';
import { CLOUD_FILE_MAX_BYTES } from './cloud-storage.service.js';

const CLOUD_UPLOAD: UploadOptions = { field: 'file', maxBytes: CLOUD_FILE_MAX_BYTES };

// For the API docs only: the upload is read as a stream by withUpload.
const fileUploadBody = z.unknown().meta({ type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] });

/**
 * eladmin's `/api/qiNiuContent`, on any S3-compatible bucket: `storage:list` reads (the list, the
 * settings without the secret, download links), `storage:add` uploads and syncs (eladmin left its
 * upload unguarded), `storage:edit` changes the settings, `storage:del` deletes.
 */
export const cloudStorageRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { cloudStorage } = services;
  acceptUploads(app);

  app.get(
    '/api/qiNiuContent',
    { config: { access: { permissions: ['storage:list'] } }, schema: { querystring: cloudFileQuerySchema, response: { 200: pageOf(cloudFileSchema) } } },
    async (request) => cloudStorage.page(request.query),
  );

  app.get(
    '/api/qiNiuContent/config',
    { config: { access: { permissions: ['storage:list'] } }, schema: { response: { 200: cloudConfigSchema } } },
    async () => cloudStorage.config(),
  );

  app.put(
    '/api/qiNiuContent/config',
    { config: { access: { permissions: ['storage:edit'] }, audit: '修改云存储配置' }, schema: { body: cloudConfigUpdateSchema, response: { 200: cloudConfigSchema } } },
    async (request) => cloudStorage.saveConfig(request.body),
  );

  app.post(
    '/api/qiNiuContent/config/check',
    { config: { access: { permissions: ['storage:edit'] }, audit: '测试云存储连接' } },
    async (_request, reply) => {
      await cloudStorage.check();
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/qiNiuContent',
    {
      config: { access: { permissions: ['storage:add'] }, audit: '上传云文件' },
      schema: { consumes: ['multipart/form-data'], body: fileUploadBody, response: { 201: cloudFileSchema } },
    },
    async (request, reply) => {
      const by = principalOf(request).username;
      return reply.code(201).send(await withUpload(request, CLOUD_UPLOAD, (upload) => cloudStorage.upload(upload, by)));
    },
  );

  app.post(
    '/api/qiNiuContent/synchronize',
    { config: { access: { permissions: ['storage:add'] }, audit: '同步云文件' }, schema: { response: { 200: cloudSyncSchema } } },
    async (request) => cloudStorage.synchronize(principalOf(request).username),
  );

  app.get(
    '/api/qiNiuContent/download/:id',
    {
      config: { access: { permissions: ['storage:list'] } },
      schema: { params: z.object({ id: idTextSchema }), response: { 200: cloudLinkSchema } },
    },
    async (request) => cloudStorage.link(request.params.id),
  );

  app.delete(
    '/api/qiNiuContent',
    { config: { access: { permissions: ['storage:del'] }, audit: '删除云文件' }, schema: { body: cloudFileIdsSchema } },
    async (request, reply) => {
      await cloudStorage.delete(request.body);
      return reply.code(200).send();
    },
  );
};
