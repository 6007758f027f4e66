import { idTextSchema, pageOf } from '@cloud-classroom/shared/http';
import { mediaIdsSchema, mediaQuerySchema, mediaSchema, type Media, type MediaKind } from '@cloud-classroom/shared/media';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendStoredFile } from '../../files/send-stored-file.js';
import { acceptUploads, withUpload } from '../../files/upload-reader.js';
import { sendNotFound } from '../../http/error-handler.js';
import { principalOf } from '../../http/route-access.js';
import { sendXlsx, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';

// For the API docs only (a file picker in Swagger UI): the upload is read as a stream by withUpload,
// so the body itself must pass validation untouched.
const mediaUploadBody = z.unknown().meta({
  type: 'object',
  properties: { file: { type: 'string', format: 'binary' } },
  required: ['file'],
});

const mediaIdParams = z.object({ id: idTextSchema });

// A learner's course material: no shared cache may keep it. An id's bytes never change, so the
// browser may keep its copy a while; an hour bounds how long it outlives lost access.
const MEDIA_CACHE_CONTROL = 'private, max-age=3600';

const KIND_LABELS: Record<MediaKind, string> = { video: '视频', document: '文档', image: '图片' };
const MEBIBYTE = 1024 * 1024;
const exportColumns: XlsxColumn<Media>[] = [
  { header: '文件名', value: (file) => file.name, width: 36 },
  { header: '类型', value: (file) => KIND_LABELS[file.kind], width: 8 },
  { header: '格式', value: (file) => file.mime, width: 18 },
  { header: '大小 (MB)', value: (file) => Math.round((file.size / MEBIBYTE) * 100) / 100, width: 12 },
  { header: '时长 (秒)', value: (file) => (file.durationSeconds === undefined ? null : Math.round(file.durationSeconds)), width: 12 },
  { header: '页数', value: (file) => file.pages ?? null, width: 8 },
  { header: '上传者', value: (file) => file.createBy },
  { header: '上传时间', value: (file) => file.createTime, width: 20 },
];

export const mediaRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { media } = services;
  acceptUploads(app);

  app.get(
    '/api/media',
    {
      config: { access: { permissions: ['course:list'] } },
      schema: { querystring: mediaQuerySchema, response: { 200: pageOf(mediaSchema) } },
    },
    async (request) => media.page(request.query),
  );

  app.get(
    '/api/media/download',
    { config: { access: { permissions: ['course:list'] }, audit: '导出媒体库' }, schema: { querystring: mediaQuerySchema } },
    async (request, reply) => sendXlsx(reply, '媒体库', exportColumns, await media.exportRows(request.query)),
  );

  app.post(
    '/api/media',
    {
      config: { access: { permissions: ['course:add', 'course:edit'] }, audit: '上传媒体' },
      schema: { consumes: ['multipart/form-data'], body: mediaUploadBody, response: { 201: mediaSchema } },
    },
    async (request, reply) => {
      const by = principalOf(request).username;
      const upload = { field: 'file', maxBytes: services.config.mediaMaxBytes };
      return reply.code(201).send(await withUpload(request, upload, (file) => media.upload(file, by)));
    },
  );

  app.delete(
    '/api/media',
    { config: { access: { permissions: ['course:del'] }, audit: '删除媒体' }, schema: { body: mediaIdsSchema } },
    async (request, reply) => {
      await media.delete(request.body);
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/media/:id/content',
    // <video> and <img> load it with the token cookie, as they send no Authorization header.
    { config: { access: { authenticated: true }, sessionCookie: true }, schema: { params: mediaIdParams } },
    async (request, reply) => {
      const file = await media.contentFor(principalOf(request), request.params.id);
      const headers = { 'content-type': file.mime, 'cache-control': MEDIA_CACHE_CONTROL, 'x-content-type-options': 'nosniff' };
      return (await sendStoredFile(request, reply, services.files, file.key, headers)) ? reply : sendNotFound(request, reply);
    },
  );
};
