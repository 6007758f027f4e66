import { dayInZone } from '@cloud-classroom/shared/calendar-day';
import {
  certificateBackgroundQuerySchema,
  CERTIFICATE_IMPORT_COLUMNS,
  certificateImportQuerySchema,
  certificateIssueSchema,
  certificateQuerySchema,
  certificateReissueSchema,
  certificateRevokeSchema,
  certificateSchema,
  certificatesIssuedSchema,
  certificateVerificationSchema,
  certificateVerifyQuerySchema,
  certRuleCreateSchema,
  certRuleQuerySchema,
  certRuleSchema,
  certTemplateCreateSchema,
  certTemplatePreviewQuerySchema,
  certTemplateQuerySchema,
  certTemplateSchema,
  certTemplateUpdateSchema,
  certTemplateVersionSchema,
  myCertificateSchema,
} from '@cloud-classroom/shared/certificates';
import { importResultSchema } from '@cloud-classroom/shared/applicants';
import { createdSchema, idParamsSchema, idsSchema } from '@cloud-classroom/shared/courses';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendStoredFile } from '../../files/send-stored-file.js';
import { acceptUploads, withUpload, type UploadOptions } from '../../files/upload-reader.js';
import { sendNotFound } from '../../http/error-handler.js';
import { principalOf } from '../../http/route-access.js';
import { sendXlsxTemplate, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';
import { BACKGROUND_MAX_BYTES, BACKGROUND_TYPES } from './certificates.service.js';
import { contentDisposition } from '../../http/content-disposition.js';

// For the API docs only (a file picker in Swagger UI): the upload is read as a stream by withUpload.
const fileUploadBody = z.unknown().meta({
  type: 'object',
  properties: { file: { type: 'string', format: 'binary' } },
  required: ['file'],
});

const BACKGROUND_UPLOAD: UploadOptions = {
  field: 'file',
  maxBytes: BACKGROUND_MAX_BYTES,
  accepts: { types: BACKGROUND_TYPES, refusal: 'expected a PNG or JPEG image' },
};

const SHEET_UPLOAD: UploadOptions = {
  field: 'file',
  maxBytes: 5 * 1024 * 1024,
  // An .xlsx is a zip archive.
  accepts: { types: ['zip'], refusal: 'expected an .xlsx spreadsheet' },
};

/** The import template: the columns people fill in, with one example row, marked as one (never imported). */
type ImportRow = Record<(typeof CERTIFICATE_IMPORT_COLUMNS)[number], string>;
const importColumns: XlsxColumn<ImportRow>[] = CERTIFICATE_IMPORT_COLUMNS.map((column) => ({ header: column, value: (row) => row[column], width: 20 }));
// The demo's template name: a row copied from the example names a template a fresh install has.
const IMPORT_EXAMPLE: ImportRow = { username: 'zhangsan', template: '消防安全结业证书', number: 'FS-2019-00012', issuedOn: '2019-06-30', expiresOn: '2022-06-30', title: '消防安全培训', score: '合格' };


const inlineDisposition = (name: string) => contentDisposition('inline', name);

function sendPdf(reply: FastifyReply, pdf: Buffer, fileName: string, cacheControl: string): FastifyReply {
  return reply.header('content-type', 'application/pdf').header('content-disposition', inlineDisposition(fileName)).header('cache-control', cacheControl).send(pdf);
}

/** Certificate templates, issuing, revoking and re-issuing, the PDFs, the learner's list and the public check. */
export const certificateRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { certificates } = services;
  acceptUploads(app);

  // ---- Templates --------------------------------------------------------------------------------

  app.get(
    '/api/cert-templates',
    { config: { access: { permissions: ['cert:list'] } }, schema: { querystring: certTemplateQuerySchema, response: { 200: pageOf(certTemplateSchema) } } },
    async (request) => certificates.listTemplates(request.query),
  );

  app.get(
    '/api/cert-templates/:id',
    { config: { access: { permissions: ['cert:list'] } }, schema: { params: idParamsSchema, response: { 200: certTemplateSchema } } },
    async (request) => certificates.template(request.params.id),
  );

  app.get(
    '/api/cert-templates/:id/versions',
    { config: { access: { permissions: ['cert:list'] } }, schema: { params: idParamsSchema, response: { 200: z.array(certTemplateVersionSchema) } } },
    async (request) => certificates.versions(request.params.id),
  );

  app.post(
    '/api/cert-templates',
    { config: { access: { permissions: ['cert:add'] }, audit: '新增证书模板' }, schema: { body: certTemplateCreateSchema, response: { 201: createdSchema } } },
    async (request, reply) => reply.code(201).send({ id: await certificates.createTemplate(request.body, principalOf(request).username) }),
  );

  app.put(
    '/api/cert-templates',
    { config: { access: { permissions: ['cert:edit'] }, audit: '修改证书模板' }, schema: { body: certTemplateUpdateSchema } },
    async (request, reply) => {
      await certificates.updateTemplate(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/cert-templates',
    { config: { access: { permissions: ['cert:del'] }, audit: '删除证书模板' }, schema: { body: idsSchema } },
    async (request, reply) => {
      await certificates.deleteTemplates(request.body);
      return reply.code(200).send();
    },
  );

  app.post(
    '/api/cert-templates/backgrounds',
    {
      config: { access: { permissions: ['cert:add', 'cert:edit'] }, audit: '上传证书背景' },
      schema: { consumes: ['multipart/form-data'], body: fileUploadBody, response: { 201: z.object({ key: z.string() }) } },
    },
    async (request, reply) => reply.code(201).send(await withUpload(request, BACKGROUND_UPLOAD, (upload) => certificates.uploadBackground(upload))),
  );

  // The editor shows a saved background on its page: an <img> or CSS url() sends no header, hence the
  // session cookie. A key is random and names a file under cert-backgrounds/ only (the schema).
  app.get(
    '/api/cert-templates/backgrounds',
    { config: { access: { permissions: ['cert:list'] }, sessionCookie: true }, schema: { querystring: certificateBackgroundQuerySchema } },
    async (request, reply) => {
      const { key } = request.query;
      const headers = { 'content-type': key.endsWith('.png') ? 'image/png' : 'image/jpeg', 'cache-control': 'private, max-age=86400, immutable', 'x-content-type-options': 'nosniff' };
      return (await sendStoredFile(request, reply, services.files, key, headers)) ? reply : sendNotFound(request, reply);
    },
  );

  app.get(
    '/api/cert-templates/:id/preview',
    { config: { access: { permissions: ['cert:list'] }, sessionCookie: true }, schema: { params: idParamsSchema, querystring: certTemplatePreviewQuerySchema } },
    async (request, reply) => {
      const pdf = await certificates.previewTemplate(request.params.id, request.query.version);
      return sendPdf(reply, pdf, `preview-${request.params.id}.pdf`, 'no-store');
    },
  );

  // ---- Certificates -----------------------------------------------------------------------------

  app.get(
    '/api/certificates',
    { config: { access: { permissions: ['cert:list'] } }, schema: { querystring: certificateQuerySchema, response: { 200: pageOf(certificateSchema) } } },
    async (request) => certificates.list(principalOf(request), request.query),
  );

  app.get(
    '/api/certificates/:id',
    { config: { access: { permissions: ['cert:list'] } }, schema: { params: idParamsSchema, response: { 200: certificateSchema } } },
    async (request) => certificates.one(principalOf(request), request.params.id),
  );

  app.post(
    '/api/certificates/issue',
    { config: { access: { permissions: ['cert:issue'] }, audit: '颁发证书' }, schema: { body: certificateIssueSchema, response: { 201: certificatesIssuedSchema } } },
    async (request, reply) => reply.code(201).send(await certificates.issue(principalOf(request), request.body)),
  );

  // A download link sends no header, hence the session cookie.
  app.get(
    '/api/certificates/download',
    { config: { access: { permissions: ['cert:list'] }, sessionCookie: true, audit: '下载证书' }, schema: { querystring: certificateQuerySchema } },
    async (request, reply) => {
      const { zip } = await certificates.download(principalOf(request), request.query);
      const day = dayInZone(services.clock.now(), services.config.timeZone).replaceAll('-', '');
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDisposition('attachment', `certificates-${day}.zip`))
        .header('cache-control', 'no-store')
        .send(zip);
    },
  );

  app.get(
    '/api/certificates/template',
    { config: { access: { permissions: ['cert:issue'] } } },
    async (_request, reply) => sendXlsxTemplate(reply, '证书导入模板', importColumns, [IMPORT_EXAMPLE]),
  );

  app.post(
    '/api/certificates/import',
    {
      config: { access: { permissions: ['cert:issue'] }, audit: '导入证书' },
      schema: { consumes: ['multipart/form-data'], querystring: certificateImportQuerySchema, body: fileUploadBody, response: { 200: importResultSchema } },
    },
    async (request) => withUpload(request, SHEET_UPLOAD, (upload) => certificates.import(principalOf(request), request.query.dryRun, upload)),
  );

  app.put(
    '/api/certificates/revoke',
    { config: { access: { permissions: ['cert:revoke'] }, audit: '撤销证书' }, schema: { body: certificateRevokeSchema } },
    async (request, reply) => {
      await certificates.revoke(principalOf(request), request.body);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/certificates/:id/reissue',
    {
      config: { access: { permissions: ['cert:issue'] }, audit: '补发证书' },
      schema: { params: idParamsSchema, body: certificateReissueSchema, response: { 201: z.object({ id: z.number().int(), number: z.string() }) } },
    },
    async (request, reply) => reply.code(201).send(await certificates.reissue(principalOf(request), request.params.id, request.body)),
  );

  // The holder's own, or staff's within their scope: the service decides, anyone else gets a 404.
  // A download link sends no header, hence the session cookie.
  app.get(
    '/api/certificates/:id/pdf',
    { config: { access: { authenticated: true }, sessionCookie: true }, schema: { params: idParamsSchema } },
    async (request, reply) => {
      const { pdf, number } = await certificates.pdf(principalOf(request), request.params.id);
      return sendPdf(reply, pdf, `${number}.pdf`, 'private, no-cache');
    },
  );

  // ---- Issuing rules ----------------------------------------------------------------------------

  app.get(
    '/api/cert-rules',
    { config: { access: { permissions: ['cert:list'] } }, schema: { querystring: certRuleQuerySchema, response: { 200: pageOf(certRuleSchema) } } },
    async (request) => certificates.listRules(request.query),
  );

  // Issuing automatically is issuing: the same permission as by hand.
  app.post(
    '/api/cert-rules',
    { config: { access: { permissions: ['cert:issue'] }, audit: '新增证书颁发规则' }, schema: { body: certRuleCreateSchema, response: { 201: createdSchema } } },
    async (request, reply) => reply.code(201).send({ id: await certificates.createRule(request.body, principalOf(request).username) }),
  );

  app.delete(
    '/api/cert-rules',
    { config: { access: { permissions: ['cert:issue'] }, audit: '删除证书颁发规则' }, schema: { body: idsSchema } },
    async (request, reply) => {
      await certificates.deleteRules(request.body);
      return reply.code(200).send();
    },
  );

  // ---- The learner's ----------------------------------------------------------------------------

  // Always the session's own: no user id is taken from the request.
  app.get(
    '/api/site/my/certificates',
    { config: { access: { authenticated: true } }, schema: { response: { 200: z.array(myCertificateSchema) } } },
    async (request) => certificates.mine(principalOf(request).userId),
  );

  app.get(
    '/api/site/my/certificates/:id',
    { config: { access: { authenticated: true } }, schema: { params: idParamsSchema, response: { 200: myCertificateSchema } } },
    async (request) => certificates.myOne(principalOf(request).userId, request.params.id),
  );

  // ---- The public check -------------------------------------------------------------------------

  app.get(
    '/api/public/certificates/verify',
    { config: { access: { public: true } }, schema: { querystring: certificateVerifyQuerySchema, response: { 200: certificateVerificationSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return certificates.verify(request.query, request.ip);
    },
  );
};
