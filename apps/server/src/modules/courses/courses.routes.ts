import {
  categoryCreateSchema,
  categoryTreeSchema,
  categoryUpdateSchema,
  chapterCreateSchema,
  chapterUpdateSchema,
  courseCreateSchema,
  courseQuerySchema,
  courseSchema,
  courseUpdateSchema,
  createdSchema,
  idParamsSchema,
  idsSchema,
  lessonCreateSchema,
  lessonSchema,
  lessonUpdateSchema,
  outlineOrderSchema,
  outlineSchema,
  termCreateSchema,
  termQuerySchema,
  termSchema,
  termUpdateSchema,
  type CategoryTree,
  type Course,
  type CourseStatus,
  type EnrolMode,
  type Term,
  siteCategorySchema,
  siteCourseQuerySchema,
  siteCourseSchema,
} from '@cloud-classroom/shared/courses';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../http/route-access.js';
import { sendXlsx, type XlsxColumn } from '../../http/xlsx-export.js';
import type { Services } from '../../services.js';

const STATUS_LABELS: Record<CourseStatus, string> = { draft: '草稿', published: '已发布', archived: '已归档' };
const ENROL_MODE_LABELS: Record<EnrolMode, string> = { open: '自由报名', approval: '审核报名', assigned: '指定学员' };

const courseColumns: XlsxColumn<Course>[] = [
  { header: '课程名称', value: (course) => course.title, width: 32 },
  { header: '课程分类', value: (course) => course.categoryName },
  { header: '状态', value: (course) => STATUS_LABELS[course.status], width: 10 },
  { header: '必修', value: (course) => (course.required ? '是' : '否'), width: 8 },
  { header: '负责人', value: (course) => course.ownerName },
  { header: '章节数', value: (course) => course.chapterCount, width: 10 },
  { header: '课时数', value: (course) => course.lessonCount, width: 10 },
  { header: '开课数', value: (course) => course.termCount, width: 10 },
  { header: '简介', value: (course) => course.summary, width: 40 },
  { header: '创建日期', value: (course) => course.createTime, width: 20 },
];

/** A category with the names above it, as the tree's download lists it (parents first). */
type CategoryLine = { category: CategoryTree; path: string };
const categoryColumns: XlsxColumn<CategoryLine>[] = [
  { header: '分类名称', value: (line) => line.category.name, width: 24 },
  { header: '分类路径', value: (line) => line.path, width: 40 },
  { header: '排序', value: (line) => line.category.sort, width: 8 },
  { header: '子分类数', value: (line) => line.category.subCount, width: 10 },
  { header: '课程数', value: (line) => line.category.courseCount, width: 10 },
  { header: '创建日期', value: (line) => line.category.createTime, width: 20 },
];
function categoryLines(tree: readonly CategoryTree[], above?: string): CategoryLine[] {
  return tree.flatMap((category) => {
    const path = above === undefined ? category.name : `${above} / ${category.name}`;
    return [{ category, path }, ...categoryLines((category.children ?? []) as CategoryTree[], path)];
  });
}

const termColumns: XlsxColumn<Term>[] = [
  { header: '开课名称', value: (term) => term.name, width: 28 },
  { header: '开始时间', value: (term) => term.startAt, width: 20 },
  { header: '结束时间', value: (term) => term.endAt, width: 20 },
  { header: '人数上限', value: (term) => term.capacity ?? '不限', width: 10 },
  { header: '报名方式', value: (term) => ENROL_MODE_LABELS[term.enrolMode], width: 12 },
  { header: '已报名', value: (term) => term.enrolled, width: 10 },
  { header: '创建日期', value: (term) => term.createTime, width: 20 },
];

