import {
  APPLICANT_IMPORT_COLUMNS,
  applicantCreateSchema,
  applicantIdsSchema,
  applicantImportQuerySchema,
  applicantQuerySchema,
  applicantRejectSchema,
  applicantSchema,
  applicantsCreatedSchema,
  applicantUpdateSchema,
  assignmentRuleCreateSchema,
  assignmentRuleQuerySchema,
  assignmentRuleSchema,
  assignmentRuleUpdateSchema,
  importResultSchema,
  type Applicant,
  type ApplicantSource,
  type ApplicantStatus,
} from '@cloud-classroom/shared/applicants';
import { createdSchema, idParamsSchema, idsSchema } from '@cloud-classroom/shared/courses';
import { pageOf } from '@cloud-classroom/shared/http';
import { appliedSchema, applySchema } from '@cloud-classroom/shared/progress';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptUploads, withUpload, type UploadOptions } from '../../files/upload-reader.js';
import { principalOf } from '../../http/route-access.js';
import { sendXlsx, sendXlsxTemplate, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';

const STATUS_LABELS: Record<ApplicantStatus, string> = {
  applied: '待审核',
  approved: '已通过',
  rejected: '已驳回',
  in_progress: '学习中',
  completed: '已完成',
};
const SOURCE_LABELS: Record<ApplicantSource, string> = { self: '自主报名', rule: '分配规则', import: '导入', staff: '管理员添加' };

const applicantColumns: XlsxColumn<Applicant>[] = [
  { header: '用户名', value: (row) => row.username },
  { header: '姓名', value: (row) => row.nickName },
  { header: '部门', value: (row) => row.deptName },
  { header: '课程', value: (row) => row.courseTitle, width: 28 },
  { header: '开课', value: (row) => row.termName, width: 24 },
  { header: '状态', value: (row) => STATUS_LABELS[row.status], width: 10 },
  { header: '来源', value: (row) => SOURCE_LABELS[row.source], width: 12 },
  { header: '截止时间', value: (row) => row.dueAt, width: 20 },
  { header: '逾期', value: (row) => (row.overdue ? '是' : '否'), width: 8 },
  { header: '进度(%)', value: (row) => row.percent, width: 10 },
  { header: '完成时间', value: (row) => row.completedAt, width: 20 },
  { header: '驳回原因', value: (row) => row.reason, width: 30 },
  { header: '报名时间', value: (row) => row.createTime, width: 20 },
];

/** The import template: the columns people fill in, with one example row, marked as one (never imported). */
const templateColumns: XlsxColumn<Record<(typeof APPLICANT_IMPORT_COLUMNS)[number], string>>[] = APPLICANT_IMPORT_COLUMNS.map((column) => ({
  header: column,
  value: (row) => row[column],
  width: 24,
}));
const TEMPLATE_EXAMPLE = { username: 'zhangsan', dueAt: '2026-12-31 18:00:00' };

// For the API docs only (a file picker in Swagger UI): the upload is read as a stream by withUpload.
const sheetUploadBody = z.unknown().meta({
  type: 'object',
  properties: { file: { type: 'string', format: 'binary' } },
  required: ['file'],
});

const SHEET_UPLOAD: UploadOptions = {
  field: 'file',
  maxBytes: 5 * 1024 * 1024,
  // An .xlsx is a zip archive.
  accepts: { types: ['zip'], refusal: 'expected an .xlsx spreadsheet' },
};

/** Enrolment: the people in a term and the rules that assign them, and the learner's application. */
export const applicantRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { applicants } = services;
  acceptUploads(app);

  // ---- Applicants -------------------------------------------------------------------------------

  app.get(
    '/api/applicants',
    { config: { access: { permissions: ['applicant:list'] } }, schema: { querystring: applicantQuerySchema, response: { 200: pageOf(applicantSchema) } } },
    async (request) => applicants.list(principalOf(request), request.query),
  );

  app.get(
    '/api/applicants/download',
    { config: { access: { permissions: ['applicant:list'] }, audit: '导出学员数据' }, schema: { querystring: applicantQuerySchema } },
    async (request, reply) => sendXlsx(reply, '学员数据', applicantColumns, await applicants.exportRows(principalOf(request), request.query)),
  );

  // After the download, so that 'download' is not read as an id.
  app.get(
    '/api/applicants/:id',
    { config: { access: { permissions: ['applicant:list'] } }, schema: { params: idParamsSchema, response: { 200: applicantSchema } } },
    async (request) => applicants.one(principalOf(request), request.params.id),
  );

  app.post(
    '/api/applicants',
    { config: { access: { permissions: ['applicant:add'] }, audit: '新增学员' }, schema: { body: applicantCreateSchema, response: { 201: applicantsCreatedSchema } } },
    async (request, reply) => reply.code(201).send(await applicants.enrol(principalOf(request), request.body)),
  );

  app.put(
    '/api/applicants',
    { config: { access: { permissions: ['applicant:edit'] }, audit: '修改学员' }, schema: { body: applicantUpdateSchema } },
    async (request, reply) => {
      await applicants.update(principalOf(request), request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/applicants',
    { config: { access: { permissions: ['applicant:del'] }, audit: '删除学员' }, schema: { body: applicantIdsSchema } },
    async (request, reply) => {
      await applicants.delete(principalOf(request), request.body);
      return reply.code(200).send();
    },
  );

  app.put(
    '/api/applicants/approve',
    { config: { access: { permissions: ['applicant:edit'] }, audit: '审核通过报名' }, schema: { body: applicantIdsSchema } },
    async (request, reply) => {
      await applicants.approve(principalOf(request), request.body);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/applicants/reject',
    { config: { access: { permissions: ['applicant:edit'] }, audit: '驳回报名' }, schema: { body: applicantRejectSchema } },
    async (request, reply) => {
      await applicants.reject(principalOf(request), request.body);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/applicants/template',
    { config: { access: { permissions: ['applicant:add'] } } },
    async (_request, reply) => sendXlsxTemplate(reply, '学员导入模板', templateColumns, [TEMPLATE_EXAMPLE]),
  );

  app.post(
    '/api/applicants/import',
    {
      config: { access: { permissions: ['applicant:add'] }, audit: '导入学员' },
      schema: { consumes: ['multipart/form-data'], querystring: applicantImportQuerySchema, body: sheetUploadBody, response: { 200: importResultSchema } },
    },
    async (request) => {
      const caller = principalOf(request);
      const { termId, dryRun } = request.query;
      return withUpload(request, SHEET_UPLOAD, (upload) => applicants.import(caller, termId, dryRun, upload));
    },
  );

  // ---- Assignment rules -------------------------------------------------------------------------

  app.get(
    '/api/assignment-rules',
    {
      config: { access: { permissions: ['applicant:list'] } },
      schema: { querystring: assignmentRuleQuerySchema, response: { 200: pageOf(assignmentRuleSchema) } },
    },
    async (request) => applicants.listRules(principalOf(request), request.query),
  );

  app.post(
    '/api/assignment-rules',
    { config: { access: { permissions: ['applicant:add'] }, audit: '新增分配规则' }, schema: { body: assignmentRuleCreateSchema, response: { 201: createdSchema } } },
    async (request, reply) => reply.code(201).send({ id: await applicants.createRule(principalOf(request), request.body) }),
  );

  app.put(
    '/api/assignment-rules',
    { config: { access: { permissions: ['applicant:edit'] }, audit: '修改分配规则' }, schema: { body: assignmentRuleUpdateSchema } },
    async (request, reply) => {
      await applicants.updateRule(principalOf(request), request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/assignment-rules',
    { config: { access: { permissions: ['applicant:del'] }, audit: '删除分配规则' }, schema: { body: idsSchema } },
    async (request, reply) => {
      await applicants.deleteRules(principalOf(request), request.body);
      return reply.code(200).send();
    },
  );

  // ---- The learner applies ----------------------------------------------------------------------

  // 201 with a new (or renewed) application; 200 with the one already there, unchanged.
  app.post(
    '/api/site/courses/:id/apply',
    {
      config: { access: { authenticated: true }, audit: '报名课程' },
      schema: { params: idParamsSchema, body: applySchema, response: { 200: appliedSchema, 201: appliedSchema } },
    },
    async (request, reply) => {
      const { userId, username } = principalOf(request);
      const { applied, created } = await applicants.apply({ userId, username }, request.params.id, request.body.termId);
      return reply.code(created ? 201 : 200).send(applied);
    },
  );
};
