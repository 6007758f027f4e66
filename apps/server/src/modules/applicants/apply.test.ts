import { appliedSchema } from '@cloud-classroom/shared/progress';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPeople, termRows } from '../../test/applicant-fixtures.js';
import { createCourse, createTerm, db, expectConflict, expectRefusal, insertApplicant } from '../../test/course-fixtures.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

describe('POST /api/site/courses/{id}/apply', () => {
  let app: FastifyInstance;
  let teacher: string;
  let learner: string;
  let course: number;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    learner = await loginAs(app, 'learner1');
    course = await createCourse(app, teacher, { title: 'Published', status: 'published' });
  });
  afterAll(async () => {
    await app.close();
  });

  const apply = (termId: unknown, token = learner, courseId: unknown = course) => call(app, 'POST', `/api/site/courses/${courseId}/apply`, token, { termId });
  const future = { startAt: '2026-01-01 09:00:00', endAt: '2099-01-01 18:00:00' };

  it('needs a session, and refuses bad input naming the field', async () => {
    const term = await createTerm(app, teacher, course, future);
    expect((await call(app, 'POST', `/api/site/courses/${course}/apply`, undefined, { termId: term })).statusCode).toBe(401);
    expectRefusal(await apply(undefined), 400, 'termId');
    expectRefusal(await apply('x'), 400, 'termId');
    expectRefusal(await apply(3_000_000_000), 400, 'termId');
    expectRefusal(await apply(term, learner, 3_000_000_000), 400, 'id');
    expectRefusal(await apply(term, learner, 'abc'), 400, 'id');
    expectRefusal(await apply(term, learner, 99_999), 404, 'id');
    expectRefusal(await apply(99_999), 400, 'termId');
    const other = await createCourse(app, teacher, { title: 'Other', status: 'published' });
    expectRefusal(await apply(await createTerm(app, teacher, other, future)), 400, 'termId');
    // A draft course is not there for learners.
    const draft = await createCourse(app, teacher, { title: 'Draft' });
    expectRefusal(await apply(await createTerm(app, teacher, draft, future), learner, draft), 404, 'id');
    expect(await termRows(app, term)).toEqual([]);
  });

  it('enrols at once in an open term, and answers the same enrolment to a second application', async () => {
    const term = await createTerm(app, teacher, course, { ...future, name: 'Open', enrolMode: 'open' });
    const first = await apply(term);
    expect(first.statusCode, first.body).toBe(201);
    const applied = appliedSchema.parse(first.json());
    expect(applied.status).toBe('approved');
    const again = await apply(term);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(applied);
    expect(await termRows(app, term)).toMatchObject([{ username: 'learner1', status: 'approved', source: 'self', due_at: null }]);
  });

  it('records an application in an approval term, which takes no seat until approved', async () => {
    const term = await createTerm(app, teacher, course, { ...future, name: 'Approval', enrolMode: 'approval', capacity: 1 });
    await insertApplicant(app, term, 'learner2', 'applied');
    const response = await apply(term);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ status: 'applied' });
    expect((await apply(term)).json()).toMatchObject({ status: 'applied' });
    expect((await termRows(app, term)).map((row) => [row.username, row.status])).toEqual([
      ['learner1', 'applied'],
      ['learner2', 'applied'],
    ]);
  });

  it('refuses an assigned term, a full one and one that has ended', async () => {
    const assigned = await createTerm(app, teacher, course, { ...future, enrolMode: 'assigned' });
    const refused = await apply(assigned);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'termId: this term is by assignment only' });
    const full = await createTerm(app, teacher, course, { ...future, capacity: 1 });
    await insertApplicant(app, full, 'learner2', 'in_progress');
    expect(expectConflict(await apply(full))).toBe('termId: the term is full');
    const ended = await createTerm(app, teacher, course, { startAt: '2020-01-01 09:00:00', endAt: '2020-02-01 09:00:00' });
    expect(expectConflict(await apply(ended))).toBe('termId: the term has ended');
    for (const term of [assigned, full, ended]) expect((await termRows(app, term)).filter((row) => row.username === 'learner1')).toEqual([]);
  });

  it('lets someone rejected apply afresh: their row awaits approval again, even in an open term', async () => {
    const term = await createTerm(app, teacher, course, { ...future, name: 'Second chance' });
    await insertApplicant(app, term, 'learner1', 'rejected');
    await db(app).updateTable('edu_applicant').set({ reason: 'Incomplete', source: 'staff' }).where('term_id', '=', term).execute();
    const [before] = await db(app).selectFrom('edu_applicant').select('id').where('term_id', '=', term).execute();
    const response = await apply(term);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ id: before?.id, status: 'applied' });
    expect(await termRows(app, term)).toMatchObject([{ username: 'learner1', status: 'applied', source: 'self', reason: null }]);
  });

  it('never overbooks: 20 people applying at once for 5 seats get 5 places and 15 refusals', async () => {
    const term = await createTerm(app, teacher, course, { ...future, name: 'Rush', capacity: 5 });
    const people = await insertPeople(app, 20);
    const tokens = await Promise.all(people.map((person) => loginAs(app, person.username)));
    const answers = await Promise.all(tokens.map((token) => apply(term, token)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(5).fill(201), ...Array<number>(15).fill(409)]);
    for (const answer of answers.filter((one) => one.statusCode === 409)) expect(answer.json()).toMatchObject({ message: 'termId: the term is full' });
    const rows = await termRows(app, term);
    expect(rows).toHaveLength(5);
    expect(rows.every((row) => row.status === 'approved')).toBe(true);
  });
});
