import { DUE_SOON_BEFORE_MS, CERTIFICATE_EXPIRING_BEFORE_MS, type NotificationPushMessage } from '@cloud-classroom/shared/notification-kinds';
import { notificationPageSchema, notificationPreferencesSchema, notificationSchema, type Notification } from '@cloud-classroom/shared/notifications';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SettableClock } from '../../clock.js';
import { insertPeople } from '../../test/applicant-fixtures.js';
import { insertApplicant, createCourse, createTerm, created, db, userId } from '../../test/course-fixtures.js';
import { publishedExam, startAttempt, submitAttempt } from '../../test/attempt-fixtures.js';
import { addQuestions, examBody, fixedPaper } from '../../test/exam-fixtures.js';
import { buildTestApp, buildTestAppPair, call, loginAs } from '../../test/test-app.js';

// Through the real app on a real database, with real sockets: each event tells its person once,
// after its write's commit, on whichever process holds their socket.

type ClientSocket = {
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  close(): void;
};
// As in websocket.test.ts: `ws` ships no types, and a specifier TypeScript does not resolve keeps it typed by the shape above.
const WS_PACKAGE = 'ws';
const { WebSocket } = (await import(WS_PACKAGE)) as { WebSocket: new (url: string) => ClientSocket };

type Pushed = NotificationPushMessage<Notification>;

/** A socket of `token`'s session on the listening app; `next()` answers the next notification pushed to it. */
async function openSocket(app: FastifyInstance, token: string) {
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the app is not listening');
  const socket = new WebSocket(`ws://127.0.0.1:${address.port}/websocket?token=${encodeURIComponent(token)}`);
  const received: Pushed[] = [];
  let waiting: ((message: Pushed) => void) | undefined;
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Pushed;
    if (message.type !== 'notification') return;
    if (waiting === undefined) received.push(message);
    else {
      const resolve = waiting;
      waiting = undefined;
      resolve(message);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.on('open', resolve);
    socket.on('error', reject);
  });
  return {
    received,
    next: () => {
      const first = received.shift();
      return first !== undefined ? Promise.resolve(first) : new Promise<Pushed>((resolve) => (waiting = resolve));
    },
    close: () => socket.close(),
  };
}

