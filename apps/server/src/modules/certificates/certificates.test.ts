import {
  calendarDateOf,
  certificateSchema,
  certificatesIssuedSchema,
  certificateVerificationSchema,
  certTemplateSchema,
  certTemplateVersionSchema,
  myCertificateSchema,
  type CertificateLayoutInput,
} from '@cloud-classroom/shared/certificates';
import { pageOf } from '@cloud-classroom/shared/http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SettableClock } from '../../clock.js';
import { created, createCourse, createTerm, db, expectRefusal, insertApplicant, userId } from '../../test/course-fixtures.js';
import { addQuestion } from '../../test/exam-fixtures.js';
import { publishedExam, saveAnswer, startAttempt, submitAttempt } from '../../test/attempt-fixtures.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { pdfText, qrCodesInPdf } from '../../test/pdf-reader.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';
import { PDF_CACHE_FOLDER, VERIFY_PER_MINUTE } from './certificates.service.js';
import { solidPng } from '../../test/solid-png.js';

// Through the real app on a real database; PDFs read back with poppler and zbar (test/pdf-reader.ts).

const LAYOUT: CertificateLayoutInput = {
  fields: [
    { kind: 'freeText', x: 20, y: 28, width: 257, fontSize: 30, align: 'center', text: '结业证书' },
    { kind: 'holderName', x: 20, y: 70, width: 257, fontSize: 36, align: 'center' },
    { kind: 'title', x: 20, y: 100, width: 257, fontSize: 18, align: 'center' },
    { kind: 'score', x: 20, y: 114, width: 257, fontSize: 14, align: 'center', prefix: '成绩 ' },
    { kind: 'number', x: 30, y: 180, width: 120, fontSize: 12, prefix: 'No. ' },
    { kind: 'qrCode', x: 237, y: 150, size: 40 },
  ],
};
const templateBody = (body: Record<string, unknown> = {}) => ({ name: '消防安全结业', layout: LAYOUT, ...body });

async function upload(app: FastifyInstance, token: string, fileName: string, content: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([content]), fileName);
  const encoded = new Response(form);
  const payload = Buffer.from(await encoded.arrayBuffer());
  return app.inject({ method: 'POST', url: '/api/cert-templates/backgrounds', headers: { 'content-type': encoded.headers.get('content-type') ?? '', authorization: token }, payload });
}

/** What a phishing site sends to get a genuine certificate whose QR code opens it. */
const FORGED_HOST = { host: 'verify-cloudclassroom.evil.example', 'x-forwarded-host': 'verify-cloudclassroom.evil.example', 'x-forwarded-proto': 'https' };
const verifyUrl = (number: string, code: string) => `/api/public/certificates/verify?number=${encodeURIComponent(number)}&code=${encodeURIComponent(code)}`;
const reissueResult = z.object({ id: z.number().int(), number: z.string() });

describe('certificates: access', () => {
  const { app, learner } = itRefusesOutsiders([
    ['GET', '/api/cert-templates'],
    ['GET', '/api/cert-templates/1'],
    ['GET', '/api/cert-templates/1/versions'],
    ['GET', '/api/cert-templates/1/preview'],
    ['POST', '/api/cert-templates', templateBody()],
    ['PUT', '/api/cert-templates', { id: 1, ...templateBody() }],
    ['DELETE', '/api/cert-templates', [1]],
    ['POST', '/api/cert-templates/backgrounds'],
    ['GET', '/api/cert-templates/backgrounds?key=cert-backgrounds/202605/a.png'],
    ['GET', '/api/certificates'],
    ['GET', '/api/certificates/1'],
    ['POST', '/api/certificates/issue', { templateId: 1, userIds: [1] }],
    ['PUT', '/api/certificates/revoke', { ids: [1], reason: 'wrong' }],
    ['POST', '/api/certificates/1/reissue', {}],
  ]);

  it('answers the learner’s own routes and the PDF only with a session', async () => {
    for (const url of ['/api/site/my/certificates', '/api/site/my/certificates/1', '/api/certificates/1/pdf']) {
      expect((await call(app(), 'GET', url)).statusCode, url).toBe(401);
    }
    const mine = await call(app(), 'GET', '/api/site/my/certificates', learner());
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toEqual([]);
    expect((await call(app(), 'GET', '/api/certificates/1/pdf', learner())).statusCode).toBe(404);
  });

  it('lets anyone verify without a session, and refuses a malformed query with 400 naming the field', async () => {
    const unknown = await call(app(), 'GET', verifyUrl('CC-2026-000001', 'ABCDEFGHJKMN'));
    expect(unknown.statusCode).toBe(404);
    const noCode = await call(app(), 'GET', '/api/public/certificates/verify?number=CC-1');
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().message).toMatch(/^code: /);
  });

  it('nothing was written by the refused calls', async () => {
    for (const table of ['edu_cert_template', 'edu_cert_template_version', 'edu_certificate', 'edu_cert_sequence'] as const) {
      expect(await db(app()).selectFrom(table).selectAll().execute(), table).toEqual([]);
    }
  });
});

