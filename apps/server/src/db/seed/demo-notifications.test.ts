import { notificationPageSchema } from '@cloud-classroom/shared/notifications';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../../files/local-file-store.js';
import { announceExisting } from '../../modules/notifications/notifications.service.js';
import { buildTestApp, call, loginAs, TEST_PASSWORD } from '../../test/test-app.js';
import { reseed } from './seed.js';

// A fresh install's learners find waiting what the demo's rows would have told them.

let app: FastifyInstance;
const db = () => app.services.database.db;

beforeAll(async () => {
  app = await buildTestApp();
  await reseed(db(), TEST_PASSWORD, new LocalFileStore(app.services.config.dataDir));
}, 90_000);
afterAll(async () => {
  await app?.close();
});

async function notificationsOf(username: string) {
  const response = await call(app, 'GET', '/api/site/notifications?size=50', await loginAs(app, username));
  expect(response.statusCode, response.body).toBe(200);
  return notificationPageSchema.parse(response.json());
}

describe('the demo notifications', () => {
  it('tell each learner of their courses, exam, result and certificates in force, unread', async () => {
    const certificates = await db().selectFrom('edu_certificate').innerJoin('sys_user as u', 'u.id', 'edu_certificate.user_id').select(['edu_certificate.id', 'u.username', 'revoked_at', 'expires_at']).execute();
    for (const username of ['learner1', 'learner2', 'learner3']) {
      const page = await notificationsOf(username);
      const kinds = page.content.map((notification) => notification.kind);
      expect(kinds, username).toContain('exam_assigned');
      expect(kinds.some((kind) => kind === 'course_assigned' || kind === 'enrolment_approved'), username).toBe(true);
      expect(page.unreadCount, username).toBe(page.totalElements);
      // Only certificates in force are announced: a revoked or expired one would be a strange welcome.
      const inForce = certificates.filter((one) => one.username === username && one.revoked_at === null && (one.expires_at === null || one.expires_at > Date.now()));
      expect(
        page.content.filter((notification) => notification.kind === 'certificate_issued').map((notification) => notification.link),
        username,
      ).toEqual(inForce.map((one) => `/view-cert?id=${one.id}`));
    }
    expect((await notificationsOf('learner1')).content.map((notification) => notification.kind)).toContain('certificate_issued');
    // 林峰's attempt was marked: its result is out.
    expect((await notificationsOf('linfeng')).content.map((notification) => notification.kind)).toContain('result_released');
    expect((await notificationsOf('learner1')).content.map((notification) => notification.kind)).toContain('certificate_issued');
  });

  it('tells each thing once: announcing again adds nothing', async () => {
    const count = async () => Number((await db().selectFrom('sys_notification').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const told = await db().selectFrom('sys_notification').select('create_time').executeTakeFirstOrThrow();
    await db().transaction().execute((trx) => announceExisting(trx, told.create_time));
    expect(await count()).toBe(before);
  });
});
