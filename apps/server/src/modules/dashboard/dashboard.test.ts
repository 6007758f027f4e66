import { DEFAULT_TIME_ZONE, startOfDay } from '@cloud-classroom/shared/calendar-day';
import { trainingDashboardSchema, type TrainingDashboard } from '@cloud-classroom/shared/dashboard';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettableClock } from '../../clock.js';
import { insertAttempt, userIdOf } from '../../test/attempt-row-fixtures.js';
import { createCourse, createTerm, db, expectRefusal } from '../../test/course-fixtures.js';
import { addQuestion, createExam, fixedPaper } from '../../test/exam-fixtures.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

describe('dashboard routes refuse outsiders', () => {
  const { app, learner } = itRefusesOutsiders([['GET', '/api/dashboard/training']]);

  it.each(['days=6', 'days=91', 'days=ten', 'days=7.5'])('answers 400 to %s', async (query) => {
    // The learner is refused before the query is read; the administrator is not.
    expect((await call(app(), 'GET', `/api/dashboard/training?${query}`, learner())).statusCode).toBe(403);
    const admin = await loginAs(app(), 'admin');
    expectRefusal(await call(app(), 'GET', `/api/dashboard/training?${query}`, admin), 400, 'days');
  });
});

/**
 * Known data on a Wednesday (10 June 2026, 14:00 in the organisation's zone, the test app's default
 * whatever zone the machine runs in; the week began on Monday the 8th),
 * over the seed's people: learner1 in 研发部 and learner3 in 学员服务组, both within the demo
 * teacher's data scope (培训部 and 研发部 with their subtrees), the teacher in 讲师组, and learner2
 * in 市场部, outside it.
 */
