import { importResultSchema } from '@cloud-classroom/shared/applicants';
import { createdSchema, idParamsSchema, idsSchema } from '@cloud-classroom/shared/courses';
import { pageOf } from '@cloud-classroom/shared/http';
import {
  questionCreateSchema,
  questionImageSchema,
  questionImportQuerySchema,
  questionQuerySchema,
  questionSchema,
  questionTagQuerySchema,
  questionTagSchema,
  questionTemplateQuerySchema,
  questionUpdateSchema,
} from '@cloud-classroom/shared/questions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendStoredFile } from '../../files/send-stored-file.js';
import { acceptUploads, withUpload, type UploadOptions } from '../../files/upload-reader.js';
import { sendNotFound } from '../../http/error-handler.js';
import { principalOf } from '../../http/route-access.js';
import { sendXlsxFile } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';
import { IMAGE_MAX_BYTES, IMAGE_TYPES } from './questions.service.js';

// For the API docs only (a file picker in Swagger UI): the upload is read as a stream by withUpload.
const fileUploadBody = z.unknown().meta({
  type: 'object',
  properties: { file: { type: 'string', format: 'binary' } },
  required: ['file'],
});

const IMAGE_UPLOAD: UploadOptions = {
  field: 'file',
  maxBytes: IMAGE_MAX_BYTES,
  accepts: { types: IMAGE_TYPES, refusal: 'expected a PNG, JPEG, GIF or WebP image' },
};

const SHEET_UPLOAD: UploadOptions = {
  field: 'file',
  maxBytes: 10 * 1024 * 1024,
  // An .xlsx is a zip archive.
  accepts: { types: ['zip'], refusal: 'expected an .xlsx spreadsheet' },
};

// An image's bytes never change under its id; an hour bounds how long a copy outlives lost access.
const IMAGE_CACHE_CONTROL = 'private, max-age=3600';

/** The question bank: questions, their knowledge points and images, and its workbook. */
export const questionRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { questions } = services;
  acceptUploads(app);

  app.get(
    '/api/questions',
    { config: { access: { permissions: ['question:list'] } }, schema: { querystring: questionQuerySchema, response: { 200: pageOf(questionSchema) } } },
    async (request) => questions.list(request.query),
  );

  app.get(
    '/api/questions/tags',
    { config: { access: { permissions: ['question:list'] } }, schema: { querystring: questionTagQuerySchema, response: { 200: z.array(questionTagSchema) } } },
    async (request) => questions.tags(request.query.q),
  );

  app.get(
    '/api/questions/download',
    { config: { access: { permissions: ['question:list'] }, audit: '导出试题' }, schema: { querystring: questionQuerySchema } },
    async (request, reply) => sendXlsxFile(reply, '试题', await questions.exportWorkbook(request.query)),
  );

  app.get(
    '/api/questions/template',
    { config: { access: { permissions: ['question:add'] } }, schema: { querystring: questionTemplateQuerySchema } },
    async (request, reply) => sendXlsxFile(reply, '试题导入模板', await questions.template(request.query.type)),
  );

  app.post(
    '/api/questions/import',
    {
      config: { access: { permissions: ['question:add'] }, audit: '导入试题' },
      schema: { consumes: ['multipart/form-data'], querystring: questionImportQuerySchema, body: fileUploadBody, response: { 200: importResultSchema } },
    },
    async (request) => {
      const by = principalOf(request).username;
      return withUpload(request, SHEET_UPLOAD, (upload) => questions.import(request.query.dryRun, upload, by));
    },
  );

  // After the download, template and tags, so that they are not read as ids.
  app.get(
    '/api/questions/:id',
    { config: { access: { permissions: ['question:list'] } }, schema: { params: idParamsSchema, response: { 200: questionSchema } } },
    async (request) => questions.one(request.params.id),
  );

  app.post(
    '/api/questions',
    { config: { access: { permissions: ['question:add'] }, audit: '新增试题' }, schema: { body: questionCreateSchema, response: { 201: createdSchema } } },
    async (request, reply) => reply.code(201).send({ id: await questions.create(request.body, principalOf(request).username) }),
  );

  app.put(
    '/api/questions',
    { config: { access: { permissions: ['question:edit'] }, audit: '修改试题' }, schema: { body: questionUpdateSchema } },
    async (request, reply) => {
      await questions.update(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/questions',
    { config: { access: { permissions: ['question:del'] }, audit: '删除试题' }, schema: { body: idsSchema } },
    async (request, reply) => {
      await questions.delete(request.body);
      return reply.code(200).send();
    },
  );

  // ---- Images -----------------------------------------------------------------------------------

  app.post(
    '/api/questions/images',
    {
      config: { access: { permissions: ['question:add', 'question:edit'] }, audit: '上传试题图片' },
      schema: { consumes: ['multipart/form-data'], body: fileUploadBody, response: { 201: questionImageSchema } },
    },
    async (request, reply) => {
      const by = principalOf(request).username;
      return reply.code(201).send(await withUpload(request, IMAGE_UPLOAD, (upload) => questions.uploadImage(upload, by)));
    },
  );

  app.get(
    '/api/questions/images/:id',
    // An <img> in a stem loads it with the token cookie, as it sends no Authorization header.
    // Staff of the bank and candidates whose paper shows it: the service decides.
    { config: { access: { authenticated: true }, sessionCookie: true }, schema: { params: idParamsSchema } },
    async (request, reply) => {
      const image = await questions.image(request.params.id, principalOf(request));
      const headers = { 'content-type': image.mime, 'cache-control': IMAGE_CACHE_CONTROL, 'x-content-type-options': 'nosniff' };
      return (await sendStoredFile(request, reply, services.files, image.key, headers)) ? reply : sendNotFound(request, reply);
    },
  );
};
