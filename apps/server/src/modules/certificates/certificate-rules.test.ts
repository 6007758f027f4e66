import { certificateSchema, certRuleSchema, type CertificateLayoutInput } from '@cloud-classroom/shared/certificates';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created, createCourse, createTerm, db, expectRefusal, insertApplicant, userId } from '../../test/course-fixtures.js';
import { addQuestion } from '../../test/exam-fixtures.js';
import { publishedExam, saveAnswer, startAttempt, submitAttempt } from '../../test/attempt-fixtures.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { readQuestion } from '../../test/question-fixtures.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

// Automatic issuing through the real app: passing an exam or completing a term queues a job that
// issues what the rules there give, once per rule and person however often it runs.

const LAYOUT: CertificateLayoutInput = { fields: [{ kind: 'holderName', x: 20, y: 70, width: 257, fontSize: 36, align: 'center' }] };

describe('certificate rules: access', () => {
  const { app, learner } = itRefusesOutsiders([
    ['GET', '/api/cert-rules'],
    ['POST', '/api/cert-rules', { templateId: 1, examId: 1 }],
    ['DELETE', '/api/cert-rules', [1]],
  ]);

  it('refuses a malformed rule with 400 naming the field', async () => {
    const admin = await loginAs(app(), 'admin');
    const cases: Array<[unknown, string]> = [
      [{ examId: 1 }, 'templateId'],
      [{ templateId: 1 }, 'examId'],
      [{ templateId: 1, examId: 1, termId: 1 }, 'examId'],
      [{ templateId: 'x', examId: 1 }, 'templateId'],
      [{ templateId: 999, examId: 1 }, 'templateId'],
    ];
    for (const [body, field] of cases) expectRefusal(await call(app(), 'POST', '/api/cert-rules', admin, body), 400, field);
    expectRefusal(await call(app(), 'GET', '/api/cert-rules?examId=x', admin), 400, 'examId');
    expectRefusal(await call(app(), 'DELETE', '/api/cert-rules', admin, []), 400, 'body');
    expect(learner()).toBeTruthy();
  });

  it('nothing was written by the refused calls', async () => {
    expect(await db(app()).selectFrom('edu_cert_rule').selectAll().execute()).toEqual([]);
  });
});

