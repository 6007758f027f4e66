import { importResultSchema, type ImportResult } from '@cloud-classroom/shared/applicants';
import { CERTIFICATE_IMPORT_COLUMNS, certificateSchema, certificateVerificationSchema } from '@cloud-classroom/shared/certificates';
import { pageOf } from '@cloud-classroom/shared/http';
import ExcelJS from 'exceljs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettableClock } from '../../clock.js';
import { created, db, expectRefusal } from '../../test/course-fixtures.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { sheetRows } from '../../test/sheet-rows.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

// Importing existing certificates from a real .xlsx made by exceljs, through the real app.

/** The header row, then the rows as given (a Date is a date cell). */
async function workbook(rows: unknown[][], header: readonly string[] = CERTIFICATE_IMPORT_COLUMNS): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('证书');
  sheet.addRow([...header]);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function multipart(content: Buffer, field = 'file'): Promise<Pick<InjectOptions, 'headers' | 'payload'>> {
  const form = new FormData();
  form.append(field, new Blob([content]), 'certificates.xlsx');
  const encoded = new Response(form);
  return { headers: { 'content-type': encoded.headers.get('content-type') ?? '' }, payload: Buffer.from(await encoded.arrayBuffer()) };
}

const LAYOUT = { fields: [{ kind: 'holderName', x: 20, y: 70, width: 257, fontSize: 36, align: 'center' }] };

describe('certificate import: access', () => {
  itRefusesOutsiders([
    ['POST', '/api/certificates/import?dryRun=false'],
    ['GET', '/api/certificates/template'],
  ]);
});