describe('certificates', () => {
  let app: FastifyInstance;
  const clock = new SettableClock(new Date(2026, 4, 10, 9, 30).getTime());
  let admin: string;
  let teacher: string;
  let learner1: string;
  let learner3: string;
  let template: number;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    app = await buildTestApp({}, { clock });
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');
    learner1 = await loginAs(app, 'learner1');
    learner3 = await loginAs(app, 'learner3');
    for (const name of ['learner1', 'learner2', 'learner3']) ids[name] = await userId(app, name);
    template = await created(app, teacher, '/api/cert-templates', templateBody({ validityMonths: 12 }));
  });
  afterAll(async () => {
    await app.close();
  });

  const readTemplate = async (id: number) => {
    const response = await call(app, 'GET', `/api/cert-templates/${id}`, teacher);
    expect(response.statusCode, response.body).toBe(200);
    return certTemplateSchema.parse(response.json());
  };
  const issue = async (token: string, body: Record<string, unknown>) => {
    const response = await call(app, 'POST', '/api/certificates/issue', token, body);
    expect(response.statusCode, response.body).toBe(201);
    return certificatesIssuedSchema.parse(response.json()).certificates;
  };
  const readCertificate = async (id: number) => {
    const response = await call(app, 'GET', `/api/certificates/${id}`, teacher);
    expect(response.statusCode, response.body).toBe(200);
    return certificateSchema.parse(response.json());
  };
  const list = async (query: string, token = teacher) => {
    const response = await call(app, 'GET', `/api/certificates?${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return pageOf(certificateSchema).parse(response.json());
  };
  const verify = async (number: string, code: string) => call(app, 'GET', verifyUrl(number, code));

  it('refuses bad templates with 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [templateBody({ name: '' }), /^name: /],
      [templateBody({ numberPattern: 'CC-{yyyy}' }), /^numberPattern: needs a sequence/],
      [templateBody({ validityMonths: 0 }), /^validityMonths: /],
      [templateBody({ layout: { fields: [{ kind: 'qrCode', x: 280, y: 10, size: 40 }] } }), /^layout\.fields\.0\.x: runs off/],
      [templateBody({ layout: { backgroundImage: 'cert-backgrounds/missing.png', fields: [] } }), /^layout\.backgroundImage: no file/],
    ];
    for (const [body, message] of cases) {
      const response = await call(app, 'POST', '/api/cert-templates', teacher, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect((await call(app, 'PUT', '/api/cert-templates', teacher, { id: 99999, ...templateBody() })).statusCode).toBe(404);
  });

  it('previews the template as a real PDF with sample values', async () => {
    const response = await call(app, 'GET', `/api/cert-templates/${template}/preview`, teacher);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('张伟明');
    expect(text).toContain('消防安全结业');
    expect(text).toContain('CC-2026-000001');
    expect((await call(app, 'GET', `/api/cert-templates/${template}/preview?version=9`, teacher)).statusCode).toBe(404);
    // Without PUBLIC_URL the QR code points at the address the start notice prints (PORT 8000),
    // whatever Host the request names: a forged one must not make a phishing site's QR code.
    expect(await qrCodesInPdf(response.rawPayload)).toEqual(['http://localhost:8000/verify-cert?number=CC-2026-000001&code=SAMPLE']);
    const forged = await app.inject({ method: 'GET', url: `/api/cert-templates/${template}/preview`, headers: { authorization: teacher, ...FORGED_HOST } });
    expect(await qrCodesInPdf(forged.rawPayload)).toEqual(['http://localhost:8000/verify-cert?number=CC-2026-000001&code=SAMPLE']);
  });

  it('points the QR code at PUBLIC_URL when it is set (a server behind a proxy does not know its public address)', async () => {
    const proxied = await buildTestApp({ publicUrl: 'https://learn.example.com' });
    try {
      const teacherThere = await loginAs(proxied, 'teacher');
      const id = await created(proxied, teacherThere, '/api/cert-templates', templateBody());
      const preview = await call(proxied, 'GET', `/api/cert-templates/${id}/preview`, teacherThere);
      expect(await qrCodesInPdf(preview.rawPayload)).toEqual([expect.stringMatching(/^https:\/\/learn\.example\.com\/verify-cert\?number=/)]);
    } finally {
      await proxied.close();
    }
  });

  it('takes a PNG or JPEG background, which a template then prints under its fields', async () => {
    const refused = await upload(app, teacher, 'notes.txt', Buffer.from('not an image'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('file: expected a PNG or JPEG image');
    const stored = await upload(app, teacher, 'paper.png', solidPng(297, 210));
    expect(stored.statusCode, stored.body).toBe(201);
    const { key } = z.object({ key: z.string() }).parse(stored.json());
    expect(key).toMatch(/^cert-backgrounds\/\d{6}\/[0-9a-f]{32}\.png$/);
    // The editor shows it back on its page.
    const shown = await call(app, 'GET', `/api/cert-templates/backgrounds?key=${encodeURIComponent(key)}`, teacher);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/png');
    expect(shown.rawPayload.equals(solidPng(297, 210))).toBe(true);
    expect((await call(app, 'GET', '/api/cert-templates/backgrounds?key=cert-backgrounds/202605/gone.png', teacher)).statusCode).toBe(404);
    const outside = await call(app, 'GET', `/api/cert-templates/backgrounds?key=${encodeURIComponent('cert-pdfs/1/x.png')}`, teacher);
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toMatch(/^key: /);
    const withBackground = await created(app, teacher, '/api/cert-templates', templateBody({ name: 'With paper', layout: { ...LAYOUT, backgroundImage: key } }));
    const preview = await call(app, 'GET', `/api/cert-templates/${withBackground}/preview`, teacher);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(await pdfText(preview.rawPayload)).toContain('张伟明');
    // Named by a template version: not taken for a leftover.
    expect(await app.services.certificates.backgroundFiles.referenced([key, 'cert-backgrounds/202605/other.png'])).toEqual(new Set([key]));
    expect((await call(app, 'DELETE', '/api/cert-templates', teacher, [withBackground])).statusCode).toBe(200);
  });

  it('issues to chosen people with sequential numbers, the template’s validity and the holder’s name, within the issuer’s scope', async () => {
    const issued = await issue(teacher, { templateId: template, userIds: [ids.learner1, ids.learner3] });
    expect(issued.map((row) => row.number)).toEqual(['CC-2026-000001', 'CC-2026-000002']);
    const first = await readCertificate(issued[0]!.id);
    expect(first).toMatchObject({
      holderName: '李明',
      username: 'learner1',
      title: '消防安全结业',
      score: null,
      issuedOn: '2026-05-10',
      expiresOn: '2027-05-10',
      status: 'valid',
      source: 'staff',
      templateVersion: 1,
      createBy: 'teacher',
    });
    expect(first.code).toMatch(/^[A-Z2-9_]{12}$/);

    // learner2 (市场部) is outside the teacher's departments; an unknown person and template are 400s.
    const outside = await call(app, 'POST', '/api/certificates/issue', teacher, { templateId: template, userIds: [ids.learner2] });
    expect(outside.statusCode, outside.body).toBe(403);
    const unknownPerson = await call(app, 'POST', '/api/certificates/issue', teacher, { templateId: template, userIds: [99999] });
    expect(unknownPerson.statusCode).toBe(400);
    expect(unknownPerson.json().message).toMatch(/^userIds: /);
    const unknownTemplate = await call(app, 'POST', '/api/certificates/issue', teacher, { templateId: 99999, userIds: [ids.learner1] });
    expect(unknownTemplate.json().message).toMatch(/^templateId: /);
    const both = await call(app, 'POST', '/api/certificates/issue', teacher, { templateId: template, userIds: [ids.learner1], examId: 1, termId: 1 });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toMatch(/^termId: /);
    const none = await call(app, 'POST', '/api/certificates/issue', teacher, { templateId: template, userIds: [] });
    expect(none.json().message).toMatch(/^userIds: /);
  });

  it('issues to a term’s enrolled applicants under the course’s title, refusing others with 400 naming the field', async () => {
    const course = await createCourse(app, teacher, { title: '叉车安全操作' });
    const term = await createTerm(app, teacher, course);
    const other = await createTerm(app, teacher, course, { name: '2026 autumn' });
    await insertApplicant(app, term, 'learner1', 'completed');
    await insertApplicant(app, term, 'learner3', 'approved');
    await insertApplicant(app, term, 'learner2', 'in_progress');
    await insertApplicant(app, other, 'learner1', 'applied');
    const applicant = async (termId: number, name: string) =>
      (await db(app).selectFrom('edu_applicant').select('id').where('term_id', '=', termId).where('user_id', '=', ids[name]!).executeTakeFirstOrThrow()).id;
    const [a1, a3, a2, applied] = [await applicant(term, 'learner1'), await applicant(term, 'learner3'), await applicant(term, 'learner2'), await applicant(other, 'learner1')];

    const issued = await issue(teacher, { templateId: template, applicantIds: [a1, a3] });
    expect(issued.map((certificate) => certificate.userId)).toEqual([ids.learner1, ids.learner3]);
    for (const certificate of issued) expect(await readCertificate(certificate.id)).toMatchObject({ termId: term, source: 'term', title: '叉车安全操作' });

    const refused: Array<[Record<string, unknown>, string]> = [
      [{ templateId: template }, 'userIds'],
      [{ templateId: template, userIds: [ids.learner1], applicantIds: [a1] }, 'userIds'],
      [{ templateId: template, applicantIds: [] }, 'applicantIds'],
      [{ templateId: template, applicantIds: [999_999] }, 'applicantIds'],
      [{ templateId: template, applicantIds: [a1, applied] }, 'applicantIds'],
      [{ templateId: template, applicantIds: [applied] }, 'applicantIds'],
      [{ templateId: template, applicantIds: [a1], termId: other }, 'applicantIds'],
    ];
    for (const [body, field] of refused) expectRefusal(await call(app, 'POST', '/api/certificates/issue', teacher, body), 400, field);
    // learner2's department is outside the teacher's scope.
    expect((await call(app, 'POST', '/api/certificates/issue', teacher, { templateId: template, applicantIds: [a2] })).statusCode).toBe(403);
    expect((await list(`termId=${term}`, admin)).totalElements).toBe(2);
  });

  it('refuses a second valid certificate of the term for the same person (409 naming the field) unless re-issue is asked, which supersedes the first', async () => {
    const course = await createCourse(app, teacher, { title: '登高作业' });
    const term = await createTerm(app, teacher, course);
    await insertApplicant(app, term, 'learner1', 'completed');
    const applicant = (await db(app).selectFrom('edu_applicant').select('id').where('term_id', '=', term).executeTakeFirstOrThrow()).id;
    const [first] = await issue(teacher, { templateId: template, applicantIds: [applicant] });
    const again = await call(app, 'POST', '/api/certificates/issue', teacher, { templateId: template, applicantIds: [applicant] });
    expectRefusal(again, 409, 'applicantIds');
    expect(again.json().message).toBe('applicantIds: learner1 already holds a valid certificate for this term; re-issue it instead');
    const byPerson = await call(app, 'POST', '/api/certificates/issue', teacher, { templateId: template, userIds: [ids.learner1], termId: term });
    expectRefusal(byPerson, 409, 'userIds');
    expect((await list(`termId=${term}`)).totalElements).toBe(1);

    const [second] = await issue(teacher, { templateId: template, applicantIds: [applicant], reissue: true });
    expect(await readCertificate(first!.id)).toMatchObject({ status: 'superseded', supersededBy: second!.id });
    expect(await readCertificate(second!.id)).toMatchObject({ status: 'valid', supersedes: first!.id, termId: term });
  });

  it('issues once for one Idempotency-Key sent twice at once (a double click), both answers the same', async () => {
    const course = await createCourse(app, teacher, { title: '有限空间作业' });
    const term = await createTerm(app, teacher, course);
    await insertApplicant(app, term, 'learner3', 'completed');
    const applicant = (await db(app).selectFrom('edu_applicant').select('id').where('term_id', '=', term).executeTakeFirstOrThrow()).id;
    const headers = { authorization: teacher, 'idempotency-key': crypto.randomUUID() };
    const send = () => app.inject({ method: 'POST', url: '/api/certificates/issue', headers, payload: { templateId: template, applicantIds: [applicant] } });
    const [one, other] = await Promise.all([send(), send()]);
    expect(one?.statusCode, one?.body).toBe(201);
    expect([other?.statusCode, other?.body]).toEqual([one?.statusCode, one?.body]);
    expect((await list(`termId=${term}`)).totalElements).toBe(1);
  });

  it('gives concurrent issues unique, gapless numbers', async () => {
    const before = (await list('size=9999')).content.map((row) => row.number);
    const batches = await Promise.all(Array.from({ length: 8 }, () => issue(admin, { templateId: template, userIds: [ids.learner1, ids.learner2] })));
    const numbers = batches.flat().map((row) => row.number);
    expect(new Set(numbers).size).toBe(16);
    const sequence = [...before, ...numbers].map((number) => Number(number.slice('CC-2026-'.length))).sort((a, b) => a - b);
    expect(sequence).toEqual(Array.from({ length: sequence.length }, (_, index) => index + 1));
  });

  it('prints an exam’s title and the person’s counted score', async () => {
    const question = await addQuestion(app, teacher, { type: 'judge', score: 10 });
    const exam = await publishedExam(app, teacher, [question], ['learner3'], { title: '消防考试', passScore: 5 });
    const attempt = await startAttempt(app, learner3, exam);
    const saved = await saveAnswer(app, learner3, attempt.id, question, { response: 'T', revision: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    await submitAttempt(app, learner3, attempt.id);
    const [certificate] = await issue(teacher, { templateId: template, userIds: [ids.learner3], examId: exam });
    expect(await readCertificate(certificate!.id)).toMatchObject({ title: '消防考试', source: 'exam', examId: exam, holderName: '赵磊' });
    expect((await readCertificate(certificate!.id)).score).toBe('10');
  });

  it('serves the PDF to its holder and to staff, never to another learner, with the Chinese name in its text, cached', async () => {
    const [mine] = await issue(teacher, { templateId: template, userIds: [ids.learner1] });
    const own = await call(app, 'GET', `/api/certificates/${mine!.id}/pdf`, learner1);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.headers['content-type']).toBe('application/pdf');
    expect(own.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(own.rawPayload);
    expect(text).toContain('李明');
    expect(text).toContain(mine!.number);

    // Another learner gets what a certificate that does not exist gets.
    const other = await call(app, 'GET', `/api/certificates/${mine!.id}/pdf`, learner3);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(`id: no certificate ${mine!.id}`);

    const staff = await call(app, 'GET', `/api/certificates/${mine!.id}/pdf`, teacher);
    expect(staff.statusCode).toBe(200);
    // Drawn once: the file store holds one PDF for it, served again byte for byte.
    const cached: string[] = [];
    for await (const file of app.services.files.list(`${PDF_CACHE_FOLDER}/${mine!.id}`)) cached.push(file.key);
    expect(cached).toHaveLength(1);
    expect(staff.rawPayload.equals(own.rawPayload)).toBe(true);

    // The QR code names the site's own address, never the one a request's Host names.
    const forged = await app.inject({ method: 'GET', url: `/api/certificates/${mine!.id}/pdf`, headers: { authorization: learner1, ...FORGED_HOST } });
    expect(forged.statusCode).toBe(200);
    expect(await qrCodesInPdf(forged.rawPayload)).toEqual([`http://localhost:8000/verify-cert?number=${mine!.number}&code=${(await readCertificate(mine!.id)).code}`]);
    expect(forged.rawPayload.equals(own.rawPayload)).toBe(true);
  });

  it('keeps issued certificates on their template version when the layout changes', async () => {
    const before = await readTemplate(template);
    expect(before.version).toBe(1);
    // A rename alone makes no version.
    const renamed = await call(app, 'PUT', '/api/cert-templates', teacher, { id: template, ...templateBody({ name: '消防安全结业证书', validityMonths: 12 }) });
    expect(renamed.statusCode, renamed.body).toBe(204);
    expect((await readTemplate(template)).version).toBe(1);
    const moved = { fields: [...LAYOUT.fields!.slice(0, 5), { kind: 'qrCode', x: 20, y: 150, size: 40 }] };
    const edited = await call(app, 'PUT', '/api/cert-templates', teacher, { id: template, ...templateBody({ name: '消防安全结业证书', validityMonths: 12, layout: moved }) });
    expect(edited.statusCode, edited.body).toBe(204);
    const after = await readTemplate(template);
    expect(after.version).toBe(2);
    expect(after.layout.fields[5]).toMatchObject({ kind: 'qrCode', x: 20 });

    const versions = await call(app, 'GET', `/api/cert-templates/${template}/versions`, teacher);
    const [v2, v1] = z.array(certTemplateVersionSchema).parse(versions.json());
    expect(v2).toMatchObject({ version: 2, certificateCount: 0 });
    expect(v1!.version).toBe(1);
    expect(v1!.certificateCount).toBeGreaterThan(0);
    expect(v1!.layout.fields[5]).toMatchObject({ kind: 'qrCode', x: 237 });

    const [fresh] = await issue(teacher, { templateId: template, userIds: [ids.learner1] });
    expect((await readCertificate(fresh!.id)).templateVersion).toBe(2);
    expect((await list(`templateId=${template}&size=9999`, admin)).content.filter((row) => row.templateVersion === 1).length).toBe(v1!.certificateCount);

    // A template certificates were issued with cannot be deleted; an unused one can.
    const refused = await call(app, 'DELETE', '/api/cert-templates', teacher, [template]);
    expect(refused.statusCode).toBe(409);
    const unused = await created(app, teacher, '/api/cert-templates', templateBody({ name: 'Unused' }));
    expect((await call(app, 'DELETE', '/api/cert-templates', teacher, [unused])).statusCode).toBe(200);
    expect((await call(app, 'GET', `/api/cert-templates/${unused}`, teacher)).statusCode).toBe(404);
  });

  it('verifies publicly: valid with a masked name, the same not-found for a wrong code and an unknown number, then revoked', async () => {
    const [certificate] = await issue(teacher, { templateId: template, userIds: [ids.learner1] });
    const { code } = await readCertificate(certificate!.id);
    const valid = await verify(certificate!.number, code.toLowerCase());
    expect(valid.statusCode, valid.body).toBe(200);
    expect(certificateVerificationSchema.parse(valid.json())).toEqual({
      status: 'valid',
      number: certificate!.number,
      holder: '李*',
      title: '消防安全结业证书',
      issuedAt: '2026-05-10 09:30:00',
      expiresAt: '2027-05-11 00:00:00',
      revokedAt: null,
    });
    const wrongCode = await verify(certificate!.number, 'ABCDEFGHJKMN');
    const unknown = await verify('CC-1999-999999', code);
    expect(wrongCode.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(wrongCode.json().message).toBe(unknown.json().message);

    const noReason = await call(app, 'PUT', '/api/certificates/revoke', teacher, { ids: [certificate!.id], reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toMatch(/^reason: /);
    expect((await call(app, 'PUT', '/api/certificates/revoke', teacher, { ids: [certificate!.id, 99999], reason: 'x' })).statusCode).toBe(404);
    const revoked = await call(app, 'PUT', '/api/certificates/revoke', teacher, { ids: [certificate!.id], reason: '作弊' });
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect(certificateVerificationSchema.parse((await verify(certificate!.number, code)).json())).toMatchObject({ status: 'revoked', revokedAt: '2026-05-10 09:30:00' });
    expect(await readCertificate(certificate!.id)).toMatchObject({ status: 'revoked', revokedBy: 'teacher', revokeReason: '作弊' });
    expect((await list('status=revoked')).content.map((row) => row.id)).toEqual([certificate!.id]);
    // Not the teacher's to revoke: learner2's, issued by the administrator, is out of scope (404 as none).
    const [theirs] = await issue(admin, { templateId: template, userIds: [ids.learner2] });
    expect((await call(app, 'PUT', '/api/certificates/revoke', teacher, { ids: [theirs!.id], reason: 'x' })).statusCode).toBe(404);
    const seen = await list('size=9999');
    expect(seen.content.some((row) => row.userId === ids.learner2)).toBe(false);
    expect(seen.outsideScope).toBeGreaterThanOrEqual(1);
    expect((await list('size=9999', admin)).content.some((row) => row.userId === ids.learner2)).toBe(true);
  });

  it('re-issues after a name correction, keeping the old one superseded in the history', async () => {
    const [old] = await issue(teacher, { templateId: template, userIds: [ids.learner3] });
    const { code: oldCode } = await readCertificate(old!.id);
    await db(app).updateTable('sys_user').set({ nick_name: '赵蕾' }).where('id', '=', ids.learner3!).execute();
    const response = await call(app, 'POST', `/api/certificates/${old!.id}/reissue`, teacher, {});
    expect(response.statusCode, response.body).toBe(201);
    const reissued = reissueResult.parse(response.json());
    expect(reissued.number).not.toBe(old!.number);
    expect(await readCertificate(reissued.id)).toMatchObject({ holderName: '赵蕾', source: 'reissue', supersedes: old!.id, status: 'valid', issuedOn: '2026-05-10' });
    expect(await readCertificate(old!.id)).toMatchObject({ holderName: '赵磊', supersededBy: reissued.id, status: 'superseded' });
    expect(certificateVerificationSchema.parse((await verify(old!.number, oldCode)).json()).status).toBe('superseded');
    expect((await call(app, 'POST', `/api/certificates/${old!.id}/reissue`, teacher, {})).statusCode).toBe(409);

    const pdf = await call(app, 'GET', `/api/certificates/${reissued.id}/pdf`, learner3);
    expect(await pdfText(pdf.rawPayload)).toContain('赵蕾');
  });

  it('lists the learner’s own certificates only, decided by the session', async () => {
    const mine = await call(app, 'GET', '/api/site/my/certificates', learner1);
    expect(mine.statusCode, mine.body).toBe(200);
    const certificates = z.array(myCertificateSchema).parse(mine.json());
    expect(certificates.length).toBeGreaterThan(0);
    const everyone = (await list('size=9999', admin)).content;
    const learner1s = new Set(everyone.filter((row) => row.userId === ids.learner1).map((row) => row.id));
    expect(new Set(certificates.map((row) => row.id))).toEqual(learner1s);
    // What each was issued for, by which a course's page finds its certificates.
    const listed = new Map(everyone.map((row) => [row.id, row]));
    for (const row of certificates) expect([row.examId, row.termId]).toEqual([listed.get(row.id)?.examId, listed.get(row.id)?.termId]);
    const someoneElses = everyone.find((row) => row.userId !== ids.learner1)!;
    expect((await call(app, 'GET', `/api/site/my/certificates/${someoneElses.id}`, learner1)).statusCode).toBe(404);
    expect((await call(app, 'GET', `/api/site/my/certificates/${certificates[0]!.id}`, learner1)).statusCode).toBe(200);
  });

  it('filters and pages the list', async () => {
    const all = await list('size=9999');
    const page = await list('page=1&size=2&sort=id,asc');
    expect(page.totalElements).toBe(all.totalElements);
    expect(page.content.map((row) => row.id)).toEqual(all.content.map((row) => row.id).sort((a, b) => a - b).slice(2, 4));
    const byNumber = await list(`q=${encodeURIComponent(all.content[0]!.number)}`);
    expect(byNumber.content.map((row) => row.id)).toEqual([all.content[0]!.id]);
    expect((await list(`userId=${ids.learner3}&size=9999`)).content.every((row) => row.userId === ids.learner3)).toBe(true);
    const badSort = await call(app, 'GET', '/api/certificates?sort=code,asc', teacher);
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().message).toMatch(/^sort: /);
  });

  it('verifies as expired from the day after the printed expiry date', async () => {
    const [certificate] = await issue(teacher, { templateId: template, userIds: [ids.learner1] });
    const { code, expiresOn } = await readCertificate(certificate!.id);
    expect(expiresOn).toBe('2027-05-10');
    clock.set(new Date(2027, 4, 10, 23, 59).getTime());
    expect(certificateVerificationSchema.parse((await verify(certificate!.number, code)).json()).status).toBe('valid');
    clock.set(new Date(2027, 4, 11, 0, 0).getTime());
    expect(certificateVerificationSchema.parse((await verify(certificate!.number, code)).json()).status).toBe('expired');
    // A year on, the sessions have ended: a fresh one.
    teacher = await loginAs(app, 'teacher');
    expect((await list('status=expired&size=9999')).content.map((row) => row.id)).toContain(certificate!.id);
    expect(calendarDateOf(clock.now())).toBe('2027-05-11');
  });

  it('limits the public check per address', async () => {
    const check = (remoteAddress: string) => app.inject({ method: 'GET', url: verifyUrl('CC-0', 'X'), remoteAddress });
    for (let index = 0; index < VERIFY_PER_MINUTE; index += 1) expect((await check('203.0.113.9')).statusCode).toBe(404);
    const limited = await check('203.0.113.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ status: 429 });
    // Another address is not held back.
    expect((await check('203.0.113.10')).statusCode).toBe(404);
  });
});
