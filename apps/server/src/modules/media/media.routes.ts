import { pageOf } from '@cloud-classroom/shared/http';
import { mediaIdsSchema, mediaQuerySchema, mediaSchema } from '@cloud-classroom/shared/media';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendStoredFile } from '../../files/send-stored-file.js';
import { acceptUploads, withUpload } from '../../files/upload-reader.js';
import { sendNotFound } from '../../http/error-handler.js';
import { principalOf } from '../../http/route-access.js';
import type { Services } from '../../services.js';

// For the API docs only (a file picker in Swagger UI): the upload is read as a stream by withUpload,
// so the body itself must pass validation untouched.
const mediaUploadBody = z.unknown().meta({
  type: 'object',
  properties: { file: { type: 'string', format: 'binary' } },
  required: ['file'],
});

const mediaIdParams = z.object({ id: z.coerce.number().int().positive() });

// A learner's course material: no shared cache may keep it. An id's bytes never change, so the
// browser may keep its copy a while; an hour bounds how long it outlives lost access.
const MEDIA_CACHE_CONTROL = 'private, max-age=3600';

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
