import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPeople, listApplicants, termRows } from '../../test/applicant-fixtures.js';
import { createChapter, createCourse, createTerm, createTextLesson, db, expectConflict, expectRefusal, insertApplicant, userId } from '../../test/course-fixtures.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { sheetRows } from '../../test/sheet-rows.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

describe('applicants and assignment rules: access', () => {
  const { app } = itRefusesOutsiders([
    ['GET', '/api/applicants'],
    ['GET', '/api/applicants?termId=1'],
    ['GET', '/api/applicants/download'],
    ['GET', '/api/applicants/1'],
    ['POST', '/api/applicants', { termId: 1, userIds: [1] }],
    ['PUT', '/api/applicants', { id: 1, status: 'approved' }],
    ['DELETE', '/api/applicants', [1]],
    ['PUT', '/api/applicants/approve', [1]],
    ['PUT', '/api/applicants/reject', { ids: [1], reason: 'no' }],
    ['GET', '/api/applicants/template'],
    ['POST', '/api/applicants/import?termId=1&dryRun=false'],
    ['GET', '/api/assignment-rules'],
    ['POST', '/api/assignment-rules', { target: 'users', ids: [1], termId: 1 }],
    ['PUT', '/api/assignment-rules', { id: 1, target: 'users', ids: [1], termId: 1 }],
    ['DELETE', '/api/assignment-rules', [1]],
  ]);

  it('nothing was written by the refused calls', async () => {
    expect(await db(app()).selectFrom('edu_applicant').selectAll().execute()).toEqual([]);
    expect(await db(app()).selectFrom('edu_assignment_rule').selectAll().execute()).toEqual([]);
  });
});