describe('training dashboard', () => {
  let app: FastifyInstance;
  let admin: string;
  let teacher: string;
  let courseId: number;
  let openExam: number;
  let closedExam: number;
  const on = (month: number, day: number, hour: number) =>
    startOfDay(`2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`, DEFAULT_TIME_ZONE) + hour * 3_600_000;
  const at = (day: number, hour = 10) => on(6, day, hour);
  const now = at(10, 14);

  beforeAll(async () => {
    app = await buildTestApp({}, { clock: new SettableClock(now) });
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');
    const id = (username: string) => userIdOf(app, username);

    // Study: learner3's Sunday is last week's; learner1's 1 June is before a 7-day chart.
    const study: [string, string, number][] = [
      ['learner1', '2026-06-10', 600],
      ['learner2', '2026-06-10', 900],
      ['learner1', '2026-06-08', 1200],
      ['teacher', '2026-06-08', 60],
      ['learner3', '2026-06-07', 60],
      ['learner1', '2026-06-01', 300],
    ];
    for (const [username, day, seconds] of study) {
      await db(app).insertInto('edu_study_day').values({ user_id: await id(username), day, seconds }).execute();
    }

    courseId = await createCourse(app, admin, { title: 'Fire safety' });
    const termId = await createTerm(app, admin, courseId);
    const enrol = async (username: string, status: string, createdAt: number, dueAt: number | null, completedAt: number | null = null) =>
      db(app)
        .insertInto('edu_applicant')
        .values({ term_id: termId, user_id: await id(username), status, source: 'staff', due_at: dueAt, reason: null, rule_id: null, completed_at: completedAt, create_by: 'admin', update_by: 'admin', create_time: createdAt, update_time: createdAt })
        .execute();
    await enrol('learner1', 'completed', at(5), at(30), at(9));
    await enrol('learner2', 'in_progress', at(9), at(9, 9));
    await enrol('learner3', 'approved', on(4, 1, 0), at(1));

    const question = await addQuestion(app, admin, { score: 5 });
    openExam = await createExam(app, admin, fixedPaper([question]), { title: 'Open drill', passScore: 5 });
    closedExam = await createExam(app, admin, fixedPaper([question]), { title: 'Closed drill', passScore: 5 });
    await db(app).updateTable('edu_exam').set({ status: 'published', open_at: null, close_at: null }).where('id', '=', openExam).execute();
    await db(app).updateTable('edu_exam').set({ status: 'published', open_at: at(1), close_at: at(5), counts: 'best' }).where('id', '=', closedExam).execute();
    const assign = async (examId: number, username: string, dueAt: number | null) =>
      db(app)
        .insertInto('edu_exam_assignee')
        .values({ exam_id: examId, user_id: await id(username), source: 'staff', rule_id: null, due_at: dueAt, extra_minutes: 0, extra_attempts: 0, open_at: null, close_at: null, create_by: 'admin', create_time: at(1), update_time: at(1) })
        .execute();
    await assign(openExam, 'learner1', at(9)); // passed: not overdue
    await assign(openExam, 'learner2', at(1)); // still sitting it: overdue
    await assign(openExam, 'learner3', at(9)); // never sat it: overdue
    await assign(closedExam, 'learner2', at(5)); // passed
    await assign(closedExam, 'learner3', at(5)); // failed: overdue
    const sit = (examId: number, username: string, response: 'A' | 'B', startedAt: number, number = 1, submitted = true) =>
      insertAttempt(app, { examId, username, number, startedAt, submitted, answers: [{ questionId: question, maxScore: 5, response }] });
    await sit(openExam, 'learner1', 'A', at(9));
    await sit(openExam, 'learner2', 'A', now - 600_000, 1, false);
    // The best of learner1's two counts: a pass.
    await sit(closedExam, 'learner1', 'B', at(3));
    await sit(closedExam, 'learner1', 'A', at(4), 2);
    await sit(closedExam, 'learner2', 'A', at(4));
    await sit(closedExam, 'learner3', 'B', at(4));

    let certificates = 0;
    const certify = async (username: string, issuedAt: number, more: { expires_at?: number; revoked_at?: number; superseded_by?: number } = {}) => {
      certificates += 1;
      await db(app)
        .insertInto('edu_certificate')
        .values({
          template_id: 1,
          template_version_id: 1,
          user_id: await id(username),
          number: `CC-2026-${certificates}`,
          code: `code${certificates}`,
          snapshot: '{}',
          holder_name: username,
          title: 'Fire safety',
          source: 'staff',
          exam_id: null,
          term_id: null,
          issued_at: issuedAt,
          expires_at: more.expires_at ?? null,
          revoked_at: more.revoked_at ?? null,
          revoked_by: null,
          revoke_reason: null,
          superseded_by: more.superseded_by ?? null,
          superseded_at: more.superseded_by === undefined ? null : issuedAt,
          supersedes: null,
          create_by: 'admin',
          create_time: issuedAt,
          rule_id: null,
        })
        .execute();
    };
    await certify('learner1', at(9));
    await certify('learner2', at(9));
    await certify('learner3', at(5));
    await certify('learner3', on(5, 1, 0), { expires_at: at(1) });
    await certify('learner3', at(5), { revoked_at: at(6) });
    await certify('learner1', at(2), { superseded_by: 1 });
  });
  afterAll(async () => {
    await app.close();
  });

  async function dashboard(token: string, days = 7): Promise<TrainingDashboard> {
    const response = await call(app, 'GET', `/api/dashboard/training?days=${days}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return trainingDashboardSchema.parse(response.json());
  }

  it('counts everyone for an administrator, worked out by hand', async () => {
    const figures = await dashboard(admin);
    expect(figures.today).toBe('2026-06-10');
    expect(figures.weekStart).toBe('2026-06-08');
    // Today: learner1 and learner2 studied (learner2 also sits an exam). Since Monday: and the teacher.
    expect([figures.activeToday, figures.activeThisWeek]).toEqual([2, 3]);
    expect(figures.days.map((day) => day.date)).toEqual(['2026-06-04', '2026-06-05', '2026-06-06', '2026-06-07', '2026-06-08', '2026-06-09', '2026-06-10']);
    expect(figures.days.map((day) => [day.studySeconds, day.learners])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
      [60, 1],
      [1260, 2],
      [0, 0],
      [1500, 2],
    ]);
    expect(figures.days.map((day) => [day.enrolments, day.completions])).toEqual([
      [0, 0],
      [1, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [1, 1],
      [0, 0],
    ]);
    expect(figures.enrolments).toEqual({ applied: 0, active: 2, completed: 1, enrolledInPeriod: 2, completedInPeriod: 1 });
    expect(figures.openExams).toEqual({ total: 1, inProgress: 1, exams: [{ examId: openExam, title: 'Open drill', closeAt: null, assigned: 3, inProgress: 1 }] });
    // The open drill's last submission (9 June) is later than the closed drill's close (5 June).
    expect(figures.recentExams).toEqual([
      { examId: openExam, title: 'Open drill', counted: 1, passed: 1, passRate: 1 },
      { examId: closedExam, title: 'Closed drill', counted: 3, passed: 2, passRate: 0.6667 },
    ]);
    // Revoked, expired and superseded ones are not valid; 2 June is before the 7 days shown.
    expect(figures.certificates).toEqual({ issuedInPeriod: 3, issuedThisWeek: 2, valid: 3 });
    expect(figures.overdue).toEqual({
      enrolments: 2,
      examAssignments: 3,
      courses: [{ courseId, title: 'Fire safety', count: 2 }],
      exams: [
        { examId: openExam, title: 'Open drill', count: 2 },
        { examId: closedExam, title: 'Closed drill', count: 1 },
      ],
    });
  });

  it("counts only the teacher's departments' people for the teacher", async () => {
    const figures = await dashboard(teacher);
    expect([figures.activeToday, figures.activeThisWeek]).toEqual([1, 2]);
    expect(figures.days.map((day) => day.studySeconds)).toEqual([0, 0, 0, 60, 1260, 0, 600]);
    expect(figures.enrolments).toEqual({ applied: 0, active: 1, completed: 1, enrolledInPeriod: 1, completedInPeriod: 1 });
    expect(figures.openExams).toEqual({ total: 1, inProgress: 0, exams: [{ examId: openExam, title: 'Open drill', closeAt: null, assigned: 2, inProgress: 0 }] });
    expect(figures.recentExams).toEqual([
      { examId: openExam, title: 'Open drill', counted: 1, passed: 1, passRate: 1 },
      { examId: closedExam, title: 'Closed drill', counted: 2, passed: 1, passRate: 0.5 },
    ]);
    expect(figures.certificates).toEqual({ issuedInPeriod: 2, issuedThisWeek: 1, valid: 2 });
    expect(figures.overdue).toMatchObject({ enrolments: 1, examAssignments: 2 });
  });

  it('shows 30 days unless asked, today last', async () => {
    const response = await call(app, 'GET', '/api/dashboard/training', admin);
    expect(response.statusCode, response.body).toBe(200);
    const { days } = trainingDashboardSchema.parse(response.json());
    expect(days).toHaveLength(30);
    expect(days[0]?.date).toBe('2026-05-12');
    expect(days.at(-1)?.date).toBe('2026-06-10');
    // 1 June now falls within the chart.
    expect(days.find((day) => day.date === '2026-06-01')).toMatchObject({ studySeconds: 300, learners: 1 });
  });
});
