import { examReportSchema } from '@cloud-classroom/shared/attempts';
import { idParamsSchema } from '@cloud-classroom/shared/courses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../../http/route-access.js';
import { sendXlsxFile } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';

/** The exam's report (`/edu/report-exam`) and its workbook. */
export const examReportRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { examReports } = services;

  app.get(
    '/api/exams/:id/report',
    { config: { access: { permissions: ['exam:list'] } }, schema: { params: idParamsSchema, response: { 200: examReportSchema } } },
    async (request) => examReports.report(principalOf(request), request.params.id),
  );

  app.get(
    '/api/exams/:id/report/download',
    { config: { access: { permissions: ['exam:list'] }, audit: '导出考试报表' }, schema: { params: idParamsSchema } },
    async (request, reply) => {
      const { title, content } = await examReports.workbook(principalOf(request), request.params.id);
      return sendXlsxFile(reply, title, content);
    },
  );
};
