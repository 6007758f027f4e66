import { examAssignedSchema, examAssigneeSchema, examRuleSchema, siteExamSchema, type ExamAssignee, type ExamRule, type SiteExam } from '@cloud-classroom/shared/exams';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SettableClock } from '../../clock.js';
import { deptId, insertPeople, roleId } from '../../test/applicant-fixtures.js';
import { insertAttempt } from '../../test/attempt-row-fixtures.js';
import { createCourse, createTerm, db, expectRefusal, insertApplicant, userId } from '../../test/course-fixtures.js';
import { createExam, addQuestions, fixedPaper } from '../../test/exam-fixtures.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

// 2026-06-10 12:00 local time: exams below open on the 1st and close on the 30th of June.
const NOW = new Date(2026, 5, 10, 12).getTime();

describe('exam assignment', () => {
  let app: FastifyInstance;
  let clock: SettableClock;
  let admin: string;
  let teacher: string;
  let questions: number[];
  beforeAll(async () => {
    clock = new SettableClock(NOW);
    app = await buildTestApp({}, { clock });
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');
    questions = await addQuestions(app, teacher, 3, { score: 10 });
  });
  afterAll(async () => {
    await app.close();
  });

  const published = (body: Record<string, unknown> = {}) =>
    createExam(app, teacher, fixedPaper(questions), { status: 'published', openAt: '2026-06-01 09:00:00', closeAt: '2026-06-30 18:00:00', limitMinutes: 30, passScore: 18, ...body });
  const assign = async (token: string, examId: number, body: Record<string, unknown>) => {
    const response = await call(app, 'POST', `/api/exams/${examId}/assignees`, token, body);
    expect(response.statusCode, response.body).toBe(201);
    return examAssignedSchema.parse(response.json());
  };
  const assignees = async (examId: number, token = admin, query = ''): Promise<ExamAssignee[]> => {
    const response = await call(app, 'GET', `/api/exams/${examId}/assignees?size=100${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return pageOf(examAssigneeSchema).parse(response.json()).content;
  };
  const usernames = async (examId: number, token = admin) => (await assignees(examId, token)).map((row) => row.username).sort();
  const rules = async (examId: number): Promise<ExamRule[]> => {
    const response = await call(app, 'GET', `/api/exams/${examId}/assignees/rules`, admin);
    expect(response.statusCode, response.body).toBe(200);
    return z.array(examRuleSchema).parse(response.json());
  };
  const siteExams = async (token: string, query = ''): Promise<SiteExam[]> => {
    const response = await call(app, 'GET', `/api/site/exams${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return z.array(siteExamSchema).parse(response.json());
  };
  let made = 0;
  /** Creates a user through the API, as the administrator would, and runs the jobs that follow. */
  const createUser = async (dept: string, role = 'learner'): Promise<string> => {
    made += 1;
    const username = `examinee${made}`;
    const response = await call(app, 'POST', '/api/users', admin, {
      username,
      nickName: `考生${made}`,
      enabled: true,
      dept: { id: await deptId(app, dept) },
      roles: [{ id: await roleId(app, role) }],
    });
    expect(response.statusCode, response.body).toBe(201);
    await app.services.jobs.runDue();
    return username;
  };

  it('assigns named people once, counting those assigned already', async () => {
    const exam = await published();
    const ids = [await userId(app, 'learner1'), await userId(app, 'learner3')];
    expect(await assign(admin, exam, { target: 'users', ids, dueAt: '2026-06-20 18:00:00' })).toEqual({ created: 2, existing: 0, ruleId: null });
    expect(await assign(admin, exam, { target: 'users', ids: [...ids, await userId(app, 'learner2')] })).toEqual({ created: 1, existing: 2, ruleId: null });
    const rows = await assignees(exam);
    expect(rows.map((row) => [row.username, row.source, row.ruleId, row.dueAt])).toEqual([
      ['learner2', 'staff', null, null],
      ['learner3', 'staff', null, '2026-06-20 18:00:00'],
      ['learner1', 'staff', null, '2026-06-20 18:00:00'],
    ]);
    expect(rows[2]).toMatchObject({ nickName: '李明', deptName: '研发部', extraMinutes: 0, extraAttempts: 0, openAt: null, closeAt: null });
    expect((await assignees(exam, admin, '&q=王')).map((row) => row.username)).toEqual(['learner2']);
    expect((await assignees(exam, admin, '&q=learner3')).map((row) => row.username)).toEqual(['learner3']);

    expect(expectRefusal(await call(app, 'POST', `/api/exams/${exam}/assignees`, admin, { target: 'users', ids: [99999] }), 400, 'ids')).toBe('ids: user 99999 does not exist');
    expectRefusal(await call(app, 'POST', `/api/exams/${exam}/assignees`, admin, { target: 'everyone', ids: [1] }), 400, 'target');
    expectRefusal(await call(app, 'POST', `/api/exams/${exam}/assignees`, admin, { target: 'users', ids: [] }), 400, 'ids');
    expectRefusal(await call(app, 'POST', '/api/exams/99999/assignees', admin, { target: 'users', ids: ids }), 404, 'id');
    expectRefusal(await call(app, 'GET', `/api/exams/${exam}/assignees?page=-1`, admin), 400, 'page');
    expectRefusal(await call(app, 'GET', '/api/exams/99999/assignees', admin), 404, 'id');
  });

  it('lists only the overdue on asking: past their due date, with no passed attempt', async () => {
    const exam = await published();
    const due = async (username: string, dueAt: string) => assign(admin, exam, { target: 'users', ids: [await userId(app, username)], dueAt });
    await due('learner1', '2026-06-05 18:00:00');
    await due('learner2', '2026-06-05 18:00:00');
    await due('learner3', '2026-06-10 13:00:00');
    const sit = (username: string, response: 'A' | 'B') =>
      insertAttempt(app, { examId: exam, username, answers: questions.map((questionId) => ({ questionId, maxScore: 10, response })) });
    await sit('learner1', 'A'); // 30 of 30: passed
    await sit('learner2', 'B'); // 0: failed, so still owing it
    expect((await assignees(exam, admin, '&overdue=true')).map((row) => row.username)).toEqual(['learner2']);
    expect((await assignees(exam, admin, '&overdue=false')).map((row) => row.username).sort()).toEqual(['learner1', 'learner2', 'learner3']);
    // Once learner3's due date, an hour away, has passed too (within the sessions' idle time).
    clock.set(NOW + 2 * 3_600_000);
    expect((await assignees(exam, admin, '&overdue=true')).map((row) => row.username)).toEqual(['learner3', 'learner2']);
    clock.set(NOW);
    expectRefusal(await call(app, 'GET', `/api/exams/${exam}/assignees?overdue=yes`, admin), 400, 'overdue');
  });

  it('assigns a department’s subtree, and people who join it later once the job has run', async () => {
    const exam = await published();
    const result = await assign(admin, exam, { target: 'dept', ids: [await deptId(app, '培训部')], dueAt: '2026-06-25 18:00:00' });
    // 讲师组: teacher; 学员服务组: learner3.
    expect(result).toMatchObject({ created: 2, existing: 0 });
    expect(result.ruleId).not.toBeNull();
    expect(await usernames(exam)).toEqual(['learner3', 'teacher']);
    expect((await assignees(exam)).every((row) => row.source === 'rule' && row.ruleId === result.ruleId && row.dueAt === '2026-06-25 18:00:00')).toBe(true);
    expect(await rules(exam)).toEqual([
      { id: result.ruleId, target: 'dept', ids: [await deptId(app, '培训部')], names: ['培训部'], dueAt: '2026-06-25 18:00:00', assigneeCount: 2, createTime: expect.any(String) },
    ]);

    const joiner = await createUser('学员服务组');
    const outsider = await createUser('市场部');
    expect(await usernames(exam)).toEqual([joiner, 'learner3', 'teacher']);
    expect(await usernames(exam)).not.toContain(outsider);

    // Someone moved in is assigned too; a second run of the job changes nothing.
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
    expect(await usernames(exam)).toEqual([joiner, 'learner1', 'learner3', 'teacher']);
    expect(await app.services.exams.applyRulesTo([learner1])).toBe(0);
    // Back to 研发部 for the other tests (they stay assigned, as enrolments do).
    await db(app).updateTable('sys_user').set({ dept_id: await deptId(app, '研发部') }).where('id', '=', learner1).execute();

    expect(expectRefusal(await call(app, 'POST', `/api/exams/${exam}/assignees`, admin, { target: 'dept', ids: [99999] }), 400, 'ids')).toBe('ids: department 99999 does not exist');
  });

  it('assigns the holders of a role, and people given it later', async () => {
    const exam = await published();
    expect(await assign(admin, exam, { target: 'role', ids: [await roleId(app, 'teacher')] })).toMatchObject({ created: 1, existing: 0 });
    expect(await usernames(exam)).toEqual(['teacher']);
    const newTeacher = await createUser('研发部', 'teacher');
    expect(await usernames(exam)).toEqual([newTeacher, 'teacher']);
    expect(expectRefusal(await call(app, 'POST', `/api/exams/${exam}/assignees`, admin, { target: 'role', ids: [99999] }), 400, 'ids')).toBe('ids: role 99999 does not exist');
  });

  it('assigns a term’s enrolled applicants, and those enrolled later, however they got in', async () => {
    const course = await createCourse(app, teacher, { title: 'Safety', status: 'published' });
    const term = await createTerm(app, teacher, course, { name: 'Summer', enrolMode: 'approval', startAt: '2026-06-01 00:00:00', endAt: '2026-12-31 00:00:00' });
    await insertApplicant(app, term, 'learner2', 'in_progress');
    await insertApplicant(app, term, 'learner3', 'rejected');
    const exam = await published({ termId: term });
    expect(await assign(admin, exam, { target: 'term', ids: [term] })).toMatchObject({ created: 1, existing: 0 });
    expect(await usernames(exam)).toEqual(['learner2']);

    // Enrolled by staff.
    const [staffEnrolled, applied] = await insertPeople(app, 2);
    const enrol = await call(app, 'POST', '/api/applicants', admin, { termId: term, userIds: [staffEnrolled!.id] });
    expect(enrol.statusCode, enrol.body).toBe(201);
    await app.services.jobs.runDue();
    expect(await usernames(exam)).toEqual(['learner2', staffEnrolled!.username]);

    // Applying to a term that needs approval is not being enrolled; the approval is.
    const apply = await call(app, 'POST', `/api/site/courses/${course}/apply`, await loginAs(app, applied!.username), { termId: term });
    expect(apply.statusCode, apply.body).toBe(201);
    await app.services.jobs.runDue();
    expect(await usernames(exam)).not.toContain(applied!.username);
    const approve = await call(app, 'PUT', '/api/applicants/approve', admin, [(apply.json() as { id: number }).id]);
    expect(approve.statusCode, approve.body).toBe(204);
    await app.services.jobs.runDue();
    expect(await usernames(exam)).toContain(applied!.username);

    // A rejection turned into an enrolment by an edit.
    const rejected = (await db(app).selectFrom('edu_applicant').select('id').where('term_id', '=', term).where('user_id', '=', await userId(app, 'learner3')).executeTakeFirstOrThrow()).id;
    const edit = await call(app, 'PUT', '/api/applicants', admin, { id: rejected, status: 'approved' });
    expect(edit.statusCode, edit.body).toBe(204);
    await app.services.jobs.runDue();
    expect(await usernames(exam)).toEqual(['learner2', 'learner3', staffEnrolled!.username, applied!.username].sort());
    expect((await rules(exam))[0]).toMatchObject({ target: 'term', ids: [term], names: ['Summer'], assigneeCount: 4 });

    // The enrolment's own rules are not the exam's, and the exam's are not theirs.
    const enrolmentRules = await call(app, 'GET', '/api/assignment-rules', admin);
    expect((enrolmentRules.json() as { content: { examId: number | null }[] }).content.every((rule) => rule.examId === null)).toBe(true);
    expect((await call(app, 'DELETE', '/api/assignment-rules', admin, [(await rules(exam))[0]!.id])).statusCode).toBe(404);
    expect(expectRefusal(await call(app, 'POST', `/api/exams/${exam}/assignees`, admin, { target: 'term', ids: [99999] }), 400, 'ids')).toBe('ids: term 99999 does not exist');
  });

  it('removes a rule with the assignments only it made: staff-named people stay, people another rule covers move to it', async () => {
    const exam = await published();
    const training = await assign(admin, exam, { target: 'dept', ids: [await deptId(app, '培训部')] });
    const teachers = await assign(admin, exam, { target: 'role', ids: [await roleId(app, 'teacher')] });
    // learner3 named by hand too.
    await assign(admin, exam, { target: 'users', ids: [await userId(app, 'learner3')] });
    const before = await assignees(exam);
    const byName = (name: string) => before.find((row) => row.username === name);
    expect(byName('learner3')).toMatchObject({ source: 'staff', ruleId: null });
    expect(byName('teacher')).toMatchObject({ source: 'rule', ruleId: training.ruleId });

    expectRefusal(await call(app, 'DELETE', `/api/exams/${exam}/assignees/rules`, admin, [99999]), 404, 'ids');
    const removed = await call(app, 'DELETE', `/api/exams/${exam}/assignees/rules`, admin, [training.ruleId]);
    expect(removed.statusCode, removed.body).toBe(200);
    const after = await assignees(exam);
    // The teacher holds the teacher role: their row is the role rule's now.
    expect(after.find((row) => row.username === 'teacher')).toMatchObject({ source: 'rule', ruleId: teachers.ruleId });
    expect(after.find((row) => row.username === 'learner3')).toMatchObject({ source: 'staff' });
    // Everyone else the department rule made is gone.
    expect(after.filter((row) => row.ruleId === training.ruleId)).toEqual([]);
    expect(after.every((row) => row.source === 'staff' || row.ruleId === teachers.ruleId)).toBe(true);
    expect((await rules(exam)).map((rule) => rule.id)).toEqual([teachers.ruleId]);
    expectRefusal(await call(app, 'DELETE', `/api/exams/${exam}/assignees/rules`, admin, ['x']), 400, 'body.0');
    expectRefusal(await call(app, 'GET', '/api/exams/abc/assignees/rules', admin), 400, 'id');
    expectRefusal(await call(app, 'GET', '/api/exams/99999/assignees/rules', admin), 404, 'id');
  });

  it('shows a learner their own published exams, with personal overrides and where each stands', async () => {
    const course = await createCourse(app, teacher, { title: 'Overrides course' });
    const open = await published({ title: 'Open', courseId: course, attempts: 2 });
    const upcoming = await published({ title: 'Upcoming', openAt: '2026-06-20 09:00:00' });
    const closed = await published({ title: 'Closed', openAt: null, closeAt: '2026-06-05 00:00:00', limitMinutes: null });
    const draft = await published({ title: 'Draft', status: 'draft' });
    const others = await published({ title: 'Not mine' });
    const [person, other] = await insertPeople(app, 2);
    for (const exam of [open, upcoming, closed, draft]) await assign(admin, exam, { target: 'users', ids: [person!.id] });
    await assign(admin, others, { target: 'users', ids: [other!.id] });
    const token = await loginAs(app, person!.username);

    const mine = await siteExams(token);
    expect(mine.map((exam) => [exam.title, exam.state])).toEqual([
      ['Closed', 'closed'],
      ['Upcoming', 'upcoming'],
      ['Open', 'open'],
    ]);
    expect(mine.find((exam) => exam.id === open)).toEqual({
      id: open,
      title: 'Open',
      description: '',
      courseId: course,
      courseTitle: 'Overrides course',
      openAt: '2026-06-01 09:00:00',
      closeAt: '2026-06-30 18:00:00',
      dueAt: null,
      overdue: false,
      limitMinutes: 30,
      attemptsAllowed: 2,
      attemptsUsed: 0,
      attemptsLeft: 2,
      openAttemptId: null,
      totalScore: 30,
      passScore: 18,
      questionCount: 3,
      state: 'open',
    });
    expect((await siteExams(token, `?courseId=${course}`)).map((exam) => exam.id)).toEqual([open]);
    expectRefusal(await call(app, 'GET', '/api/site/exams?courseId=abc', token), 400, 'courseId');

    // Staff give the person ten more minutes, an attempt more and a later window on the closed one.
    const rowOf = async (exam: number) => (await assignees(exam)).find((row) => row.userId === person!.id)!.id;
    const override = await call(app, 'PUT', `/api/exams/${closed}/assignees`, admin, {
      ids: [await rowOf(closed)],
      extraMinutes: 10,
      extraAttempts: 1,
      closeAt: '2026-06-15 18:00:00',
      dueAt: '2026-06-14 18:00:00',
    });
    expect(override.statusCode, override.body).toBe(204);
    const overridden = await call(app, 'PUT', `/api/exams/${open}/assignees`, admin, {
      ids: [await rowOf(open)],
      extraMinutes: 10,
      extraAttempts: 1,
      dueAt: '2026-06-08 18:00:00',
    });
    expect(overridden.statusCode, overridden.body).toBe(204);
    const now = await siteExams(token);
    expect(now.find((exam) => exam.id === closed)).toMatchObject({
      openAt: null,
      closeAt: '2026-06-15 18:00:00',
      dueAt: '2026-06-14 18:00:00',
      overdue: false,
      limitMinutes: null,
      attemptsAllowed: 2,
      state: 'open',
    });
    // Due two days ago and still open: overdue, by the server's clock.
    expect(now.find((exam) => exam.id === open)).toMatchObject({ limitMinutes: 40, attemptsAllowed: 3, attemptsLeft: 3, dueAt: '2026-06-08 18:00:00', overdue: true });
    expect((await assignees(closed)).find((row) => row.userId === person!.id)).toMatchObject({ extraMinutes: 10, extraAttempts: 1, closeAt: '2026-06-15 18:00:00' });

    // The clock moves past the personal window and the upcoming one's opening, and then past the
    // exams' own window (sessions idle that long have ended: a fresh login each time).
    clock.set(new Date(2026, 5, 21).getTime());
    expect((await siteExams(await loginAs(app, person!.username))).map((exam) => [exam.title, exam.state])).toEqual([
      ['Closed', 'closed'],
      ['Upcoming', 'open'],
      ['Open', 'open'],
    ]);
    clock.set(new Date(2026, 6, 1).getTime());
    // Closed: nothing can be done about it any more, so no longer overdue either.
    expect((await siteExams(await loginAs(app, person!.username))).every((exam) => exam.state === 'closed' && !exam.overdue)).toBe(true);
    clock.set(NOW);
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');

    // The other learner sees only theirs.
    expect((await siteExams(await loginAs(app, other!.username))).map((exam) => exam.title)).toEqual(['Not mine']);

    expectRefusal(await call(app, 'PUT', `/api/exams/${open}/assignees`, admin, { ids: [99999] }), 404, 'ids');
    expectRefusal(await call(app, 'PUT', `/api/exams/${open}/assignees`, admin, { ids: [await rowOf(open)], extraMinutes: -1 }), 400, 'extraMinutes');
    expectRefusal(await call(app, 'PUT', `/api/exams/${open}/assignees`, admin, { ids: [await rowOf(closed)] }), 404, 'ids');
  });

  it('removes assignees, and a deleted person’s assignments go with them', async () => {
    const exam = await published();
    const [leaving, staying] = await insertPeople(app, 2);
    await assign(admin, exam, { target: 'users', ids: [leaving!.id, staying!.id] });
    const rows = await assignees(exam);
    const stayingRow = rows.find((row) => row.userId === staying!.id)!;
    expectRefusal(await call(app, 'DELETE', `/api/exams/${exam}/assignees`, admin, [99999]), 404, 'ids');
    expectRefusal(await call(app, 'DELETE', `/api/exams/${exam}/assignees`, admin, []), 400, 'body');
    const removed = await call(app, 'DELETE', `/api/exams/${exam}/assignees`, admin, [stayingRow.id]);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await assignees(exam)).map((row) => row.userId)).toEqual([leaving!.id]);

    const deleted = await call(app, 'DELETE', '/api/users', admin, [leaving!.id]);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await db(app).selectFrom('edu_exam_assignee').select('id').where('user_id', '=', leaving!.id).execute()).toEqual([]);
  });

  describe('data scope', () => {
    // The teacher's scope is 培训部 with 讲师组 and 学员服务组, and 研发部; not 市场部 (learner2).
    it('lets staff see and assign only the people of their departments', async () => {
      const exam = await published();
      await assign(admin, exam, { target: 'users', ids: [await userId(app, 'learner2'), await userId(app, 'learner3')] });
      expect(await usernames(exam, teacher)).toEqual(['learner3']);
      expect(await usernames(exam, admin)).toEqual(['learner2', 'learner3']);

      const outside = await call(app, 'POST', `/api/exams/${exam}/assignees`, teacher, { target: 'users', ids: [await userId(app, 'learner2')] });
      expect(expectRefusal(outside, 403, 'ids')).toBe('ids: learner2 is outside the departments you manage');
      const outsideDept = await call(app, 'POST', `/api/exams/${exam}/assignees`, teacher, { target: 'dept', ids: [await deptId(app, '市场部')] });
      expect(expectRefusal(outsideDept, 403, 'ids')).toBe('ids: the department 市场部 is outside the departments you manage');
      expect(await assign(teacher, exam, { target: 'users', ids: [await userId(app, 'teacher')] })).toMatchObject({ created: 1 });

      const learner2Row = (await assignees(exam)).find((row) => row.username === 'learner2')!.id;
      expectRefusal(await call(app, 'PUT', `/api/exams/${exam}/assignees`, teacher, { ids: [learner2Row], extraMinutes: 5 }), 403, 'ids');
      expectRefusal(await call(app, 'DELETE', `/api/exams/${exam}/assignees`, teacher, [learner2Row]), 403, 'ids');
      expect(await usernames(exam, admin)).toEqual(['learner2', 'learner3', 'teacher']);
    });

    it('bounds a role or term rule by its author’s departments, now and for people who come later', async () => {
      const course = await createCourse(app, teacher, { title: 'Scoped', status: 'published' });
      const term = await createTerm(app, teacher, course, { name: 'Scoped term', startAt: '2026-06-01 00:00:00', endAt: '2026-12-31 00:00:00' });
      await insertApplicant(app, term, 'learner2', 'approved');
      await insertApplicant(app, term, 'learner3', 'approved');
      const exam = await published({ termId: term });
      // learner2 (市场部) is enrolled but outside the teacher's departments.
      expect(await assign(teacher, exam, { target: 'term', ids: [term] })).toMatchObject({ created: 1, existing: 0 });
      expect(await usernames(exam, admin)).toEqual(['learner3']);

      const [inside] = await insertPeople(app, 1, await deptId(app, '讲师组'));
      const [outside] = await insertPeople(app, 1, await deptId(app, '市场部'));
      const enrol = await call(app, 'POST', '/api/applicants', admin, { termId: term, userIds: [inside!.id, outside!.id] });
      expect(enrol.statusCode, enrol.body).toBe(201);
      await app.services.jobs.runDue();
      expect(await usernames(exam, admin)).toEqual(['learner3', inside!.username].sort());

      // The administrator's rule reaches everyone.
      const everyone = await published({ termId: term });
      expect(await assign(admin, everyone, { target: 'term', ids: [term] })).toMatchObject({ created: 4 });
    });
  });
});