describe('importing certificates from a spreadsheet', () => {
  let app: FastifyInstance;
  let teacher: string;
  const clock = new SettableClock(new Date(2026, 4, 10, 9, 30).getTime());
  beforeAll(async () => {
    app = await buildTestApp({}, { clock });
    teacher = await loginAs(app, 'teacher');
    await created(app, teacher, '/api/cert-templates', { name: '消防安全结业', layout: LAYOUT });
    await created(app, teacher, '/api/cert-templates', { name: '重名模板', layout: LAYOUT });
    await created(app, teacher, '/api/cert-templates', { name: '重名模板', layout: LAYOUT });
  });
  afterAll(async () => {
    await app.close();
  });

  const send = async (query: string, content: Buffer, field = 'file') => {
    const { headers, payload } = await multipart(content, field);
    return app.inject({ method: 'POST', url: `/api/certificates/import${query}`, headers: { ...headers, authorization: teacher }, payload });
  };
  const imported = async (query: string, content: Buffer): Promise<ImportResult> => {
    const response = await send(query, content);
    expect(response.statusCode, response.body).toBe(200);
    return importResultSchema.parse(response.json());
  };
  const certificates = async () => {
    const response = await call(app, 'GET', '/api/certificates?sort=number,asc', teacher);
    expect(response.statusCode, response.body).toBe(200);
    return pageOf(certificateSchema).parse(response.json()).content;
  };

  it('offers a template with the columns and an example row marked as one, which never imports', async () => {
    const response = await call(app, 'GET', '/api/certificates/template', teacher);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const [header, example] = await sheetRows(response.rawPayload);
    expect(header).toEqual(['示例', ...CERTIFICATE_IMPORT_COLUMNS]);
    expect(example?.[0]).toBe('示例（不导入）');
    expect(example).toContain('FS-2019-00012');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    book.worksheets[0]?.addRow([null, 'learner1', '消防安全结业', 'FS-2019-00009', '2019-06-30', '', '', '']);
    expect(await imported('', Buffer.from(await book.xlsx.writeBuffer()))).toEqual({
      total: 1,
      valid: 1,
      created: 0,
      errors: [],
      rows: [{ sheet: '证书导入模板', row: 3, type: null, text: 'FS-2019-00009 learner1' }],
      examples: [{ sheet: '证书导入模板', row: 2 }],
    });
  });

  it('lists every bad row and duplicate number in a dry run, writing nothing', async () => {
    const file = await workbook([
      ['learner1', '消防安全结业', 'FS-2019-00001', '2019-06-30', '2022-06-30', '消防安全培训', '合格'],
      ['nobody', '消防安全结业', 'FS-2019-00002', '2019-06-30', '', '', ''],
      ['learner3', '没有的模板', 'FS-2019-00003', '2019-06-30', '', '', ''],
      ['learner3', '重名模板', 'FS-2019-00004', '2019-06-30', '', '', ''],
      ['learner3', '消防安全结业', 'FS-2019-00001', '2019-06-30', '', '', ''],
      ['learner3', '消防安全结业', 'FS-2019-00005', '2019-13-01', '', '', ''],
      ['learner3', '消防安全结业', 'FS-2019-00006', '2019-06-30', '2019-06-01', '', ''],
      ['learner3', '消防安全结业', '', '', '', '', ''],
    ]);
    const result = await imported('', file);
    expect(result).toMatchObject({ total: 8, valid: 1, created: 0 });
    expect(result.errors.map((error) => [error.row, error.column])).toEqual([
      [3, 'username'],
      [4, 'template'],
      [5, 'template'],
      [6, 'number'],
      [7, 'issuedOn'],
      [8, 'expiresOn'],
      [9, 'number'],
      [9, 'issuedOn'],
    ]);
    expect(result.errors.find((error) => error.row === 6)?.message).toMatch(/already listed in row 2/);
    expect(await db(app).selectFrom('edu_certificate').selectAll().execute()).toEqual([]);
    // A real run of a file with a bad row writes nothing either.
    expect(await imported('?dryRun=false', file)).toMatchObject({ created: 0 });
    expect(await db(app).selectFrom('edu_certificate').selectAll().execute()).toEqual([]);
  });

  it('keeps the original numbers and dates, verifies them as any other, and refuses a number held already', async () => {
    const file = await workbook([
      ['learner1', '消防安全结业', 'FS-2019-00001', new Date(Date.UTC(2019, 5, 30)), new Date(Date.UTC(2022, 5, 30)), '消防安全培训', '合格'],
      ['learner3', '消防安全结业', 'CC-2026-000001', '2026-01-15', '', '', 92.5],
    ]);
    expect(await imported('?dryRun=true', file)).toMatchObject({ total: 2, valid: 2, created: 0, errors: [] });
    expect(await imported('?dryRun=false', file)).toMatchObject({ total: 2, valid: 2, created: 2, errors: [] });
    const [first, second] = await certificates();
    expect(first).toMatchObject({ number: 'CC-2026-000001', username: 'learner3', title: '消防安全结业', score: '92.5', issuedOn: '2026-01-15', expiresOn: null, source: 'import', status: 'valid' });
    expect(second).toMatchObject({ number: 'FS-2019-00001', username: 'learner1', title: '消防安全培训', score: '合格', issuedOn: '2019-06-30', expiresOn: '2022-06-30', status: 'expired' });
    const check = await call(app, 'GET', `/api/public/certificates/verify?number=${second!.number}&code=${second!.code}`);
    expect(certificateVerificationSchema.parse(check.json())).toMatchObject({ status: 'expired', title: '消防安全培训' });

    const again = await imported('?dryRun=true', await workbook([['learner1', '消防安全结业', 'FS-2019-00001', '2019-06-30', '', '', '']]));
    expect(again.errors).toEqual([{ row: 2, column: 'number', message: "a certificate numbered 'FS-2019-00001' exists already" }]);

    // The sequence skips a number an import holds.
    const template = (await db(app).selectFrom('edu_cert_template').select('id').where('name', '=', '消防安全结业').executeTakeFirstOrThrow()).id;
    const learner3 = first!.userId;
    const issued = await call(app, 'POST', '/api/certificates/issue', teacher, { templateId: template, userIds: [learner3] });
    expect(issued.statusCode, issued.body).toBe(201);
    expect(issued.json().certificates[0].number).toBe('CC-2026-000002');
  });

  it('refuses people outside the importer’s scope, a sheet of other headers, and what is not a spreadsheet', async () => {
    const outside = await imported('', await workbook([['learner2', '消防安全结业', 'X-1', '2019-06-30', '', '', '']]));
    expect(outside.errors).toEqual([{ row: 2, column: 'username', message: "'learner2' is outside the departments you manage" }]);
    const headers = await imported('', await workbook([['learner1']], ['username', 'dueAt']));
    expect(headers.errors[0]).toMatchObject({ row: 1, column: 'username' });
    expectRefusal(await send('', Buffer.from('not a spreadsheet')), 400, 'file');
    expectRefusal(await send('?dryRun=maybe', await workbook([])), 400, 'dryRun');
  });
});
