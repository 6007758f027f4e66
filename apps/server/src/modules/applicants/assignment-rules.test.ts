import { assignmentRuleSchema, type AssignmentRule } from '@cloud-classroom/shared/applicants';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deptId, roleId, termRows } from '../../test/applicant-fixtures.js';
import { createCourse, created, createTerm, db, expectRefusal, insertApplicant, userId } from '../../test/course-fixtures.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

describe('assignment rules', () => {
  let app: FastifyInstance;
  let teacher: string;
  let admin: string;
  let course: number;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    admin = await loginAs(app, 'admin');
    course = await createCourse(app, teacher, { title: 'Information security', status: 'published' });
  });
  afterAll(async () => {
    await app.close();
  });

  const createRule = (body: Record<string, unknown>) => created(app, teacher, '/api/assignment-rules', body);
  const rules = async (query: string): Promise<AssignmentRule[]> => {
    const response = await call(app, 'GET', `/api/assignment-rules${query}`, teacher);
    expect(response.statusCode, response.body).toBe(200);
    return pageOf(assignmentRuleSchema).parse(response.json()).content;
  };
  const people = async (termId: number) => (await termRows(app, termId)).map((row) => [row.username, row.status, row.source]);
  let made = 0;
  /** Creates a user through the API, as the administrator would, and runs the jobs that follows. */
  const createUser = async (dept: string, role = 'learner'): Promise<string> => {
    made += 1;
    const username = `joiner${made}`;
    const response = await call(app, 'POST', '/api/users', admin, {
      username,
      nickName: `新人${made}`,
      enabled: true,
      dept: { id: await deptId(app, dept) },
      roles: [{ id: await roleId(app, role) }],
    });
    expect(response.statusCode, response.body).toBe(201);
    await app.services.jobs.runDue();
    return username;
  };

  it('enrols a department’s whole subtree at once, leaving the enrolled as they are and ignoring the term’s capacity', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Everyone in training', capacity: 1, enrolMode: 'assigned' });
    await insertApplicant(app, term, 'learner2', 'approved');
    await insertApplicant(app, term, 'learner3', 'in_progress');
    await insertApplicant(app, term, 'teacher', 'rejected');
    const rule = await createRule({ target: 'dept', ids: [await deptId(app, '培训部')], termId: term, dueAt: '2099-06-30 18:00:00' });

    const rows = await termRows(app, term);
    expect(rows).toMatchObject([
      { username: 'learner2', status: 'approved', source: 'staff', rule_id: null },
      // 学员服务组, under 培训部: already studying, left alone.
      { username: 'learner3', status: 'in_progress', source: 'staff', rule_id: null },
      // 讲师组, under 培训部: rejected before, now assigned.
      { username: 'teacher', status: 'approved', source: 'rule', rule_id: rule, due_at: new Date(2099, 5, 30, 18).getTime(), reason: null },
    ]);
    // A mandatory course reaches everyone assigned: three enrolled in a term of one seat.
    expect(rows.filter((row) => row.status !== 'rejected')).toHaveLength(3);

    expect(await rules(`?termId=${term}`)).toMatchObject([
      { id: rule, target: 'dept', ids: [await deptId(app, '培训部')], names: ['培训部'], termId: term, termName: 'Everyone in training', examId: null, dueAt: '2099-06-30 18:00:00', applicantCount: 1, createBy: 'teacher' },
    ]);
  });

  it('enrols the people who join a covered department later, by creation or by a move', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Joiners' });
    const rule = await createRule({ target: 'dept', ids: [await deptId(app, '培训部')], termId: term });
    expect(await people(term)).toEqual([
      ['learner3', 'approved', 'rule'],
      ['teacher', 'approved', 'rule'],
    ]);

    const joiner = await createUser('学员服务组');
    const outsider = await createUser('市场部');
    expect(await people(term)).toEqual([
      [joiner, 'approved', 'rule'],
      ['learner3', 'approved', 'rule'],
      ['teacher', 'approved', 'rule'],
    ]);

    // learner1 moves from 研发部 to 讲师组.
    const learner1 = await userId(app, 'learner1');
    const moved = await call(app, 'PUT', '/api/users', admin, {
      id: learner1,
      username: 'learner1',
      nickName: '李明',
      enabled: true,
      dept: { id: await deptId(app, '讲师组') },
      roles: [{ id: await roleId(app, 'learner') }],
    });
    expect(moved.statusCode, moved.body).toBe(204);
    await app.services.jobs.runDue();
    const rows = await termRows(app, term);
    expect(rows.map((row) => row.username)).toEqual([joiner, 'learner1', 'learner3', 'teacher']);
    expect(rows.every((row) => row.rule_id === rule)).toBe(true);
    expect(rows.map((row) => row.username)).not.toContain(outsider);
    // A second run (a job run again after a crash) changes nothing.
    expect(await app.services.applicants.applyRulesTo([learner1, await userId(app, joiner)])).toBe(0);
    expect(await termRows(app, term)).toEqual(rows);
  });

  it('enrols the holders of a role, and people given it later; and named people', async () => {
    const byRole = await createTerm(app, teacher, course, { name: 'Teachers' });
    await createRule({ target: 'role', ids: [await roleId(app, 'teacher')], termId: byRole });
    expect(await people(byRole)).toEqual([['teacher', 'approved', 'rule']]);
    const newTeacher = await createUser('研发部', 'teacher');
    expect((await people(byRole)).map(([username]) => username)).toEqual([newTeacher, 'teacher']);

    const named = await createTerm(app, teacher, course, { name: 'Named' });
    await createRule({ target: 'users', ids: [await userId(app, 'learner2'), await userId(app, 'admin')], termId: named });
    expect(await people(named)).toEqual([
      ['admin', 'approved', 'rule'],
      ['learner2', 'approved', 'rule'],
    ]);
  });

  it('updates a rule: whoever it covers now is enrolled, those enrolled before stay, and its new due date applies to the unfinished', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Updated rule' });
    const learner2 = await userId(app, 'learner2');
    const learner3 = await userId(app, 'learner3');
    const rule = await createRule({ target: 'users', ids: [learner2, learner3], termId: term, dueAt: '2099-01-01 00:00:00' });
    await db(app).updateTable('edu_applicant').set({ status: 'completed' }).where('term_id', '=', term).where('user_id', '=', learner3).execute();

    const admin1 = await userId(app, 'admin');
    const response = await call(app, 'PUT', '/api/assignment-rules', teacher, { id: rule, target: 'users', ids: [learner2, admin1], termId: term, dueAt: '2099-02-01 00:00:00' });
    expect(response.statusCode, response.body).toBe(204);
    expect(await termRows(app, term)).toMatchObject([
      { username: 'admin', status: 'approved', rule_id: rule, due_at: new Date(2099, 1, 1).getTime() },
      { username: 'learner2', status: 'approved', rule_id: rule, due_at: new Date(2099, 1, 1).getTime() },
      { username: 'learner3', status: 'completed', rule_id: rule, due_at: new Date(2099, 0, 1).getTime() },
    ]);
    expect((await rules(`?termId=${term}`))[0]).toMatchObject({ names: ['王芳', '管理员'], applicantCount: 3, dueAt: '2099-02-01 00:00:00', updateBy: 'teacher' });
    expectRefusal(await call(app, 'PUT', '/api/assignment-rules', teacher, { id: 99_999, target: 'users', ids: [learner2], termId: term }), 404, 'id');
  });

  it('deletes rules; the enrolments they made stay, linked to no rule', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Deleted rule' });
    const rule = await createRule({ target: 'users', ids: [await userId(app, 'learner1')], termId: term });
    expectRefusal(await call(app, 'DELETE', '/api/assignment-rules', teacher, [rule, 99_999]), 404, 'ids');
    expect(await rules(`?termId=${term}`)).toHaveLength(1);
    expect((await call(app, 'DELETE', '/api/assignment-rules', teacher, [rule])).statusCode).toBe(200);
    expect(await rules(`?termId=${term}`)).toEqual([]);
    expect(await termRows(app, term)).toMatchObject([{ username: 'learner1', status: 'approved', source: 'rule', rule_id: null }]);
  });

  it('lists rules by course, newest first, leaving deleted targets out of the names', async () => {
    const other = await createCourse(app, teacher, { title: 'Listed rules' });
    const term = await createTerm(app, teacher, other, { name: 'Listed' });
    const { id: temporary } = await db(app)
      .insertInto('sys_dept')
      .values({ pid: await deptId(app, '云课堂'), name: '临时部', dept_sort: 9, enabled: 1, sub_count: 0, create_by: 'admin', update_by: 'admin', create_time: 0, update_time: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const first = await createRule({ target: 'dept', ids: [temporary, await deptId(app, '市场部')], termId: term });
    const second = await createRule({ target: 'role', ids: [await roleId(app, 'learner')], termId: term });
    await db(app).deleteFrom('sys_dept').where('id', '=', temporary).execute();
    const listed = await rules(`?courseId=${other}`);
    expect(listed.map((rule) => rule.id)).toEqual([second, first]);
    expect(listed[1]).toMatchObject({ ids: [temporary, await deptId(app, '市场部')], names: ['市场部'] });
    expect((await rules(`?courseId=${other}&sort=id,asc&page=0&size=1`)).map((rule) => rule.id)).toEqual([first]);
  });

  it('refuses bad bodies and queries naming the field, writing nothing', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Refusals' });
    const rule = (body: Record<string, unknown>) => call(app, 'POST', '/api/assignment-rules', teacher, { target: 'users', ids: [1], termId: term, ...body });
    expectRefusal(await rule({ target: 'everyone' }), 400, 'target');
    expectRefusal(await rule({ ids: [] }), 400, 'ids');
    expectRefusal(await rule({ ids: [3_000_000_000] }), 400, 'ids.0');
    expectRefusal(await rule({ termId: undefined }), 400, 'termId');
    expectRefusal(await rule({ termId: 3_000_000_000 }), 400, 'termId');
    expectRefusal(await rule({ termId: 99_999 }), 400, 'termId');
    expectRefusal(await rule({ dueAt: '2099-13-01 00:00:00' }), 400, 'dueAt');
    expect(await rule({ target: 'dept', ids: [99_999] }).then((response) => expectRefusal(response, 400, 'ids'))).toBe('ids: department 99999 does not exist');
    expectRefusal(await rule({ target: 'role', ids: [99_999] }), 400, 'ids');
    expectRefusal(await rule({ target: 'users', ids: [99_999] }), 400, 'ids');
    expectRefusal(await call(app, 'PUT', '/api/assignment-rules', teacher, { target: 'users', ids: [1], termId: term }), 400, 'id');
    expectRefusal(await call(app, 'DELETE', '/api/assignment-rules', teacher, [3_000_000_000]), 400, 'body.0');
    expectRefusal(await call(app, 'GET', '/api/assignment-rules?termId=3000000000', teacher), 400, 'termId');
    expectRefusal(await call(app, 'GET', '/api/assignment-rules?sort=termId,asc', teacher), 400, 'sort');
    expect(await rules(`?termId=${term}`)).toEqual([]);
    expect(await termRows(app, term)).toEqual([]);
  });
});
