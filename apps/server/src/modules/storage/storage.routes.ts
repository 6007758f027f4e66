import { pageOf } from '@cloud-classroom/shared/http';
import {
  localStorageIdsSchema,
  localStorageQuerySchema,
  localStorageRenameSchema,
  localStorageSchema,
  localStorageUploadQuerySchema,
  PICTURE_EXTENSIONS,
  PICTURE_MAX_BYTES,
  STORABLE_EXTENSIONS,
  STORAGE_MAX_BYTES,
  type LocalStorage,
} from '@cloud-classroom/shared/storage';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendStoredFile } from '../../files/send-stored-file.js';
import { acceptUploads, withUpload, type UploadOptions } from '../../files/upload-reader.js';
import { sendNotFound } from '../../http/error-handler.js';
import { principalOf } from '../../http/route-access.js';
import { sendXlsx, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';
import { contentDisposition } from '../../http/content-disposition.js';

const FILE_UPLOAD: UploadOptions = { field: 'file', maxBytes: STORAGE_MAX_BYTES };
const PICTURE_UPLOAD: UploadOptions = { field: 'file', maxBytes: PICTURE_MAX_BYTES };

// Names are random and never reused, so a browser may keep a file; 'private' keeps shared caches
// from serving it on after it is deleted.
const FILE_CACHE_CONTROL = 'private, max-age=86400';

const exportColumns: XlsxColumn<LocalStorage>[] = [
  { header: '文件名', value: (row) => row.realName, width: 40 },
  { header: '备注名', value: (row) => row.name, width: 30 },
  { header: '文件类型', value: (row) => row.type, width: 10 },
  { header: '文件大小', value: (row) => row.size, width: 12 },
  { header: '创建者', value: (row) => row.createBy },
  { header: '创建日期', value: (row) => row.createTime, width: 20 },
];

// For the API docs only (a file picker in Swagger UI): the upload is read as a stream by withUpload,
// so the body itself must pass validation untouched.
const fileUploadBody = z.unknown().meta({
  type: 'object',
  properties: { file: { type: 'string', format: 'binary' } },
  required: ['file'],
});

const inlineDisposition = (name: string) => contentDisposition('inline', name);

export const storageRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { storage } = services;
  acceptUploads(app);

  app.get(
    '/api/localStorage',
    {
      config: { access: { permissions: ['storage:list'] } },
      schema: { querystring: localStorageQuerySchema, response: { 200: pageOf(localStorageSchema) } },
    },
    async (request) => storage.page(request.query),
  );

  app.get(
    '/api/localStorage/download',
    {
      config: { access: { permissions: ['storage:list'] }, audit: '导出文件数据' },
      schema: { querystring: localStorageQuerySchema },
    },
    async (request, reply) => sendXlsx(reply, '文件数据', exportColumns, await storage.export(request.query)),
  );

  app.post(
    '/api/localStorage',
    {
      config: { access: { permissions: ['storage:add'] }, audit: '上传文件' },
      schema: {
        consumes: ['multipart/form-data'],
        querystring: localStorageUploadQuerySchema,
        body: fileUploadBody,
        response: { 201: localStorageSchema },
      },
    },
    async (request, reply) => {
      const by = principalOf(request).username;
      const stored = await withUpload(request, FILE_UPLOAD, (upload) => storage.store(upload, STORABLE_EXTENSIONS, by, request.query.name));
      return reply.code(201).send(stored);
    },
  );

  // Every back-office user may need it: the rich-text editors insert pictures through it.
  app.post(
    '/api/localStorage/pictures',
    {
      config: { access: { authenticated: true }, audit: '上传图片' },
      schema: { consumes: ['multipart/form-data'], body: fileUploadBody, response: { 201: localStorageSchema } },
    },
    async (request, reply) => {
      const by = principalOf(request).username;
      return reply.code(201).send(await withUpload(request, PICTURE_UPLOAD, (upload) => storage.store(upload, PICTURE_EXTENSIONS, by)));
    },
  );

  app.put(
    '/api/localStorage',
    { config: { access: { permissions: ['storage:edit'] }, audit: '修改文件' }, schema: { body: localStorageRenameSchema } },
    async (request, reply) => {
      await storage.rename(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/localStorage',
    { config: { access: { permissions: ['storage:del'] }, audit: '删除文件' }, schema: { body: localStorageIdsSchema } },
    async (request, reply) => {
      await storage.delete(request.body);
      return reply.code(200).send();
    },
  );

  // Public like eladmin's /file/**: the names are random and cannot be guessed, and pages embed them.
  app.get(
    '/file/:month/:name',
    { schema: { params: z.object({ month: z.string(), name: z.string() }) } },
    async (request, reply) => {
      const file = await storage.fileAt(request.params.month, request.params.name);
      if (file === undefined) return sendNotFound(request, reply);
      const headers = {
        'content-type': file.mime,
        'cache-control': FILE_CACHE_CONTROL,
        'x-content-type-options': 'nosniff',
        ...(file.downloadName === undefined ? {} : { 'content-disposition': inlineDisposition(file.downloadName) }),
      };
      return (await sendStoredFile(request, reply, services.files, file.key, headers)) ? reply : sendNotFound(request, reply);
    },
  );
};
