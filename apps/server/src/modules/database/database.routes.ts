import { pageOf } from '@cloud-classroom/shared/http';
import {
  BACKUP_UPLOAD_MAX_BYTES,
  backupNameSchema,
  backupNamesSchema,
  backupQuerySchema,
  backupScheduleSchema,
  backupSchema,
  databaseStatusSchema,
} from '@cloud-classroom/shared/database';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendStoredFile } from '../../files/send-stored-file.js';
import { acceptUploads, withUpload, type UploadOptions } from '../../files/upload-reader.js';
import { sendNotFound } from '../../http/error-handler.js';
import { principalOf } from '../../http/route-access.js';
import type { Services } from '../../services.js';

const BACKUP_UPLOAD: UploadOptions = { field: 'file', maxBytes: BACKUP_UPLOAD_MAX_BYTES };

// For the API docs only (a file picker in Swagger UI): withUpload reads the body as a stream.
const fileUploadBody = z.unknown().meta({
  type: 'object',
  properties: { file: { type: 'string', format: 'binary' } },
  required: ['file'],
});

/**
 * Database backups (issue 16). Restoring one is the offline `npm run restore`: no route here
 * writes the live database from a file.
 */
export const databaseRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { backups } = services;
  acceptUploads(app);

  app.get(
    '/api/database/status',
    { config: { access: { permissions: ['database:list'] } }, schema: { response: { 200: databaseStatusSchema } } },
    async () => backups.status(),
  );

  app.get(
    '/api/database',
    { config: { access: { permissions: ['database:list'] } }, schema: { querystring: backupQuerySchema, response: { 200: pageOf(backupSchema) } } },
    async (request) => backups.page(request.query),
  );

  app.post(
    '/api/database',
    { config: { access: { permissions: ['database:add'] }, audit: '备份数据库' }, schema: { response: { 201: backupSchema } } },
    async (request, reply) => reply.code(201).send(await backups.backUp('manual', principalOf(request).username)),
  );

  app.post(
    '/api/database/upload',
    {
      config: { access: { permissions: ['database:add'] }, audit: '上传数据库备份' },
      schema: { consumes: ['multipart/form-data'], body: fileUploadBody, response: { 201: backupSchema } },
    },
    async (request, reply) => {
      const by = principalOf(request).username;
      return reply.code(201).send(await withUpload(request, BACKUP_UPLOAD, (upload) => backups.upload(upload, by)));
    },
  );

  // A plain link may fetch it (the browser saves a large file as it comes, no copy in memory).
  app.get(
    '/api/database/files/:name',
    {
      config: { access: { permissions: ['database:list'] }, sessionCookie: true, audit: '下载数据库备份' },
      schema: { params: z.object({ name: backupNameSchema }) },
    },
    async (request, reply) => {
      const backup = await backups.backup(request.params.name);
      const headers = {
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename="${backup.name}"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      };
      return (await sendStoredFile(request, reply, backups.files, backup.name, headers)) ? reply : sendNotFound(request, reply);
    },
  );

  app.put(
    '/api/database/schedule',
    { config: { access: { permissions: ['database:edit'] }, audit: '修改备份计划' }, schema: { body: backupScheduleSchema } },
    async (request, reply) => {
      await backups.setSchedule(request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/database',
    { config: { access: { permissions: ['database:del'] }, audit: '删除数据库备份' }, schema: { body: backupNamesSchema } },
    async (request, reply) => {
      await backups.delete(request.body);
      return reply.code(200).send();
    },
  );
};
