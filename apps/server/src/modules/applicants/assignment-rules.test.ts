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

  const createRule = (body: Record<string, unknown>, token = teacher) => created(app, token, '/api/assignment-rules', body);
  const rules = async (query: string, token = teacher): Promise<AssignmentRule[]> => {
    const response = await call(app, 'GET', `/api/assignment-rules${query}`, token);
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
    // By the administrator: learner2 and admin are outside the teacher's departments ('data scope' below).
    await createRule({ target: 'users', ids: [await userId(app, 'learner2'), await userId(app, 'admin')], termId: named }, admin);
    expect(await people(named)).toEqual([
      ['admin', 'approved', 'rule'],
      ['learner2', 'approved', 'rule'],
    ]);
  });

  it('updates a rule: whoever it covers now is enrolled, those enrolled before stay, and its new due date applies to the unfinished', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Updated rule' });
    const learner2 = await userId(app, 'learner2');
    const learner3 = await userId(app, 'learner3');
    const rule = await createRule({ target: 'users', ids: [learner2, learner3], termId: term, dueAt: '2099-01-01 00:00:00' }, admin);
    await db(app).updateTable('edu_applicant').set({ status: 'completed' }).where('term_id', '=', term).where('user_id', '=', learner3).execute();

    const admin1 = await userId(app, 'admin');
    const response = await call(app, 'PUT', '/api/assignment-rules', admin, { id: rule, target: 'users', ids: [learner2, admin1], termId: term, dueAt: '2099-02-01 00:00:00' });
    expect(response.statusCode, response.body).toBe(204);
    expect(await termRows(app, term)).toMatchObject([
      { username: 'admin', status: 'approved', rule_id: rule, due_at: new Date(2099, 1, 1).getTime() },
      { username: 'learner2', status: 'approved', rule_id: rule, due_at: new Date(2099, 1, 1).getTime() },
      { username: 'learner3', status: 'completed', rule_id: rule, due_at: new Date(2099, 0, 1).getTime() },
    ]);
    expect((await rules(`?termId=${term}`, admin))[0]).toMatchObject({ names: ['王芳', '管理员'], applicantCount: 3, dueAt: '2099-02-01 00:00:00', updateBy: 'admin' });
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
    const first = await createRule({ target: 'dept', ids: [temporary, await deptId(app, '市场部')], termId: term }, admin);
    const second = await createRule({ target: 'role', ids: [await roleId(app, 'learner')], termId: term }, admin);
    await db(app).deleteFrom('sys_dept').where('id', '=', temporary).execute();
    const listed = await rules(`?courseId=${other}`);
    expect(listed.map((rule) => rule.id)).toEqual([second, first]);
    expect(listed[1]).toMatchObject({ ids: [temporary, await deptId(app, '市场部')], names: ['市场部'] });
    expect((await rules(`?courseId=${other}&sort=id,asc&page=0&size=1`)).map((rule) => rule.id)).toEqual([first]);
  });

  describe('data scope', () => {
    // The teacher manages 培训部 (讲师组, 学员服务组) and 研发部; not 市场部 (learner2) nor 云课堂 itself (admin).
    const SCOPE = ['培训部', '讲师组', '学员服务组', '研发部'];
    const enrolments = async () => Number((await db(app).selectFrom('edu_applicant').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const ruleCount = async () => Number((await db(app).selectFrom('edu_assignment_rule').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const enrolledDepts = async (termId: number) =>
      db(app)
        .selectFrom('edu_applicant as a')
        .innerJoin('sys_user as u', 'u.id', 'a.user_id')
        .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
        .select(['u.username', 'd.name'])
        .where('a.term_id', '=', termId)
        .execute();

    it('refuses departments and people outside the author’s departments, enrolling nobody', async () => {
      const term = await createTerm(app, teacher, course, { name: 'Scoped refusals' });
      const [rulesBefore, enrolmentsBefore] = [await ruleCount(), await enrolments()];
      const post = (body: Record<string, unknown>) => call(app, 'POST', '/api/assignment-rules', teacher, { termId: term, ...body });
      expect(expectRefusal(await post({ target: 'dept', ids: [await deptId(app, '云课堂')] }), 403, 'ids')).toBe('ids: the department 云课堂 is outside the departments you manage');
      expectRefusal(await post({ target: 'dept', ids: [await deptId(app, '讲师组'), await deptId(app, '市场部')] }), 403, 'ids');
      expect(expectRefusal(await post({ target: 'users', ids: [await userId(app, 'learner3'), await userId(app, 'learner2')] }), 403, 'ids')).toBe(
        'ids: learner2 is outside the departments you manage',
      );
      expectRefusal(await post({ target: 'users', ids: [await userId(app, 'admin')] }), 403, 'ids');
      expect([await ruleCount(), await enrolments()]).toEqual([rulesBefore, enrolmentsBefore]);
    });

    it('enrols only the role’s holders within the author’s departments, now and when people join later', async () => {
      const term = await createTerm(app, teacher, course, { name: 'Scoped role' });
      const rule = await createRule({ target: 'role', ids: [await roleId(app, 'learner')], termId: term });
      const now = await enrolledDepts(term);
      expect(now.map((row) => row.username)).toContain('learner3');
      expect(now.map((row) => row.username)).not.toContain('learner2');
      expect(now.every((row) => SCOPE.includes(row.name ?? ''))).toBe(true);

      const outsider = await createUser('市场部');
      const insider = await createUser('研发部');
      const later = (await enrolledDepts(term)).map((row) => row.username);
      expect(later).toContain(insider);
      expect(later).not.toContain(outsider);
      // Run for everyone (as after a crash): the outsiders stay out.
      await app.services.applicants.applyRulesTo([await userId(app, 'learner2'), await userId(app, outsider)]);
      expect((await enrolledDepts(term)).every((row) => SCOPE.includes(row.name ?? ''))).toBe(true);

      // Re-pointed at someone outside: refused, the rule as it was.
      const moved = await call(app, 'PUT', '/api/assignment-rules', teacher, { id: rule, target: 'users', ids: [await userId(app, 'learner2')], termId: term });
      expect(expectRefusal(moved, 403, 'ids')).toBe('ids: learner2 is outside the departments you manage');
      expect((await rules(`?termId=${term}`))[0]).toMatchObject({ target: 'role' });
    });

    it('leaves the rules that reach beyond them to those who manage their people', async () => {
      const term = await createTerm(app, teacher, course, { name: 'Others’ rules' });
      const named = await created(app, admin, '/api/assignment-rules', { target: 'users', ids: [await userId(app, 'learner2')], termId: term });
      const everyLearner = await created(app, admin, '/api/assignment-rules', { target: 'role', ids: [await roleId(app, 'learner')], termId: term });
      const enrolmentsBefore = await enrolments();
      const learner3 = await userId(app, 'learner3');
      for (const id of [named, everyLearner]) {
        const edited = await call(app, 'PUT', '/api/assignment-rules', teacher, { id, target: 'users', ids: [learner3], termId: term });
        expect(expectRefusal(edited, 403, 'id')).toBe(`id: the assignment rule ${id} reaches people outside the departments you manage`);
        expectRefusal(await call(app, 'DELETE', '/api/assignment-rules', teacher, [id]), 403, 'ids');
      }
      expect((await rules(`?termId=${term}`)).map((rule) => rule.id).sort()).toEqual([named, everyLearner].sort());
      expect(await enrolments()).toBe(enrolmentsBefore);
    });

    it('lists others’ rules without naming the people outside the caller’s departments, only counting them', async () => {
      const term = await createTerm(app, teacher, course, { name: 'Named across departments' });
      const [learner2, learner3] = [await userId(app, 'learner2'), await userId(app, 'learner3')];
      const named = await created(app, admin, '/api/assignment-rules', { target: 'users', ids: [learner3, learner2], termId: term });
      const nickName = async (username: string) => (await db(app).selectFrom('sys_user').select('nick_name').where('username', '=', username).executeTakeFirstOrThrow()).nick_name;
      expect((await rules(`?termId=${term}`)).find((rule) => rule.id === named)).toMatchObject({ ids: [learner3], names: [await nickName('learner3')], othersOutsideScope: 1 });
      expect((await rules(`?termId=${term}`, admin)).find((rule) => rule.id === named)).toMatchObject({ ids: [learner3, learner2], names: [await nickName('learner3'), await nickName('learner2')], othersOutsideScope: 0 });
    });
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
