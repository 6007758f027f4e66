import { idParamsSchema } from '@cloud-classroom/shared/courses';
import {
  myCoursesSchema,
  myStudyQuerySchema,
  myStudySchema,
  progressReportSchema,
  progressResultSchema,
  siteCourseDetailSchema,
  siteLessonSchema,
} from '@cloud-classroom/shared/progress';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../http/route-access.js';
import type { Services } from '../../services.js';

/** The learner's courses, lessons, study time and progress reports: any signed-in person, about themselves only. */
export const progressRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { progress } = services;
  const me = (request: Parameters<typeof principalOf>[0]) => principalOf(request).userId;

  app.get(
    '/api/site/courses/:id',
    { config: { access: { authenticated: true } }, schema: { params: idParamsSchema, response: { 200: siteCourseDetailSchema } } },
    async (request) => progress.courseDetail(me(request), request.params.id),
  );

  app.get(
    '/api/site/my/courses',
    { config: { access: { authenticated: true } }, schema: { response: { 200: myCoursesSchema } } },
    async (request) => progress.myCourses(me(request)),
  );

  app.get(
    '/api/site/my/study',
    { config: { access: { authenticated: true } }, schema: { querystring: myStudyQuerySchema, response: { 200: myStudySchema } } },
    async (request) => progress.myStudy(me(request), request.query.days),
  );

  app.get(
    '/api/site/lessons/:id',
    { config: { access: { authenticated: true } }, schema: { params: idParamsSchema, response: { 200: siteLessonSchema } } },
    async (request) => progress.lesson(me(request), request.params.id),
  );

  // Sent every few seconds by every player: the audit log would drown in them, and the progress
  // rows themselves are the record.
  app.post(
    '/api/site/lessons/:id/progress',
    {
      config: { access: { authenticated: true }, audit: false },
      schema: { params: idParamsSchema, body: progressReportSchema, response: { 200: progressResultSchema } },
    },
    async (request) => progress.report(me(request), request.params.id, request.body),
  );
};
