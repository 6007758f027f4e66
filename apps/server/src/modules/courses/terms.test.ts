import { pageOf } from '@cloud-classroom/shared/http';
import { termSchema, type Term } from '@cloud-classroom/shared/courses';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { sheetRows } from '../../test/sheet-rows.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';
import { createCourse, createTerm, db, expectConflict, expectRefusal, insertApplicant } from '../../test/course-fixtures.js';

async function list(app: FastifyInstance, token: string, query: string): Promise<{ content: Term[]; totalElements: number }> {
  const response = await call(app, 'GET', `/api/terms${query}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return pageOf(termSchema).parse(response.json());
}

const term = (courseId: number, extra: Record<string, unknown> = {}) => ({
  courseId,
  name: 'Autumn',
  startAt: '2026-09-01 09:00:00',
  endAt: '2026-10-01 18:00:00',
  ...extra,
});

describe('terms: access', () => {
  const { app } = itRefusesOutsiders([
    ['GET', '/api/terms?courseId=1'],
    ['GET', '/api/terms/download?courseId=1'],
    ['POST', '/api/terms', term(1)],
    ['PUT', '/api/terms', { id: 1, ...term(1) }],
    ['DELETE', '/api/terms', [1]],
  ]);

  it('nothing was written by the refused calls', async () => {
    expect(await db(app()).selectFrom('edu_term').selectAll().execute()).toEqual([]);
  });
});

describe('terms', () => {
  let app: FastifyInstance;
  let teacher: string;
  let course: number;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    course = await createCourse(app, teacher);
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists a course’s terms, latest start first, each with the people holding a place in it', async () => {
    const spring = await createTerm(app, teacher, course, { name: 'Spring', capacity: 30, enrolMode: 'approval' });
    const autumn = await createTerm(app, teacher, course, term(course));
    await createTerm(app, teacher, await createCourse(app, teacher, { title: 'Other' }), { name: 'Elsewhere' });
    for (const [username, status] of [
      ['learner1', 'approved'],
      ['learner2', 'in_progress'],
      ['learner3', 'completed'],
      ['teacher', 'applied'],
    ] as const) {
      await insertApplicant(app, spring, username, status);
    }
    await insertApplicant(app, autumn, 'learner1', 'rejected');

    const page = await list(app, teacher, `?courseId=${course}`);
    expect(page.totalElements).toBe(2);
    expect(page.content).toMatchObject([
      { id: autumn, name: 'Autumn', courseId: course, startAt: '2026-09-01 09:00:00', endAt: '2026-10-01 18:00:00', capacity: null, enrolMode: 'open', enrolled: 0 },
      { id: spring, name: 'Spring', capacity: 30, enrolMode: 'approval', enrolled: 3, createBy: 'teacher' },
    ]);
    expect((await list(app, teacher, `?courseId=${course}&sort=name,asc&q=spr`)).content.map((row) => row.name)).toEqual(['Spring']);
    expect((await list(app, teacher, '?courseId=99999')).totalElements).toBe(0);
  });

  it('refuses bad bodies and queries naming the field', async () => {
    expectRefusal(await call(app, 'GET', '/api/terms', teacher), 400, 'courseId');
    expectRefusal(await call(app, 'GET', `/api/terms?courseId=${course}&sort=enrolled,asc`, teacher), 400, 'sort');
    expectRefusal(await call(app, 'POST', '/api/terms', teacher, term(99_999)), 400, 'courseId');
    expectRefusal(await call(app, 'GET', '/api/terms?courseId=3000000000', teacher), 400, 'courseId');
    expectRefusal(await call(app, 'POST', '/api/terms', teacher, term(3_000_000_000)), 400, 'courseId');
    expectRefusal(await call(app, 'POST', '/api/terms', teacher, term(course, { endAt: '2026-09-01 09:00:00' })), 400, 'endAt');
    expectRefusal(await call(app, 'POST', '/api/terms', teacher, term(course, { startAt: '2026-13-01 09:00:00' })), 400, 'startAt');
    expectRefusal(await call(app, 'POST', '/api/terms', teacher, term(course, { capacity: 0 })), 400, 'capacity');
    expectRefusal(await call(app, 'POST', '/api/terms', teacher, term(course, { enrolMode: 'lottery' })), 400, 'enrolMode');
    expectRefusal(await call(app, 'POST', '/api/terms', teacher, term(course, { name: 'x'.repeat(101) })), 400, 'name');
    expect((await call(app, 'PUT', '/api/terms', teacher, { id: 99_999, ...term(course) })).statusCode).toBe(404);
  });

  it('updates a term; its capacity cannot drop below the people enrolled, nor an enrolled term move to another course', async () => {
    const id = await createTerm(app, teacher, course, { name: 'Update me' });
    await insertApplicant(app, id, 'learner1', 'approved');
    await insertApplicant(app, id, 'learner2', 'approved');
    const other = await createCourse(app, teacher, { title: 'Another' });

    expectRefusal(await call(app, 'PUT', '/api/terms', teacher, { id, ...term(course, { capacity: 1 }) }), 409, 'capacity');
    expectRefusal(await call(app, 'PUT', '/api/terms', teacher, { id, ...term(other) }), 409, 'courseId');
    expectRefusal(await call(app, 'PUT', '/api/terms', teacher, { id, ...term(99_999) }), 400, 'courseId');
    const response = await call(app, 'PUT', '/api/terms', teacher, { id, ...term(course, { name: 'Updated', capacity: 2 }) });
    expect(response.statusCode, response.body).toBe(204);
    expect((await list(app, teacher, `?courseId=${course}&q=Updated`)).content).toMatchObject([{ id, capacity: 2, enrolled: 2 }]);
  });

  it('refuses to delete a term with enrolments; one with only rejected applicants goes with them', async () => {
    const held = await createTerm(app, teacher, course, { name: 'Held' });
    await insertApplicant(app, held, 'learner3', 'applied');
    const empty = await createTerm(app, teacher, course, { name: 'Turned down' });
    await insertApplicant(app, empty, 'learner3', 'rejected');

    expect(expectConflict(await call(app, 'DELETE', '/api/terms', teacher, [empty, held]))).toBe("term 'Held' has 1 enrolment(s) and cannot be deleted");
    expect(await db(app).selectFrom('edu_term').select('id').where('id', 'in', [empty, held]).execute()).toHaveLength(2);
    expect((await call(app, 'DELETE', '/api/terms', teacher, [empty])).statusCode).toBe(200);
    expect(await db(app).selectFrom('edu_applicant').select('id').where('term_id', '=', empty).execute()).toEqual([]);
    expect((await call(app, 'DELETE', '/api/terms', teacher, [empty])).statusCode).toBe(404);
  });

  it('downloads a course’s terms as a real .xlsx', async () => {
    const only = await createCourse(app, teacher, { title: 'Download' });
    await createTerm(app, teacher, only, { name: 'First run', capacity: 12, enrolMode: 'assigned' });
    const response = await call(app, 'GET', `/api/terms/download?courseId=${only}`, teacher);
    expect(response.statusCode, response.body).toBe(200);
    const rows = await sheetRows(response.rawPayload);
    expect(rows[0]).toEqual(['开课名称', '开始时间', '结束时间', '人数上限', '报名方式', '已报名', '创建日期']);
    expect(rows.slice(1).map((cells) => cells.slice(0, 6))).toEqual([['First run', '2026-03-01 09:00:00', '2026-04-01 18:00:00', 12, '指定学员', 0]]);
  });
});