describe('certificate rules', () => {
  let app: FastifyInstance;
  // The administrator: learner2 is outside the demo teacher's data scope.
  let staff: string;
  let learner2: string;
  let learner3: string;
  let template: number;
  let question: number;
  beforeAll(async () => {
    app = await buildTestApp();
    staff = await loginAs(app, 'admin');
    learner2 = await loginAs(app, 'learner2');
    learner3 = await loginAs(app, 'learner3');
    template = await created(app, staff, '/api/cert-templates', { name: '考试合格证', layout: LAYOUT });
    question = await addQuestion(app, staff, { type: 'judge', score: 10 });
  });
  afterAll(async () => {
    await app.close();
  });

  const certificatesOf = async (query: string) => {
    const response = await call(app, 'GET', `/api/certificates?${query}`, staff);
    expect(response.statusCode, response.body).toBe(200);
    return pageOf(certificateSchema).parse(response.json()).content;
  };
  /** Sits the exam answering `response` (T passes, F fails) and runs the queued jobs. */
  const sit = async (token: string, examId: number, response: 'T' | 'F') => {
    const attempt = await startAttempt(app, token, examId);
    const saved = await saveAnswer(app, token, attempt.id, question, { response, revision: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    const result = await submitAttempt(app, token, attempt.id);
    await app.services.jobs.runDue();
    return result;
  };

  it('issues when the exam is passed, once per person however often they pass or the job runs, and not on a fail', async () => {
    const exam = await publishedExam(app, staff, [question], ['learner2', 'learner3'], { title: '消防考试', passScore: 6, attempts: 3 });
    const rule = await created(app, staff, '/api/cert-rules', { templateId: template, examId: exam });
    expect(await certificatesOf(`examId=${exam}`)).toEqual([]);

    await sit(learner3, exam, 'F');
    expect(await certificatesOf(`examId=${exam}`)).toEqual([]);

    await sit(learner2, exam, 'T');
    const [issued, ...more] = await certificatesOf(`examId=${exam}`);
    expect(more).toEqual([]);
    expect(issued).toMatchObject({ userId: await userId(app, 'learner2'), title: '消防考试', score: '10', source: 'exam', templateId: template, createBy: 'system' });

    await sit(learner2, exam, 'T');
    await app.services.certificates.autoIssue({ examId: exam, termId: null, userIds: null });
    expect((await certificatesOf(`examId=${exam}`)).map((certificate) => certificate.id)).toEqual([issued!.id]);

    const rules = await call(app, 'GET', `/api/cert-rules?examId=${exam}`, staff);
    expect(rules.statusCode, rules.body).toBe(200);
    expect(pageOf(certRuleSchema).parse(rules.json()).content).toEqual([expect.objectContaining({ id: rule, templateId: template, examId: exam, targetName: '消防考试', issuedCount: 1 })]);
  });

  it('reaches people who passed before the rule was made, and refuses a second rule of the same template there', async () => {
    const exam = await publishedExam(app, staff, [question], ['learner3'], { title: '急救考试', passScore: 6 });
    await sit(learner3, exam, 'T');
    expect(await certificatesOf(`examId=${exam}`)).toEqual([]);
    const rule = await created(app, staff, '/api/cert-rules', { templateId: template, examId: exam });
    await app.services.jobs.runDue();
    expect((await certificatesOf(`examId=${exam}`)).map((certificate) => certificate.userId)).toEqual([await userId(app, 'learner3')]);

    const again = await call(app, 'POST', '/api/cert-rules', staff, { templateId: template, examId: exam });
    expect(again.statusCode, again.body).toBe(409);

    // Deleting the rule keeps what it issued.
    expect((await call(app, 'DELETE', '/api/cert-rules', staff, [rule])).statusCode).toBe(200);
    expect(await certificatesOf(`examId=${exam}`)).toHaveLength(1);
    expectRefusal(await call(app, 'DELETE', '/api/cert-rules', staff, [rule]), 404, 'ids');
  });

  it('issues when a regrade after a key fix makes a failed attempt pass', async () => {
    const judge = await addQuestion(app, staff, { type: 'judge', score: 10 });
    const exam = await publishedExam(app, staff, [judge], ['learner3'], { title: '应急疏散考试', passScore: 6 });
    await created(app, staff, '/api/cert-rules', { templateId: template, examId: exam });
    const attempt = await startAttempt(app, learner3, exam);
    expect((await saveAnswer(app, learner3, attempt.id, judge, { response: 'F', revision: 1 })).statusCode).toBe(200);
    await submitAttempt(app, learner3, attempt.id);
    await app.services.jobs.runDue();
    expect(await certificatesOf(`examId=${exam}`)).toEqual([]);

    // The key was wrong: false, not true. The fix queues the regrade, which queues the certificate.
    const question = await readQuestion(app, staff, judge);
    const fix = await call(app, 'PUT', '/api/questions', staff, { ...question, answer: ['F'] });
    expect(fix.statusCode, fix.body).toBe(204);
    await app.services.jobs.runDue();
    expect((await certificatesOf(`examId=${exam}`)).map((certificate) => [certificate.userId, certificate.score])).toEqual([[await userId(app, 'learner3'), '10']]);
  });

  it('issues when a term is completed, once however often it is completed again', async () => {
    const course = await createCourse(app, staff, { title: '安全生产培训' });
    const term = await createTerm(app, staff, course);
    await created(app, staff, '/api/cert-rules', { templateId: template, termId: term });
    await insertApplicant(app, term, 'learner2', 'in_progress');
    const { id: applicant } = await db(app).selectFrom('edu_applicant').select('id').where('term_id', '=', term).executeTakeFirstOrThrow();
    const setStatus = async (status: string) => {
      const response = await call(app, 'PUT', '/api/applicants', staff, { id: applicant, status });
      expect(response.statusCode, response.body).toBe(204);
      await app.services.jobs.runDue();
    };

    await setStatus('completed');
    const [issued, ...more] = await certificatesOf(`termId=${term}`);
    expect(more).toEqual([]);
    expect(issued).toMatchObject({ userId: await userId(app, 'learner2'), title: '安全生产培训', source: 'term' });

    await setStatus('in_progress');
    await setStatus('completed');
    expect(await certificatesOf(`termId=${term}`)).toHaveLength(1);
  });

  it('issues when the learner’s progress completes the course, as the progress module reports it', async () => {
    const course = await createCourse(app, staff, { title: '有限空间作业' });
    const term = await createTerm(app, staff, course);
    await created(app, staff, '/api/cert-rules', { templateId: template, termId: term });
    await insertApplicant(app, term, 'learner3', 'approved');
    const learner = await userId(app, 'learner3');
    // What progress.service calls after a report in which the last required lesson was done.
    await app.services.applicants.recordProgress(learner, course, { completed: false });
    await app.services.jobs.runDue();
    expect(await certificatesOf(`termId=${term}`)).toEqual([]);
    await app.services.applicants.recordProgress(learner, course, { completed: true });
    await app.services.jobs.runDue();
    expect((await certificatesOf(`termId=${term}`)).map((certificate) => [certificate.userId, certificate.title])).toEqual([[learner, '有限空间作业']]);
  });
});