async function listOf(app: FastifyInstance, token: string, query = '') {
  const response = await call(app, 'GET', `/api/site/notifications${query}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return notificationPageSchema.parse(response.json());
}

const DAY_MS = 24 * 60 * 60 * 1000;

describe('notification routes', () => {
  let app: FastifyInstance;
  let learner: string;
  beforeAll(async () => {
    app = await buildTestApp();
    learner = await loginAs(app, 'learner1');
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['GET', '/api/site/notifications', undefined],
    ['PUT', '/api/site/notifications/read', { ids: [1] }],
    ['PUT', '/api/site/notifications/read-all', undefined],
    ['GET', '/api/site/notification-preferences', undefined],
    ['PUT', '/api/site/notification-preferences', { due_soon: false }],
  ] as const)('%s %s answers 401 without a session', async (method, url, payload) => {
    const response = await call(app, method, url, undefined, payload);
    expect(response.statusCode).toBe(401);
  });

  it.each([
    ['GET', '/api/site/notifications?size=0', undefined, 'size'],
    ['GET', '/api/site/notifications?unread=maybe', undefined, 'unread'],
    ['PUT', '/api/site/notifications/read', { ids: [] }, 'ids'],
    ['PUT', '/api/site/notifications/read', { ids: ['x'] }, 'ids'],
    ['PUT', '/api/site/notifications/read', {}, 'ids'],
    ['PUT', '/api/site/notification-preferences', { nothing: true }, ''],
    ['PUT', '/api/site/notification-preferences', { due_soon: 'no' }, 'due_soon'],
  ] as const)('%s %s with %j answers 400 naming %s', async (method, url, payload, field) => {
    const response = await call(app, method, url, learner, payload);
    expect(response.statusCode, response.body).toBe(400);
    expect((response.json() as { message: string }).message.startsWith(field)).toBe(true);
  });

  it('starts empty, with every kind on', async () => {
    expect(await listOf(app, learner)).toEqual({ content: [], totalElements: 0, unreadCount: 0 });
    const preferences = notificationPreferencesSchema.parse((await call(app, 'GET', '/api/site/notification-preferences', learner)).json());
    expect(Object.values(preferences).every((on) => on)).toBe(true);
  });
});

describe('notifications of events', () => {
  const clock = new SettableClock(new Date(2026, 2, 1, 9, 0, 0).getTime());
  let app: FastifyInstance;
  let admin: string;
  let learner1: string;
  let learner2: string;
  let courseId: number;
  let termId: number;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    app = await buildTestApp({}, { clock });
    await app.listen({ port: 0, host: '127.0.0.1' });
    admin = await loginAs(app, 'admin');
    learner1 = await loginAs(app, 'learner1');
    learner2 = await loginAs(app, 'learner2');
    for (const name of ['learner1', 'learner2', 'learner3']) ids[name] = await userId(app, name);
    courseId = await createCourse(app, admin, { title: 'Fire safety' });
    termId = await createTerm(app, admin, courseId, { enrolMode: 'approval' });
  });
  afterAll(async () => {
    await app.close();
  });

  /** Moves the clock; sessions idle that long have ended, so everyone logs in again. */
  const moveTo = async (time: number) => {
    clock.set(time);
    admin = await loginAs(app, 'admin');
    learner1 = await loginAs(app, 'learner1');
    learner2 = await loginAs(app, 'learner2');
  };

  const enrol = async (userIds: number[], dueAt?: number) => {
    const response = await call(app, 'POST', '/api/applicants', admin, { termId, userIds, ...(dueAt === undefined ? {} : { dueAt: formatDateTime(dueAt) }) });
    expect(response.statusCode, response.body).toBe(201);
  };

  it('tells a learner once that staff assigned them a course, on their open socket at once', async () => {
    const socket = await openSocket(app, learner1);
    try {
      await enrol([ids.learner1 as number], clock.now() + 5 * DAY_MS);
      const pushed = await socket.next();
      expect(pushed).toMatchObject({ type: 'notification', unreadCount: 1, notification: { kind: 'course_assigned', params: { title: 'Fire safety' }, link: `/learning/${courseId}`, readTime: null } });
      notificationSchema.parse(pushed.notification);
      // Enrolled again: nothing new.
      await enrol([ids.learner1 as number]);
      const page = await listOf(app, learner1);
      expect(page.unreadCount).toBe(1);
      expect(page.content.map((notification) => notification.kind)).toEqual(['course_assigned']);
    } finally {
      socket.close();
    }
  });

  it('marks only the reader’s own notifications read, one by one or all at once', async () => {
    const [mine] = (await listOf(app, learner1)).content;
    const others = await call(app, 'PUT', '/api/site/notifications/read', learner2, { ids: [mine?.id] });
    expect(others.statusCode).toBe(200);
    expect((await listOf(app, learner1)).unreadCount).toBe(1);
    const read = await call(app, 'PUT', '/api/site/notifications/read', learner1, { ids: [mine?.id] });
    expect(read.json()).toEqual({ unreadCount: 0 });
    const [after] = (await listOf(app, learner1)).content;
    expect(after?.readTime).not.toBeNull();
    expect((await listOf(app, learner1, '?unread=true')).totalElements).toBe(0);
    expect((await call(app, 'PUT', '/api/site/notifications/read-all', learner1)).json()).toEqual({ unreadCount: 0 });
  });

  it('reminds of a due date 3 days before it, once, and not when the enrolment is done', async () => {
    const dueAt = clock.now() + 5 * DAY_MS;
    await moveTo(dueAt - DUE_SOON_BEFORE_MS + 60_000);
    await app.services.jobs.runDue();
    await app.services.jobs.runDue();
    const dueSoon = (await listOf(app, learner1)).content.filter((notification) => notification.kind === 'due_soon');
    expect(dueSoon).toHaveLength(1);
    expect(dueSoon[0]).toMatchObject({ params: { title: 'Fire safety', at: formatDateTime(dueAt) }, link: `/learning/${courseId}` });
    // Told again by hand (a job run twice after a crash): still one.
    const [applicant] = await db(app).selectFrom('edu_applicant').select('id').where('user_id', '=', ids.learner1 as number).execute();
    await app.services.notifications.dueSoon({ applicantId: applicant?.id as number, dueAt });
    expect((await listOf(app, learner1)).content.filter((notification) => notification.kind === 'due_soon')).toHaveLength(1);

    // learner2's enrolment, completed before its reminder is due: the job finds nothing to tell.
    const laterDue = clock.now() + 5 * DAY_MS;
    await enrol([ids.learner2 as number], laterDue);
    await db(app).updateTable('edu_applicant').set({ status: 'completed' }).where('user_id', '=', ids.learner2 as number).execute();
    await moveTo(laterDue - DUE_SOON_BEFORE_MS + 60_000);
    expect(await app.services.jobs.runDue()).toBeGreaterThan(0);
    expect((await listOf(app, learner2)).content.filter((notification) => notification.kind === 'due_soon')).toEqual([]);
  });

  it('writes nothing of a kind the person turned off', async () => {
    const saved = await call(app, 'PUT', '/api/site/notification-preferences', learner2, { course_assigned: false });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(notificationPreferencesSchema.parse(saved.json())).toMatchObject({ course_assigned: false, due_soon: true });
    const before = (await listOf(app, learner2)).totalElements;
    const other = await createTerm(app, admin, courseId, { name: 'summer' });
    const response = await call(app, 'POST', '/api/applicants', admin, { termId: other, userIds: [ids.learner2] });
    expect(response.json()).toMatchObject({ created: 1 });
    expect((await listOf(app, learner2)).totalElements).toBe(before);
    await call(app, 'PUT', '/api/site/notification-preferences', learner2, { course_assigned: true });
  });

  it('tells of an application approved or rejected', async () => {
    const other = await createTerm(app, admin, courseId, { name: 'autumn', enrolMode: 'approval' });
    await insertApplicant(app, other, 'learner3', 'applied');
    const [row] = await db(app).selectFrom('edu_applicant').select('id').where('term_id', '=', other).execute();
    const learner3 = await loginAs(app, 'learner3');
    expect((await call(app, 'PUT', '/api/applicants/reject', admin, { ids: [row?.id], reason: 'full' })).statusCode).toBe(204);
    expect((await listOf(app, learner3)).content.map((notification) => [notification.kind, notification.link])).toEqual([['enrolment_rejected', `/preview/${courseId}`]]);
  });

  it('tells of an exam assigned, its opening, and its result when the window closes', async () => {
    const [questionId] = await addQuestions(app, admin, 1);
    const openAt = clock.now() + DAY_MS;
    const closeAt = openAt + DAY_MS;
    const examId = await publishedExam(app, admin, [questionId as number], ['learner2'], {
      title: 'Fire drill',
      openAt: formatDateTime(openAt),
      closeAt: formatDateTime(closeAt),
      review: 'after_close',
    });
    const kinds = async () => (await listOf(app, learner2)).content.filter((notification) => notification.params.title === 'Fire drill').map((notification) => notification.kind);
    expect(await kinds()).toEqual(['exam_assigned']);
    await moveTo(openAt + 1000);
    await app.services.jobs.runDue();
    expect(await kinds()).toEqual(['exam_open', 'exam_assigned']);
    const attempt = await startAttempt(app, learner2, examId);
    await submitAttempt(app, learner2, attempt.id);
    await app.services.jobs.runDue();
    expect(await kinds()).toEqual(['exam_open', 'exam_assigned']);
    await moveTo(closeAt + 1000);
    await app.services.jobs.runDue();
    const [released] = (await listOf(app, learner2)).content;
    expect(released).toMatchObject({ kind: 'result_released', params: { title: 'Fire drill' }, link: `/answer-exam?exam=${examId}` });
  });

  it('tells a person with a window of their own when that window opens, and no one else then', async () => {
    const [questionId] = await addQuestions(app, admin, 1);
    const examId = await publishedExam(app, admin, [questionId as number], ['learner2', 'learner3'], { title: 'Makeup exam' });
    const own = clock.now() + 2 * DAY_MS;
    const [row] = await db(app).selectFrom('edu_exam_assignee').select('id').where('exam_id', '=', examId).where('user_id', '=', ids.learner3 as number).execute();
    // Moved once, then again: only the window in force opens.
    for (const openAt of [own - DAY_MS, own]) {
      const response = await call(app, 'PUT', `/api/exams/${examId}/assignees`, admin, { ids: [row?.id], openAt: formatDateTime(openAt), closeAt: formatDateTime(own + DAY_MS) });
      expect(response.statusCode, response.body).toBe(204);
    }
    const opened = async (token: string) => (await listOf(app, token)).content.filter((notification) => notification.params.title === 'Makeup exam' && notification.kind === 'exam_open');
    await moveTo(own - DAY_MS + 1000);
    await app.services.jobs.runDue();
    expect(await opened(await loginAs(app, 'learner3'))).toEqual([]);
    await moveTo(own + 1000);
    await app.services.jobs.runDue();
    const learner3 = await loginAs(app, 'learner3');
    expect((await opened(learner3)).map((notification) => notification.link)).toEqual([`/answer-exam?exam=${examId}`]);
    expect(await opened(learner2)).toEqual([]);
    await app.services.jobs.runDue();
    expect(await opened(learner3)).toHaveLength(1);
  });

  it('tells of an exam assigned as a draft once it is published', async () => {
    const [questionId] = await addQuestions(app, admin, 1);
    const paper = fixedPaper([questionId as number]);
    const examId = await publishedExam(app, admin, [questionId as number], ['learner3'], { title: 'Ladder check', status: 'draft' });
    const learner3 = await loginAs(app, 'learner3');
    const told = async () => (await listOf(app, learner3)).content.filter((notification) => notification.params.title === 'Ladder check');
    expect(await told()).toEqual([]);
    const published = await call(app, 'PUT', '/api/exams', admin, { id: examId, ...examBody(paper, { title: 'Ladder check', status: 'published' }) });
    expect(published.statusCode, published.body).toBe(204);
    // Saved again: told once.
    await call(app, 'PUT', '/api/exams', admin, { id: examId, ...examBody(paper, { title: 'Ladder check', status: 'published' }) });
    expect((await told()).map((notification) => notification.kind)).toEqual(['exam_assigned']);
  });

  it('tells of a certificate issued or re-issued, and 30 days before it expires unless revoked', async () => {
    const template = await created(app, admin, '/api/cert-templates', {
      name: 'Fire safety certificate',
      validityMonths: 12,
      layout: { fields: [{ kind: 'holderName', x: 20, y: 70, width: 257, fontSize: 36, align: 'center' }] },
    });
    const issued = await call(app, 'POST', '/api/certificates/issue', admin, { templateId: template, userIds: [ids.learner1, ids.learner3] });
    expect(issued.statusCode, issued.body).toBe(201);
    const [first, second] = (issued.json() as { certificates: { id: number; userId: number }[] }).certificates;
    const [told] = (await listOf(app, learner1)).content;
    expect(told).toMatchObject({ kind: 'certificate_issued', params: { title: 'Fire safety certificate' }, link: `/view-cert?id=${first?.id}` });
    expect((await call(app, 'PUT', '/api/certificates/revoke', admin, { ids: [second?.id], reason: 'mistake' })).statusCode).toBe(204);
    const [row] = await db(app).selectFrom('edu_certificate').select('expires_at').where('id', '=', first?.id as number).execute();
    await moveTo((row?.expires_at as number) - CERTIFICATE_EXPIRING_BEFORE_MS + 1000);
    await app.services.jobs.runDue();
    await app.services.jobs.runDue();
    expect((await listOf(app, learner1)).content.filter((notification) => notification.kind === 'certificate_expiring')).toHaveLength(1);
    const learner3 = await loginAs(app, 'learner3');
    expect((await listOf(app, learner3)).content.filter((notification) => notification.kind === 'certificate_expiring')).toHaveLength(0);

    // Re-issued with a corrected name: the holder is told of the new one.
    const reissued = await call(app, 'POST', `/api/certificates/${first?.id}/reissue`, admin, { holderName: '李明明' });
    expect(reissued.statusCode, reissued.body).toBe(201);
    const [latest] = (await listOf(app, learner1)).content;
    expect(latest).toMatchObject({ kind: 'certificate_issued', link: `/view-cert?id=${(reissued.json() as { id: number }).id}` });
  });
});

describe('a rule reaching many people', () => {
  let app: FastifyInstance;
  afterEach(async () => {
    await app.close();
  });

  it('tells each of them once (600 people: more than one slice of the writes)', async () => {
    app = await buildTestApp();
    const admin = await loginAs(app, 'admin');
    const people = await insertPeople(app, 600);
    const termId = await createTerm(app, admin, await createCourse(app, admin));
    await created(app, admin, '/api/assignment-rules', { termId, target: 'users', ids: people.map((person) => person.id) });
    const told = await db(app).selectFrom('sys_notification').select('user_id').where('kind', '=', 'course_assigned').execute();
    expect(new Set(told.map((row) => row.user_id))).toEqual(new Set(people.map((person) => person.id)));
    expect(told).toHaveLength(600);
  });
});

describe('a rolled-back write', () => {
  let app: FastifyInstance;
  afterEach(async () => {
    await app.close();
  });

  it('tells no one, and pushes nothing', async () => {
    app = await buildTestApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await loginAs(app, 'admin');
    const learner = await loginAs(app, 'learner1');
    const termId = await createTerm(app, admin, await createCourse(app, admin));
    const socket = await openSocket(app, learner);
    // A later listener failing rolls the enrolment back, with the notification written before it.
    app.services.applicants.onEnrolmentChanged(async () => {
      throw new Error('refused');
    });
    const response = await call(app, 'POST', '/api/applicants', admin, { termId, userIds: [await userId(app, 'learner1')] });
    expect(response.statusCode).toBe(500);
    expect((await listOf(app, learner)).totalElements).toBe(0);
    socket.close();
    expect(socket.received).toEqual([]);
  });
});

// Two processes on one database: only PostgreSQL can carry a push from one to the other (SQLite runs as one process).
describe.runIf(process.env.TEST_DATABASE_URL)('with two server processes', () => {
  let first: FastifyInstance;
  let second: FastifyInstance;
  beforeAll(async () => {
    [first, second] = await buildTestAppPair();
    await second.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await first.close();
  });

  it('pushes a notification written by one to a socket held by the other', async () => {
    const admin = await loginAs(first, 'admin');
    const learner = await loginAs(second, 'learner1');
    const socket = await openSocket(second, learner);
    try {
      const termId = await createTerm(first, admin, await createCourse(first, admin, { title: 'Ladders' }));
      const response = await call(first, 'POST', '/api/applicants', admin, { termId, userIds: [await userId(first, 'learner1')] });
      expect(response.statusCode, response.body).toBe(201);
      expect(await socket.next()).toMatchObject({ unreadCount: 1, notification: { kind: 'course_assigned', params: { title: 'Ladders' } } });
    } finally {
      socket.close();
    }
  });
});