/** The course catalogue: categories, courses, terms, and each course's outline of chapters and lessons. */
export const courseRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { courses } = services;
  const actorOf = (request: Parameters<typeof principalOf>[0]) => {
    const { userId, username } = principalOf(request);
    return { userId, username };
  };

  // ---- Categories -------------------------------------------------------------------------------

  app.get(
    '/api/categories',
    { config: { access: { permissions: ['course:list'] } }, schema: { response: { 200: z.array(categoryTreeSchema) } } },
    async () => courses.categoryTree(),
  );

  app.get(
    '/api/categories/download',
    { config: { access: { permissions: ['course:list'] }, audit: '导出课程分类' } },
    async (_request, reply) => sendXlsx(reply, '课程分类', categoryColumns, categoryLines(await courses.categoryTree())),
  );

  app.post(
    '/api/categories',
    { config: { access: { permissions: ['course:add'] }, audit: '新增课程分类' }, schema: { body: categoryCreateSchema, response: { 201: createdSchema } } },
    async (request, reply) => reply.code(201).send({ id: await courses.createCategory(request.body, principalOf(request).username) }),
  );

  app.put(
    '/api/categories',
    { config: { access: { permissions: ['course:edit'] }, audit: '修改课程分类' }, schema: { body: categoryUpdateSchema } },
    async (request, reply) => {
      await courses.updateCategory(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/categories',
    { config: { access: { permissions: ['course:del'] }, audit: '删除课程分类' }, schema: { body: idsSchema } },
    async (request, reply) => {
      await courses.deleteCategories(request.body);
      return reply.code(200).send();
    },
  );

  // ---- Courses ----------------------------------------------------------------------------------

  app.get(
    '/api/courses',
    { config: { access: { permissions: ['course:list'] } }, schema: { querystring: courseQuerySchema, response: { 200: pageOf(courseSchema) } } },
    async (request) => courses.listCourses(request.query),
  );

  // The learner catalogue: any signed-in person, published courses only.
  app.get(
    '/api/site/courses',
    { config: { access: { authenticated: true } }, schema: { querystring: siteCourseQuerySchema, response: { 200: pageOf(siteCourseSchema) } } },
    async (request) => courses.catalogue(request.query),
  );

  // What the catalogue can be filtered by; the staff's tree (api/categories) needs course:list.
  app.get(
    '/api/site/categories',
    { config: { access: { authenticated: true } }, schema: { response: { 200: z.array(siteCategorySchema) } } },
    async () => courses.siteCategories(),
  );

  app.get(
    '/api/courses/download',
    { config: { access: { permissions: ['course:list'] }, audit: '导出课程数据' }, schema: { querystring: courseQuerySchema } },
    async (request, reply) => sendXlsx(reply, '课程数据', courseColumns, await courses.exportCourses(request.query)),
  );

  app.get(
    '/api/courses/:id',
    { config: { access: { permissions: ['course:list'] } }, schema: { params: idParamsSchema, response: { 200: courseSchema } } },
    async (request) => courses.course(request.params.id),
  );

  app.post(
    '/api/courses',
    { config: { access: { permissions: ['course:add'] }, audit: '新增课程' }, schema: { body: courseCreateSchema, response: { 201: createdSchema } } },
    async (request, reply) => reply.code(201).send({ id: await courses.createCourse(request.body, actorOf(request)) }),
  );

  app.put(
    '/api/courses',
    { config: { access: { permissions: ['course:edit'] }, audit: '修改课程' }, schema: { body: courseUpdateSchema } },
    async (request, reply) => {
      await courses.updateCourse(request.body, actorOf(request));
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/courses',
    { config: { access: { permissions: ['course:del'] }, audit: '删除课程' }, schema: { body: idsSchema } },
    async (request, reply) => {
      await courses.deleteCourses(request.body);
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/courses/:id/outline',
    { config: { access: { permissions: ['course:list'] } }, schema: { params: idParamsSchema, response: { 200: outlineSchema } } },
    async (request) => courses.outline(request.params.id),
  );

  app.put(
    '/api/courses/:id/outline',
    { config: { access: { permissions: ['course:edit'] }, audit: '调整课程大纲' }, schema: { params: idParamsSchema, body: outlineOrderSchema } },
    async (request, reply) => {
      await courses.reorderOutline(request.params.id, request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  // ---- Terms ------------------------------------------------------------------------------------

  app.get(
    '/api/terms',
    { config: { access: { permissions: ['course:list'] } }, schema: { querystring: termQuerySchema, response: { 200: pageOf(termSchema) } } },
    async (request) => courses.listTerms(request.query),
  );

  app.get(
    '/api/terms/download',
    { config: { access: { permissions: ['course:list'] }, audit: '导出开课计划' }, schema: { querystring: termQuerySchema } },
    async (request, reply) => sendXlsx(reply, '开课计划', termColumns, await courses.exportTerms(request.query)),
  );

  app.post(
    '/api/terms',
    { config: { access: { permissions: ['course:add'] }, audit: '新增开课计划' }, schema: { body: termCreateSchema, response: { 201: createdSchema } } },
    async (request, reply) => reply.code(201).send({ id: await courses.createTerm(request.body, principalOf(request).username) }),
  );

  app.put(
    '/api/terms',
    { config: { access: { permissions: ['course:edit'] }, audit: '修改开课计划' }, schema: { body: termUpdateSchema } },
    async (request, reply) => {
      await courses.updateTerm(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/terms',
    { config: { access: { permissions: ['course:del'] }, audit: '删除开课计划' }, schema: { body: idsSchema } },
    async (request, reply) => {
      await courses.deleteTerms(request.body);
      return reply.code(200).send();
    },
  );

  // ---- Chapters and lessons ---------------------------------------------------------------------

  app.post(
    '/api/chapters',
    { config: { access: { permissions: ['course:add'] }, audit: '新增章节' }, schema: { body: chapterCreateSchema, response: { 201: createdSchema } } },
    async (request, reply) => reply.code(201).send({ id: await courses.createChapter(request.body, principalOf(request).username) }),
  );

  app.put(
    '/api/chapters',
    { config: { access: { permissions: ['course:edit'] }, audit: '修改章节' }, schema: { body: chapterUpdateSchema } },
    async (request, reply) => {
      await courses.updateChapter(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/chapters',
    { config: { access: { permissions: ['course:del'] }, audit: '删除章节' }, schema: { body: idsSchema } },
    async (request, reply) => {
      await courses.deleteChapters(request.body);
      return reply.code(200).send();
    },
  );

  app.get(
    '/api/lessons/:id',
    { config: { access: { permissions: ['course:list'] } }, schema: { params: idParamsSchema, response: { 200: lessonSchema } } },
    async (request) => courses.lesson(request.params.id),
  );

  app.post(
    '/api/lessons',
    { config: { access: { permissions: ['course:add'] }, audit: '新增课时' }, schema: { body: lessonCreateSchema, response: { 201: createdSchema } } },
    async (request, reply) => reply.code(201).send({ id: await courses.createLesson(request.body, principalOf(request).username) }),
  );

  app.put(
    '/api/lessons',
    { config: { access: { permissions: ['course:edit'] }, audit: '修改课时' }, schema: { body: lessonUpdateSchema } },
    async (request, reply) => {
      await courses.updateLesson(request.body, principalOf(request).username);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/lessons',
    { config: { access: { permissions: ['course:del'] }, audit: '删除课时' }, schema: { body: idsSchema } },
    async (request, reply) => {
      await courses.deleteLessons(request.body);
      return reply.code(200).send();
    },
  );
};
