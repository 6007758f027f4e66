import { markingQueueSchema } from '@cloud-classroom/shared/attempts';
import { certificateSchema, certRuleSchema, myCertificateSchema } from '@cloud-classroom/shared/certificates';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LocalFileStore } from '../../files/local-file-store.js';
import { saveAnswer, startAttempt, submitAttempt } from '../../test/attempt-fixtures.js';
import { pdfText } from '../../test/pdf-reader.js';
import { buildTestApp, call, loginAs, TEST_PASSWORD } from '../../test/test-app.js';
import { DEMO_CERT_TEMPLATE, demoDrillTitle } from './demo-certificates.js';
import { DEMO_EXAM } from './demo-exams.js';
import { reseed } from './seed.js';

// The demo's certificates as a first start leaves them, read back through the real routes; then
// learner1 passes the demo exam and its rule issues them a certificate.

let app: FastifyInstance;
const db = () => app.services.database.db;

beforeAll(async () => {
  app = await buildTestApp();
  await reseed(db(), TEST_PASSWORD, new LocalFileStore(app.services.config.dataDir));
}, 90_000);
afterAll(async () => {
  await app?.close();
});

const demoExamId = async () => (await db().selectFrom('edu_exam').select('id').where('title', '=', DEMO_EXAM.title).executeTakeFirstOrThrow()).id;

async function mine(username: string) {
  const response = await call(app, 'GET', '/api/site/my/certificates', await loginAs(app, username));
  expect(response.statusCode, response.body).toBe(200);
  return z.array(myCertificateSchema).parse(response.json());
}

describe('the demo certificates', () => {
  it('give learner1 a valid certificate of the demo course, learner2 a revoked one and learner3 an expired one, each a real PDF', async () => {
    const [learner1] = await mine('learner1');
    expect(learner1).toMatchObject({ holderName: '李明', title: demoDrillTitle(Number(learner1!.issuedOn.slice(0, 4))), status: 'valid' });
    expect(learner1!.number).toMatch(/^CC-\d{4}-\d{6}$/);
    expect((await mine('learner2')).map((certificate) => certificate.status)).toEqual(['revoked']);
    expect((await mine('learner3')).map((certificate) => certificate.status)).toEqual(['expired']);
    const pdf = await call(app, 'GET', `/api/certificates/${learner1!.id}/pdf`, await loginAs(app, 'learner1'));
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // What it prints, read back by poppler: the name, the number and the dates as the template formats them.
    const text = await pdfText(pdf.rawPayload);
    const [year, month, day] = learner1!.issuedOn.split('-');
    expect(text).toContain('李明');
    expect(text).toContain(learner1!.number);
    expect(text).toContain(`颁发日期：${year}年${month}月${day}日`);
  });

  it('have the rule issuing the template to whoever passes the demo exam, which issued one to each candidate who passed', async () => {
    const admin = await loginAs(app, 'admin');
    const examId = await demoExamId();
    const rules = await call(app, 'GET', `/api/cert-rules?examId=${examId}`, admin);
    expect(rules.statusCode, rules.body).toBe(200);
    const [rule, ...others] = pageOf(certRuleSchema).parse(rules.json()).content;
    expect(others).toEqual([]);
    expect(rule).toMatchObject({ templateName: DEMO_CERT_TEMPLATE.name, targetName: DEMO_EXAM.title });
    const passers = await db().selectFrom('edu_attempt').select('user_id').distinct().where('exam_id', '=', examId).where('passed', '=', 1).execute();
    expect(passers.length).toBeGreaterThan(0);
    const issued = await call(app, 'GET', `/api/certificates?examId=${examId}&size=100`, admin);
    const certificates = pageOf(certificateSchema).parse(issued.json()).content;
    expect(certificates.map((certificate) => certificate.userId).sort()).toEqual(passers.map((passer) => passer.user_id).sort());
    expect(rule!.issuedCount).toBe(passers.length);
    // Numbers in the order of issue, none twice.
    expect(new Set(certificates.map((certificate) => certificate.number)).size).toBe(certificates.length);
  });

  it('come to learner1 on passing the demo exam, once the teacher has marked the short answers', async () => {
    const examId = await demoExamId();
    const learner1 = await loginAs(app, 'learner1');
    const attempt = await startAttempt(app, learner1, examId);
    const keys = new Map((await db().selectFrom('edu_question').select(['id', 'answer']).execute()).map((row) => [row.id, JSON.parse(row.answer) as unknown[]]));
    for (const question of attempt.questions) {
      const key = keys.get(question.id) as unknown[];
      const response =
        question.type === 'multiple' ? key : question.type === 'blank' ? (key as string[][]).map((accepted) => accepted[0]) : question.type === 'short' ? '先断电，再用干粉灭火器。' : key[0];
      const saved = await saveAnswer(app, learner1, attempt.id, question.id, { response, revision: 1 });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    expect(await submitAttempt(app, learner1, attempt.id)).toMatchObject({ state: 'marking' });
    await app.services.jobs.runDue();
    expect(await mine('learner1')).toHaveLength(1);

    const teacher = await loginAs(app, 'teacher');
    for (const question of attempt.questions.filter((candidate) => candidate.type === 'short')) {
      const queue = await call(app, 'GET', `/api/marking/exams/${examId}/queue?questionId=${question.id}&reveal=true`, teacher);
      const item = markingQueueSchema.parse(queue.json()).items.find((candidate) => candidate.attemptId === attempt.id);
      const marked = await call(app, 'PUT', `/api/marking/answers/${item?.answerId}`, teacher, { score: question.score, comment: '' });
      expect(marked.statusCode, marked.body).toBe(204);
    }
    await app.services.jobs.runDue();
    const [fromExam, fromDrill, ...more] = await mine('learner1');
    expect(more).toEqual([]);
    expect(fromDrill?.title).toMatch(/ 年度消防疏散演练$/);
    expect(fromExam).toMatchObject({ holderName: '李明', title: DEMO_EXAM.title, status: 'valid' });
  });
});
