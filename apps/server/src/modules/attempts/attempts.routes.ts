import {
  answerParamsSchema,
  answerSavedSchema,
  answerSaveSchema,
  attemptEventsSchema,
  attemptResultSchema,
  attemptStartSchema,
  myAttemptSchema,
} from '@cloud-classroom/shared/attempts';
import { idParamsSchema } from '@cloud-classroom/shared/courses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { principalOf } from '../../http/route-access.js';
import type { Services } from '../../services.js';
import type { Client } from './attempts.service.js';

const clientOf = (request: FastifyRequest): Client => ({ ip: request.ip, agent: request.headers['user-agent'] ?? '' });

/**
 * Taking an exam: the learner's own attempts, always the session's person (an attempt id of
 * someone else's answers as one that does not exist). Answers are autosaved every few seconds by
 * every taker: not audited (the attempt's rows and timeline are its record), nor are events.
 */
export const attemptRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { attempts } = services;

  app.post(
    '/api/site/exams/:id/attempts',
    {
      config: { access: { authenticated: true }, audit: '开始考试' },
      schema: { params: idParamsSchema, response: { 200: attemptStartSchema, 201: attemptStartSchema } },
    },
    async (request, reply) => {
      const { resumed, attempt } = await attempts.start(principalOf(request).userId, request.params.id, clientOf(request));
      return reply.code(resumed ? 200 : 201).send(attempt);
    },
  );

  app.get(
    '/api/site/exams/:id/attempts',
    { config: { access: { authenticated: true } }, schema: { params: idParamsSchema, response: { 200: z.array(myAttemptSchema) } } },
    async (request) => attempts.mine(principalOf(request).userId, request.params.id),
  );

  app.put(
    '/api/site/attempts/:id/answers/:questionId',
    {
      config: { access: { authenticated: true }, audit: false },
      schema: { params: answerParamsSchema, body: answerSaveSchema, response: { 200: answerSavedSchema } },
    },
    async (request) => attempts.saveAnswer(principalOf(request).userId, request.params.id, request.params.questionId, request.body, clientOf(request)),
  );

  app.post(
    '/api/site/attempts/:id/submit',
    { config: { access: { authenticated: true }, audit: '提交考试' }, schema: { params: idParamsSchema, response: { 200: attemptResultSchema } } },
    async (request) => attempts.submit(principalOf(request).userId, request.params.id),
  );

  app.get(
    '/api/site/attempts/:id',
    { config: { access: { authenticated: true } }, schema: { params: idParamsSchema, response: { 200: attemptResultSchema } } },
    async (request) => attempts.result(principalOf(request).userId, request.params.id),
  );

  app.post(
    '/api/site/attempts/:id/events',
    { config: { access: { authenticated: true }, audit: false }, schema: { params: idParamsSchema, body: attemptEventsSchema } },
    async (request, reply) => {
      await attempts.recordEvents(principalOf(request).userId, request.params.id, request.body);
      return reply.code(204).send();
    },
  );
};
