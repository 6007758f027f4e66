import {
  DEPLOY_NOTES_MAX_LENGTH,
  DEPLOY_PLATFORMS,
  deployIdsSchema,
  deployPackageSchema,
  deployQuerySchema,
  deployUpdateSchema,
  publicPackagesSchema,
  type DeployPackage,
} from '@cloud-classroom/shared/deploy';
import { idTextSchema, pageOf } from '@cloud-classroom/shared/http';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ByteRange } from '../../files/file-store.js';
import { sendStoredFile } from '../../files/send-stored-file.js';
import { acceptUploads, withUpload } from '../../files/upload-reader.js';
import { contentDisposition } from '../../http/content-disposition.js';
import { sendNotFound } from '../../http/error-handler.js';
import { principalOf } from '../../http/route-access.js';
import { sendXlsx, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';

// For the API docs only (a form in Swagger UI): the upload is read as a stream by withUpload, so
// the body itself must pass validation untouched. The text fields go before the file.
const uploadBody = z.unknown().meta({
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 100 },
    version: { type: 'string', maxLength: 50 },
    platform: { type: 'string', enum: [...DEPLOY_PLATFORMS] },
    releaseNotes: { type: 'string', maxLength: DEPLOY_NOTES_MAX_LENGTH },
    file: { type: 'string', format: 'binary' },
  },
  required: ['name', 'version', 'platform', 'file'],
});

const idParams = z.object({ id: idTextSchema });

const PLATFORM_LABELS: Record<DeployPackage['platform'], string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  android: 'Android',
  ios: 'iOS',
  any: '通用',
};
const exportColumns: XlsxColumn<DeployPackage>[] = [
  { header: '名称', value: (row) => row.name, width: 30 },
  { header: '版本', value: (row) => row.version, width: 14 },
  { header: '平台', value: (row) => PLATFORM_LABELS[row.platform], width: 10 },
  { header: '文件名', value: (row) => row.fileName, width: 36 },
  { header: '大小 (字节)', value: (row) => row.size, width: 14 },
  { header: 'SHA-256', value: (row) => row.sha256, width: 66 },
  { header: '下载次数', value: (row) => row.downloads, width: 10 },
  { header: '更新说明', value: (row) => row.releaseNotes, width: 40 },
  { header: '发布者', value: (row) => row.createBy },
  { header: '发布时间', value: (row) => row.createTime, width: 20 },
];

// Anyone may download, and a version's bytes never change; but each download should reach the
// server to be counted, so caches must ask first (a 304 is not counted).
const DOWNLOAD_HEADERS = { 'content-type': 'application/octet-stream', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' };

/**
 * Whether an answer with bytes starts a download, which counts: the whole file, or a range from its
 * first byte (a download manager's first segment). A resumed download (a range further on) does
 * not, nor a HEAD; a 304 or a 416 carries no bytes.
 */
const startsDownload = (request: FastifyRequest, range: ByteRange | undefined) => request.method === 'GET' && (range === undefined || range.start === 0);

/** Installation media: staff publish versions of packages (`api/deploy`), anyone downloads them (`api/public/downloads`). */
export const deployRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { deploy } = services;
  acceptUploads(app);

  app.get(
    '/api/deploy',
    { config: { access: { permissions: ['deploy:list'] } }, schema: { querystring: deployQuerySchema, response: { 200: pageOf(deployPackageSchema) } } },
    async (request) => deploy.page(request.query),
  );

  app.get(
    '/api/deploy/download',
    { config: { access: { permissions: ['deploy:list'] }, audit: '导出安装包' }, schema: { querystring: deployQuerySchema } },
    async (request, reply) => sendXlsx(reply, '安装包', exportColumns, await deploy.exportRows(request.query)),
  );

  app.post(
    '/api/deploy/upload',
    {
      config: { access: { permissions: ['deploy:add'] }, audit: '上传安装包' },
      schema: { consumes: ['multipart/form-data'], body: uploadBody, response: { 201: deployPackageSchema } },
    },
    async (request, reply) => {
      const by = principalOf(request).username;
      const upload = { field: 'file', maxBytes: services.config.deployMaxBytes };
      return reply.code(201).send(await withUpload(request, upload, (file) => deploy.upload(file, by)));
    },
  );

  app.put(
    '/api/deploy',
    { config: { access: { permissions: ['deploy:edit'] }, audit: '修改安装包' }, schema: { body: deployUpdateSchema } },
    async (request, reply) => {
      await deploy.update(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/deploy',
    { config: { access: { permissions: ['deploy:del'] }, audit: '删除安装包' }, schema: { body: deployIdsSchema } },
    async (request, reply) => {
      await deploy.delete(request.body);
      return reply.code(200).send();
    },
  );

  // ---- The public download page (SPEC §2 `/download`, no login) --------------------------------

  app.get(
    '/api/public/downloads',
    { config: { access: { public: true } }, schema: { response: { 200: publicPackagesSchema } } },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(await deploy.published()),
  );

  app.get(
    '/api/public/downloads/:id/file',
    { config: { access: { public: true } }, schema: { params: idParams } },
    async (request, reply) => {
      const { id } = request.params;
      const file = await deploy.fileFor(id);
      const headers = { ...DOWNLOAD_HEADERS, 'content-disposition': contentDisposition('attachment', file.fileName) };
      // Counted before the bytes go, so the count is there once the download is; a failed count does not stop it.
      const count = async (range: ByteRange | undefined) => {
        if (startsDownload(request, range)) await deploy.countDownload(id).catch((error: unknown) => request.log.warn({ err: error }, 'could not count a download'));
      };
      return (await sendStoredFile(request, reply, services.files, file.key, headers, count)) ? reply : sendNotFound(request, reply);
    },
  );
};