describe('applicants', () => {
  let app: FastifyInstance;
  let teacher: string;
  // The administrator, whose scope is everyone: these tests enrol learner2, outside the teacher's departments ('data scope' below).
  let staff: string;
  let course: number;
  let lessons: number[];
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    staff = await loginAs(app, 'admin');
    course = await createCourse(app, teacher, { title: 'Fire safety', status: 'published' });
    const chapter = await createChapter(app, teacher, course);
    lessons = [];
    for (const title of ['One', 'Two', 'Optional']) lessons.push(await createTextLesson(app, teacher, chapter, title));
    await db(app).updateTable('edu_lesson').set({ required: 0 }).where('id', '=', lessons[2] as number).execute();
  });
  afterAll(async () => {
    await app.close();
  });

  const enrol = (body: Record<string, unknown>, token = staff) => call(app, 'POST', '/api/applicants', token, body);
  const idsOf = async (termId: number) => new Map((await listApplicants(app, staff, `?termId=${termId}`)).content.map((row) => [row.username, row.id]));

  it('lets the enrollers read the people, departments and roles they pick from; learners still may not', async () => {
    const learner = await loginAs(app, 'learner1');
    for (const path of ['/api/users?blurry=learner', '/api/dept', '/api/roles/all']) {
      expect((await call(app, 'GET', path, teacher)).statusCode, path).toBe(200);
      expect((await call(app, 'GET', path, learner)).statusCode, path).toBe(403);
    }
    // Within the teacher's data scope (培训部 and below, and 研发部): not learner2 of 市场部.
    const people = (await call(app, 'GET', '/api/users?size=100', teacher)).json() as { content: { username: string; dept: { name: string } | null }[] };
    expect(people.content.length).toBeGreaterThan(0);
    expect(people.content.every((person) => ['培训部', '讲师组', '学员服务组', '研发部'].includes(person.dept?.name ?? ''))).toBe(true);
    expect(people.content.map((person) => person.username)).not.toContain('learner2');
  });

  it('deletes a person’s enrolments, progress and study days with them, in one go, freeing their seat', async () => {
    const admin = await loginAs(app, 'admin');
    const term = await createTerm(app, teacher, course, { name: 'One seat', capacity: 1 });
    const [leaver] = await insertPeople(app, 1);
    expect((await enrol({ termId: term, userIds: [leaver!.id] })).statusCode).toBe(201);
    const leaverToken = await loginAs(app, leaver!.username);
    const report = await call(app, 'POST', `/api/site/lessons/${lessons[0]}/progress`, leaverToken, { sessionId: 'leaver-session-1', page: 1 });
    expect(report.statusCode, report.body).toBe(200);
    const rowsOf = async () =>
      Promise.all(
        (['edu_applicant', 'edu_lesson_progress', 'edu_playback'] as const).map(async (table) =>
          (await db(app).selectFrom(table).select('id').where('user_id', '=', leaver!.id).execute()).length,
        ),
      );
    expect(await rowsOf()).toEqual([1, 1, 1]);

    expect((await call(app, 'DELETE', '/api/users', admin, [leaver!.id])).statusCode).toBe(200);
    expect(await rowsOf()).toEqual([0, 0, 0]);
    // The seat is free again.
    expect((await enrol({ termId: term, userIds: [await userId(app, 'learner2')] })).json()).toEqual({ created: 1, existing: 0 });
  });

  it('enrols people directly, counting those already enrolled as existing, within the term’s seats', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Three seats', capacity: 3 });
    const [learner1, learner2, learner3, teacherId] = await Promise.all(['learner1', 'learner2', 'learner3', 'teacher'].map((name) => userId(app, name)));

    let response = await enrol({ termId: term, userIds: [learner1, learner2, learner1] });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ created: 2, existing: 0 });
    response = await enrol({ termId: term, userIds: [learner1, learner3], dueAt: '2099-01-01 00:00:00' });
    expect(response.json()).toEqual({ created: 1, existing: 1 });
    expect(expectConflict(await enrol({ termId: term, userIds: [teacherId] }))).toBe('userIds: the term is full');
    // Those already in it are no seat short.
    expect((await enrol({ termId: term, userIds: [learner2] })).json()).toEqual({ created: 0, existing: 1 });
    expect(await termRows(app, term)).toMatchObject([
      { username: 'learner1', status: 'approved', source: 'staff', due_at: null },
      { username: 'learner2', status: 'approved', source: 'staff' },
      { username: 'learner3', status: 'approved', source: 'staff', due_at: new Date(2099, 0, 1).getTime() },
    ]);

    const small = await createTerm(app, teacher, course, { name: 'Two seats', capacity: 2 });
    await insertApplicant(app, small, 'learner1', 'applied');
    await insertApplicant(app, small, 'learner2', 'rejected');
    expect(expectConflict(await enrol({ termId: small, userIds: [learner1, learner2, learner3] }))).toBe('userIds: the term has 2 seats left');
    expect((await termRows(app, small)).map((row) => row.status)).toEqual(['applied', 'rejected']);
    // An application or a rejection becomes the staff's enrolment.
    expect((await enrol({ termId: small, userIds: [learner1, learner2] })).json()).toEqual({ created: 2, existing: 0 });
    expect(await termRows(app, small)).toMatchObject([
      { username: 'learner1', status: 'approved', source: 'staff', reason: null },
      { username: 'learner2', status: 'approved', source: 'staff', reason: null },
    ]);
  });

  it('lists a term’s people with their progress in the course and whether they are overdue', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Listed' });
    for (const [username, status] of [
      ['learner1', 'approved'],
      ['learner2', 'in_progress'],
      ['learner3', 'approved'],
      ['teacher', 'applied'],
    ] as const) {
      await insertApplicant(app, term, username, status);
    }
    const ids = await idsOf(term);
    const setDue = async (username: string, dueAt: string, status: string) => {
      const response = await call(app, 'PUT', '/api/applicants', staff, { id: ids.get(username), status, dueAt });
      expect(response.statusCode, response.body).toBe(204);
    };
    await setDue('learner1', '2020-01-01 00:00:00', 'completed');
    await setDue('learner2', '2020-01-01 00:00:00', 'in_progress');
    await setDue('learner3', '2099-01-01 00:00:00', 'approved');
    const progress = async (username: string, lesson: number, completed: boolean) =>
      db(app)
        .insertInto('edu_lesson_progress')
        .values({
          user_id: await userId(app, username),
          lesson_id: lesson,
          course_id: course,
          intervals: '[]',
          covered_seconds: 0,
          pages_read: '[]',
          percent: completed ? 100 : 40,
          position: 0,
          completed_at: completed ? 1 : null,
          updated_at: 1,
        })
        .execute();
    const [one, two, optional] = lessons as [number, number, number];
    await progress('learner1', one, true);
    await progress('learner1', two, true);
    await progress('learner2', one, true);
    await progress('learner2', two, false);
    // Not required: counts for nothing.
    await progress('learner3', optional, true);

    const page = await listApplicants(app, staff, `?termId=${term}&sort=id,asc`);
    expect(page.totalElements).toBe(4);
    expect(page.content).toMatchObject([
      { username: 'learner1', nickName: '李明', deptName: '研发部', termId: term, termName: 'Listed', courseId: course, courseTitle: 'Fire safety', status: 'completed', source: 'staff', percent: 100, overdue: false, dueAt: '2020-01-01 00:00:00' },
      { username: 'learner2', status: 'in_progress', percent: 50, overdue: true },
      { username: 'learner3', status: 'approved', percent: 0, overdue: false, dueAt: '2099-01-01 00:00:00' },
      { username: 'teacher', status: 'applied', percent: 0, overdue: false, dueAt: null },
    ]);
    expect(page.content[0]?.completedAt).not.toBeNull();

    const usernames = async (query: string) => (await listApplicants(app, staff, `?termId=${term}&${query}`)).content.map((row) => row.username);
    expect(await usernames('overdue=true')).toEqual(['learner2']);
    expect(await usernames('q=王')).toEqual(['learner2']);
    expect(await usernames('q=LEARNER3')).toEqual(['learner3']);
    expect(await usernames('status=applied')).toEqual(['teacher']);
    expect(await usernames('source=rule')).toEqual([]);
    expect(await usernames('sort=dueAt,asc&sort=id,asc')).toEqual(['teacher', 'learner1', 'learner2', 'learner3']);
    expect(await usernames('page=1&size=3&sort=id,asc')).toEqual(['teacher']);
    const everyTerm = await listApplicants(app, staff, `?courseId=${course}`);
    expect(everyTerm.content.every((row) => row.courseId === course)).toBe(true);
    expect(everyTerm.totalElements).toBeGreaterThan(4);
    expect((await listApplicants(app, staff, '?courseId=99999')).totalElements).toBe(0);

    // One of them, as the list shows it (the editor's address holds only its id).
    const single = await call(app, 'GET', `/api/applicants/${ids.get('learner2')}`, staff);
    expect(single.statusCode, single.body).toBe(200);
    expect(single.json()).toEqual(page.content[1]);
    expectRefusal(await call(app, 'GET', '/api/applicants/99999', staff), 404, 'id');
    expectRefusal(await call(app, 'GET', '/api/applicants/x', staff), 400, 'id');
    expectRefusal(await call(app, 'GET', '/api/applicants/99999999999', staff), 400, 'id');
  });

  it('downloads the filtered list as a real .xlsx', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Downloaded' });
    await insertApplicant(app, term, 'learner2', 'applied');
    const response = await call(app, 'GET', `/api/applicants/download?termId=${term}`, staff);
    expect(response.statusCode, response.body).toBe(200);
    const rows = await sheetRows(response.rawPayload);
    expect(rows[0]).toEqual(['用户名', '姓名', '部门', '课程', '开课', '状态', '来源', '截止时间', '逾期', '进度(%)', '完成时间', '驳回原因', '报名时间']);
    // Progress belongs to the person and the course, whichever term: learner2 did one of the two lessons before.
    expect(rows.slice(1).map((cells) => cells.slice(0, 10))).toEqual([['learner2', '王芳', '市场部', 'Fire safety', 'Downloaded', '待审核', '管理员添加', undefined, '否', 50]]);
  });

  it('edits one enrolment: completing stamps the time, an enrolled status needs a seat', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Edited', capacity: 1 });
    await insertApplicant(app, term, 'learner1', 'approved');
    await insertApplicant(app, term, 'learner2', 'rejected');
    const ids = await idsOf(term);
    const edit = (username: string, body: Record<string, unknown>) => call(app, 'PUT', '/api/applicants', staff, { id: ids.get(username), ...body });

    expect((await edit('learner1', { status: 'completed', dueAt: '2026-06-30 18:00:00' })).statusCode).toBe(204);
    let rows = await termRows(app, term);
    expect(rows[0]).toMatchObject({ status: 'completed', due_at: new Date(2026, 5, 30, 18).getTime() });
    expect(rows[0]?.completed_at).toBeGreaterThan(0);
    expectRefusal(await edit('learner2', { status: 'approved' }), 409, 'status');
    expect((await edit('learner2', { status: 'rejected', reason: '  Not this time ' })).statusCode).toBe(204);
    expect((await edit('learner1', { status: 'in_progress' })).statusCode).toBe(204);
    rows = await termRows(app, term);
    expect(rows).toMatchObject([
      { username: 'learner1', status: 'in_progress', completed_at: null, due_at: null },
      { username: 'learner2', status: 'rejected', reason: 'Not this time' },
    ]);
    expectRefusal(await call(app, 'PUT', '/api/applicants', staff, { id: 99_999, status: 'approved' }), 404, 'id');
  });

  it('approves applications in bulk within the seats, and refuses ids that are not awaiting approval', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Approvals', capacity: 2, enrolMode: 'approval' });
    for (const username of ['learner1', 'learner2', 'learner3']) await insertApplicant(app, term, username, 'applied');
    await insertApplicant(app, term, 'teacher', 'completed');
    const ids = await idsOf(term);
    const id = (username: string) => ids.get(username) as number;

    // One seat left, two asked for: nothing changes.
    expect(expectConflict(await call(app, 'PUT', '/api/applicants/approve', staff, [id('learner1'), id('learner2')]))).toBe('ids: the term has 1 seat left');
    expect(expectConflict(await call(app, 'PUT', '/api/applicants/approve', staff, [id('learner1'), id('teacher')]))).toBe(
      `ids: only applied applicants can be approved; not ${id('teacher')} (completed)`,
    );
    expect((await termRows(app, term)).map((row) => row.status)).toEqual(['applied', 'applied', 'applied', 'completed']);
    expect((await call(app, 'PUT', '/api/applicants/approve', staff, [id('learner1')])).statusCode).toBe(204);
    expect(expectConflict(await call(app, 'PUT', '/api/applicants/approve', staff, [id('learner2')]))).toBe('ids: the term is full');
    expectRefusal(await call(app, 'PUT', '/api/applicants/approve', staff, [99_999]), 404, 'ids');

    // Rejecting: applied or approved only, all or none; a rejected approval frees its seat.
    expect(expectConflict(await call(app, 'PUT', '/api/applicants/reject', staff, { ids: [id('learner1'), id('teacher')], reason: 'No' }))).toBe(
      `ids: only applied or approved applicants can be rejected; not ${id('teacher')} (completed)`,
    );
    const rejected = await call(app, 'PUT', '/api/applicants/reject', staff, { ids: [id('learner1'), id('learner3')], reason: 'Full this time' });
    expect(rejected.statusCode, rejected.body).toBe(204);
    expect((await call(app, 'PUT', '/api/applicants/approve', staff, [id('learner2')])).statusCode).toBe(204);
    expect(await termRows(app, term)).toMatchObject([
      { username: 'learner1', status: 'rejected', reason: 'Full this time' },
      { username: 'learner2', status: 'approved', reason: null },
      { username: 'learner3', status: 'rejected', reason: 'Full this time' },
      { username: 'teacher', status: 'completed' },
    ]);
  });

  it('deletes enrolments, all or none', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Deleted' });
    await insertApplicant(app, term, 'learner1', 'approved');
    await insertApplicant(app, term, 'learner2', 'applied');
    const ids = [...(await idsOf(term)).values()];
    expectRefusal(await call(app, 'DELETE', '/api/applicants', staff, [...ids, 99_999]), 404, 'ids');
    expect(await termRows(app, term)).toHaveLength(2);
    expect((await call(app, 'DELETE', '/api/applicants', staff, ids)).statusCode).toBe(200);
    expect(await termRows(app, term)).toEqual([]);
  });

  it('records study: approved → in progress → completed, idempotently, leaving applications alone', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Studied' });
    const other = await createCourse(app, teacher, { title: 'Other course' });
    const elsewhere = await createTerm(app, teacher, other, { name: 'Elsewhere' });
    await insertApplicant(app, term, 'learner1', 'approved');
    await insertApplicant(app, term, 'learner2', 'applied');
    await insertApplicant(app, elsewhere, 'learner1', 'approved');
    const { applicants } = app.services;
    const learner1 = await userId(app, 'learner1');
    const statusOf = async (termId: number, username: string) => (await termRows(app, termId)).find((row) => row.username === username);

    await applicants.recordProgress(learner1, course, { completed: false });
    expect(await statusOf(term, 'learner1')).toMatchObject({ status: 'in_progress', completed_at: null });
    await applicants.recordProgress(learner1, course, { completed: false });
    expect(await statusOf(term, 'learner1')).toMatchObject({ status: 'in_progress' });
    await applicants.recordProgress(learner1, course, { completed: true });
    const done = await statusOf(term, 'learner1');
    expect(done).toMatchObject({ status: 'completed' });
    expect(done?.completed_at).toBeGreaterThan(0);
    // A completed course stays completed, with its first completion time.
    await applicants.recordProgress(learner1, course, { completed: false });
    await applicants.recordProgress(learner1, course, { completed: true });
    expect(await statusOf(term, 'learner1')).toEqual(done);
    expect(await statusOf(elsewhere, 'learner1')).toMatchObject({ status: 'approved' });
    await applicants.recordProgress(await userId(app, 'learner2'), course, { completed: true });
    expect(await statusOf(term, 'learner2')).toMatchObject({ status: 'applied', completed_at: null });
    // Inside a caller's transaction too.
    await app.services.database.db.transaction().execute((trx) => applicants.within(trx).recordProgress(learner1, other, { completed: true }));
    expect(await statusOf(elsewhere, 'learner1')).toMatchObject({ status: 'completed' });
  });

  describe('data scope', () => {
    // The teacher manages 培训部 (讲师组, 学员服务组) and 研发部: learner1, learner3 and themselves;
    // not learner2 (市场部) nor admin (云课堂, the root).
    it('lists, reads and exports only the enrolments of people within the staff’s departments', async () => {
      const term = await createTerm(app, teacher, course, { name: 'Scoped list' });
      for (const username of ['learner1', 'learner2', 'learner3', 'admin']) await insertApplicant(app, term, username, 'approved');
      const page = await listApplicants(app, teacher, `?termId=${term}&sort=id,asc`);
      expect(page.content.map((row) => row.username)).toEqual(['learner1', 'learner3']);
      expect(page.totalElements).toBe(2);
      expect(page.outsideScope).toBe(2);
      // The course's other terms hold more of learner2's enrolments: each is counted, none shown.
      const theirs = await listApplicants(app, teacher, `?courseId=${course}&q=learner2`);
      expect(theirs.totalElements).toBe(0);
      expect(theirs.outsideScope).toBe((await listApplicants(app, staff, `?courseId=${course}&q=learner2`)).totalElements);
      expect(await listApplicants(app, staff, `?termId=${term}`)).not.toHaveProperty('outsideScope');
      expect((await listApplicants(app, staff, `?termId=${term}&sort=id,asc`)).content.map((row) => row.username)).toEqual(['learner1', 'learner2', 'learner3', 'admin']);

      const all = new Map((await listApplicants(app, staff, `?termId=${term}`)).content.map((row) => [row.username, row.id]));
      expect((await call(app, 'GET', `/api/applicants/${all.get('learner1')}`, teacher)).statusCode).toBe(200);
      // Someone else's enrolment reads as none, as a certificate outside the scope does.
      expect(expectRefusal(await call(app, 'GET', `/api/applicants/${all.get('learner2')}`, teacher), 404, 'id')).toBe(`id: no applicant ${all.get('learner2')}`);
      expectRefusal(await call(app, 'GET', `/api/applicants/${all.get('admin')}`, teacher), 404, 'id');

      const download = await call(app, 'GET', `/api/applicants/download?termId=${term}&sort=id,asc`, teacher);
      expect(download.statusCode, download.body).toBe(200);
      expect((await sheetRows(download.rawPayload)).slice(1).map((cells) => cells[0])).toEqual(['learner1', 'learner3']);
    });

    it('refuses to enrol, edit, approve, reject or delete people outside them, changing nothing', async () => {
      const term = await createTerm(app, teacher, course, { name: 'Scoped writes', enrolMode: 'approval' });
      await insertApplicant(app, term, 'learner1', 'applied');
      await insertApplicant(app, term, 'learner2', 'applied');
      const all = await db(app).selectFrom('edu_applicant').select('id').where('term_id', '=', term).orderBy('id').execute();
      const [inside, outside] = all.map((row) => row.id) as [number, number];
      const before = await termRows(app, term);

      const enrolled = await enrol({ termId: term, userIds: [await userId(app, 'learner3'), await userId(app, 'learner2')] }, teacher);
      expect(expectRefusal(enrolled, 403, 'userIds')).toBe('userIds: learner2 is outside the departments you manage');
      expectRefusal(await enrol({ termId: term, userIds: [await userId(app, 'admin')] }, teacher), 403, 'userIds');
      const edited = await call(app, 'PUT', '/api/applicants', teacher, { id: outside, status: 'approved', dueAt: '2099-01-01 00:00:00' });
      expect(expectRefusal(edited, 403, 'id')).toBe('id: learner2 is outside the departments you manage');
      expectRefusal(await call(app, 'PUT', '/api/applicants/approve', teacher, [inside, outside]), 403, 'ids');
      expectRefusal(await call(app, 'PUT', '/api/applicants/reject', teacher, { ids: [outside], reason: 'No' }), 403, 'ids');
      expect(expectRefusal(await call(app, 'DELETE', '/api/applicants', teacher, [inside, outside]), 403, 'ids')).toBe('ids: learner2 is outside the departments you manage');
      expect(await termRows(app, term)).toEqual(before);

      // Within them, all as before.
      expect((await call(app, 'PUT', '/api/applicants/approve', teacher, [inside])).statusCode).toBe(204);
      expect((await enrol({ termId: term, userIds: [await userId(app, 'learner3')] }, teacher)).json()).toEqual({ created: 1, existing: 0 });
      expect((await termRows(app, term)).map((row) => [row.username, row.status])).toEqual([
        ['learner1', 'approved'],
        ['learner2', 'applied'],
        ['learner3', 'approved'],
      ]);
    });
  });

  it('refuses bad queries and bodies naming the field', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Refusals' });
    const learner1 = await userId(app, 'learner1');
    expectRefusal(await call(app, 'GET', '/api/applicants?termId=3000000000', teacher), 400, 'termId');
    expectRefusal(await call(app, 'GET', '/api/applicants?courseId=x', teacher), 400, 'courseId');
    expectRefusal(await call(app, 'GET', '/api/applicants?status=lost', teacher), 400, 'status');
    expectRefusal(await call(app, 'GET', '/api/applicants?source=magic', teacher), 400, 'source');
    expectRefusal(await call(app, 'GET', '/api/applicants?overdue=yes', teacher), 400, 'overdue');
    expectRefusal(await call(app, 'GET', '/api/applicants?sort=percent,asc', teacher), 400, 'sort');
    expectRefusal(await call(app, 'GET', '/api/applicants/download?termId=0', teacher), 400, 'termId');
    expectRefusal(await enrol({ termId: term, userIds: [] }), 400, 'userIds');
    expectRefusal(await enrol({ termId: term, userIds: [3_000_000_000] }), 400, 'userIds.0');
    expectRefusal(await enrol({ termId: 3_000_000_000, userIds: [learner1] }), 400, 'termId');
    expectRefusal(await enrol({ termId: 99_999, userIds: [learner1] }), 400, 'termId');
    expectRefusal(await enrol({ termId: term, userIds: [99_999] }), 400, 'userIds');
    expectRefusal(await enrol({ termId: term, userIds: [learner1], dueAt: 'tomorrow' }), 400, 'dueAt');
    expectRefusal(await call(app, 'PUT', '/api/applicants', teacher, { id: 1, status: 'finished' }), 400, 'status');
    expectRefusal(await call(app, 'PUT', '/api/applicants', teacher, { id: 3_000_000_000, status: 'approved' }), 400, 'id');
    expectRefusal(await call(app, 'PUT', '/api/applicants', teacher, { id: 1, status: 'rejected', reason: 'x'.repeat(501) }), 400, 'reason');
    expectRefusal(await call(app, 'DELETE', '/api/applicants', teacher, []), 400, 'body');
    expectRefusal(await call(app, 'DELETE', '/api/applicants', teacher, [3_000_000_000]), 400, 'body.0');
    expectRefusal(await call(app, 'PUT', '/api/applicants/approve', teacher, ['x']), 400, 'body.0');
    expectRefusal(await call(app, 'PUT', '/api/applicants/reject', teacher, { ids: [1] }), 400, 'reason');
    expectRefusal(await call(app, 'PUT', '/api/applicants/reject', teacher, { ids: [1], reason: '   ' }), 400, 'reason');
    expectRefusal(await call(app, 'PUT', '/api/applicants/reject', teacher, { ids: [], reason: 'No' }), 400, 'ids');
    expect(await termRows(app, term)).toEqual([]);
  });
});
