import { markAnswerSchema, markingAttemptSchema, markingQueueQuerySchema, markingQueueSchema, regradeResultSchema } from '@cloud-classroom/shared/attempts';
import { idParamsSchema } from '@cloud-classroom/shared/courses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../http/route-access.js';
import type { Services } from '../../services.js';

const answerIdParamsSchema = z.object({ answerId: idParamsSchema.shape.id });
const revealQuerySchema = markingQueueQuerySchema.pick({ reveal: true });

/** Marking (`/edu/correct-exam`): the queue, one attempt for the marker, a mark or override, and the exam's regrade. */
export const markingRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { marking } = services;

  app.get(
    '/api/marking/exams/:id/queue',
    {
      config: { access: { permissions: ['mark:list'] } },
      schema: { params: idParamsSchema, querystring: markingQueueQuerySchema, response: { 200: markingQueueSchema } },
    },
    async (request) => marking.queue(principalOf(request), request.params.id, request.query),
  );

  app.get(
    '/api/marking/attempts/:id',
    { config: { access: { permissions: ['mark:list'] } }, schema: { params: idParamsSchema, querystring: revealQuerySchema, response: { 200: markingAttemptSchema } } },
    async (request) => marking.attempt(principalOf(request), request.params.id, request.query.reveal),
  );

  app.put(
    '/api/marking/answers/:answerId',
    { config: { access: { permissions: ['mark:edit'] }, audit: '阅卷评分' }, schema: { params: answerIdParamsSchema, body: markAnswerSchema } },
    async (request, reply) => {
      await marking.mark(principalOf(request), request.params.answerId, request.body);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/exams/:id/regrade',
    { config: { access: { permissions: ['exam:edit'] }, audit: '重新评分' }, schema: { params: idParamsSchema, response: { 200: regradeResultSchema } } },
    async (request) => marking.regradeExam(request.params.id, principalOf(request).username),
  );
};
