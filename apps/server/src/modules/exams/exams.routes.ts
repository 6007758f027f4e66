import { createdSchema, idParamsSchema, idsSchema } from '@cloud-classroom/shared/courses';
import {
  drawCheckResultSchema,
  drawCheckSchema,
  examAssignedSchema,
  examAssigneeOverrideSchema,
  examAssigneeQuerySchema,
  examAssigneeSchema,
  examAssignSchema,
  examCreateSchema,
  examPreviewSchema,
  examQuerySchema,
  examRuleSchema,
  examSchema,
  examUpdateSchema,
  siteExamQuerySchema,
  siteExamSchema,
} from '@cloud-classroom/shared/exams';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../http/route-access.js';
import type { Services } from '../../services.js';

/** Exam design (the paper, its draw check and preview), assignment, and the learner's list of their exams. */
export const examRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { exams } = services;

  // ---- Exams ------------------------------------------------------------------------------------

  app.get(
    '/api/exams',
    { config: { access: { permissions: ['exam:list'] } }, schema: { querystring: examQuerySchema, response: { 200: pageOf(examSchema) } } },
    async (request) => exams.list(request.query),
  );

  app.get(
    '/api/exams/:id',
    { config: { access: { permissions: ['exam:list'] } }, schema: { params: idParamsSchema, response: { 200: examSchema } } },
    async (request) => exams.one(request.params.id),
  );

  app.post(
    '/api/exams',
    { config: { access: { permissions: ['exam:add'] }, audit: '新增考试' }, schema: { body: examCreateSchema, response: { 201: createdSchema } } },
    async (request, reply) => reply.code(201).send({ id: await exams.create(request.body, principalOf(request).username) }),
  );

  app.put(
    '/api/exams',
    { config: { access: { permissions: ['exam:edit'] }, audit: '修改考试' }, schema: { body: examUpdateSchema } },
    async (request, reply) => {
      await exams.update(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/exams',
    { config: { access: { permissions: ['exam:del'] }, audit: '删除考试' }, schema: { body: idsSchema } },
    async (request, reply) => {
      await exams.delete(request.body);
      return reply.code(200).send();
    },
  );

  // A read that travels as a POST (the paper is too big for a query string): not audited.
  app.post(
    '/api/exams/draw-check',
    {
      config: { access: { permissions: ['exam:add', 'exam:edit'] }, audit: false },
      schema: { body: drawCheckSchema, response: { 200: drawCheckResultSchema } },
    },
    async (request) => exams.drawCheck(request.body.paper),
  );

  app.get(
    '/api/exams/:id/preview',
    { config: { access: { permissions: ['exam:list'] } }, schema: { params: idParamsSchema, response: { 200: examPreviewSchema } } },
    async (request) => exams.preview(request.params.id),
  );

  // ---- Assignees --------------------------------------------------------------------------------

  app.get(
    '/api/exams/:id/assignees',
    {
      config: { access: { permissions: ['exam:list'] } },
      schema: { params: idParamsSchema, querystring: examAssigneeQuerySchema, response: { 200: pageOf(examAssigneeSchema) } },
    },
    async (request) => exams.listAssignees(principalOf(request), request.params.id, request.query),
  );

  app.post(
    '/api/exams/:id/assignees',
    {
      config: { access: { permissions: ['exam:add', 'exam:edit'] }, audit: '分配考试' },
      schema: { params: idParamsSchema, body: examAssignSchema, response: { 201: examAssignedSchema } },
    },
    async (request, reply) => reply.code(201).send(await exams.assign(principalOf(request), request.params.id, request.body)),
  );

  app.put(
    '/api/exams/:id/assignees',
    { config: { access: { permissions: ['exam:add', 'exam:edit'] }, audit: '调整考生时间与次数' }, schema: { params: idParamsSchema, body: examAssigneeOverrideSchema } },
    async (request, reply) => {
      await exams.override(principalOf(request), request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/exams/:id/assignees',
    { config: { access: { permissions: ['exam:add', 'exam:edit'] }, audit: '移除考生' }, schema: { params: idParamsSchema, body: idsSchema } },
    async (request, reply) => {
      await exams.unassign(principalOf(request), request.params.id, request.body);
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/exams/:id/assignees/rules',
    { config: { access: { permissions: ['exam:list'] } }, schema: { params: idParamsSchema, response: { 200: z.array(examRuleSchema) } } },
    async (request) => exams.listRules(request.params.id),
  );

  app.delete(
    '/api/exams/:id/assignees/rules',
    { config: { access: { permissions: ['exam:add', 'exam:edit'] }, audit: '删除考试分配规则' }, schema: { params: idParamsSchema, body: idsSchema } },
    async (request, reply) => {
      await exams.deleteRules(request.params.id, request.body);
      return reply.code(200).send();
    },
  );

  // ---- The learner's exams ----------------------------------------------------------------------

  // Always the session's own exams: no user id is taken from the request.
  app.get(
    '/api/site/exams',
    { config: { access: { authenticated: true } }, schema: { querystring: siteExamQuerySchema, response: { 200: z.array(siteExamSchema) } } },
    async (request) => exams.siteExams(principalOf(request).userId, request.query.courseId),
  );
};
