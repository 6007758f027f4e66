import { importResultSchema, type ImportResult } from '@cloud-classroom/shared/applicants';
import ExcelJS from 'exceljs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { termRows } from '../../test/applicant-fixtures.js';
import { createCourse, createTerm, expectRefusal, insertApplicant } from '../../test/course-fixtures.js';
import { sheetRows } from '../../test/sheet-rows.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

/** A real .xlsx made by exceljs: the header row, then the rows as given (a Date is a date cell). */
async function workbook(rows: unknown[][], header: string[] = ['username', 'dueAt']): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('学员');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function multipart(content: Buffer, field = 'file'): Promise<Pick<InjectOptions, 'headers' | 'payload'>> {
  const form = new FormData();
  form.append(field, new Blob([content]), 'people.xlsx');
  const encoded = new Response(form);
  return { headers: { 'content-type': encoded.headers.get('content-type') ?? '' }, payload: Buffer.from(await encoded.arrayBuffer()) };
}

describe('importing enrolments from a spreadsheet', () => {
  let app: FastifyInstance;
  let teacher: string;
  let admin: string;
  let course: number;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    admin = await loginAs(app, 'admin');
    course = await createCourse(app, teacher, { title: 'Imported', status: 'published' });
  });
  afterAll(async () => {
    await app.close();
  });

  // The administrator by default: these files name learner2, outside the teacher's departments.
  const send = async (query: string, content: Buffer, field = 'file', token = admin) => {
    const { headers, payload } = await multipart(content, field);
    return app.inject({ method: 'POST', url: `/api/applicants/import${query}`, headers: { ...headers, authorization: token }, payload });
  };
  const imported = async (query: string, content: Buffer, token = admin): Promise<ImportResult> => {
    const response = await send(query, content, 'file', token);
    expect(response.statusCode, response.body).toBe(200);
    return importResultSchema.parse(response.json());
  };

  it('offers a template with the columns and an example row marked as one, which never imports', async () => {
    const response = await call(app, 'GET', '/api/applicants/template', teacher);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(await sheetRows(response.rawPayload)).toEqual([
      ['示例', 'username', 'dueAt'],
      ['示例（不导入）', 'zhangsan', '2026-12-31 18:00:00'],
    ]);
    const term = await createTerm(app, teacher, course, { name: 'Template' });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    book.worksheets[0]?.addRow([null, 'learner1', '']);
    const filled = Buffer.from(await book.xlsx.writeBuffer());
    const planned = { total: 1, valid: 1, errors: [], rows: [{ sheet: '学员导入模板', row: 3, type: null, text: 'learner1' }], examples: [{ sheet: '学员导入模板', row: 2 }] };
    expect(await imported(`?termId=${term}`, filled)).toEqual({ ...planned, created: 0 });
    expect(await imported(`?termId=${term}&dryRun=false`, filled)).toEqual({ ...planned, created: 1 });
    expect((await termRows(app, term)).map((row) => row.username)).toEqual(['learner1']);
  });

  it('checks every row, and writes nothing on a dry run or when any row is wrong', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Checked' });
    await insertApplicant(app, term, 'teacher', 'approved');
    const file = await workbook([
      ['learner1', '2026-12-31 18:00:00'],
      ['learner2', new Date(Date.UTC(2026, 11, 1, 9, 30))],
      ['ghost', ''],
      ['learner1', ''],
      [],
      ['learner3', 'next week'],
      ['', '2026-12-31'],
      // Already enrolled: valid, and left as it is.
      ['teacher', '2026-12-31'],
    ]);
    const expected: ImportResult = {
      total: 7,
      valid: 3,
      created: 0,
      errors: [
        { row: 4, column: 'username', message: "no user named 'ghost'" },
        { row: 5, column: 'username', message: "'learner1' is already listed in row 2" },
        { row: 7, column: 'dueAt', message: "expected 'yyyy-MM-dd HH:mm:ss' or 'yyyy-MM-dd'" },
        { row: 8, column: 'username', message: 'is required' },
      ],
      rows: [
        { sheet: '学员', row: 2, type: null, text: 'learner1' },
        { sheet: '学员', row: 3, type: null, text: 'learner2' },
        { sheet: '学员', row: 9, type: null, text: 'teacher' },
      ],
      examples: [],
    };
    expect(await imported(`?termId=${term}&dryRun=true`, file)).toEqual(expected);
    // A dry run unless told otherwise.
    expect(await imported(`?termId=${term}`, file)).toEqual(expected);
    // All or nothing: the good rows are not taken either.
    expect(await imported(`?termId=${term}&dryRun=false`, file)).toEqual(expected);
    expect((await termRows(app, term)).map((row) => row.username)).toEqual(['teacher']);
  });

  it('enrols the people of a correct file (source import, approved, each with its due date), the enrolled left as they are', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Taken', capacity: 4 });
    await insertApplicant(app, term, 'teacher', 'in_progress');
    await insertApplicant(app, term, 'learner3', 'applied');
    const file = await workbook([
      ['learner1', '2026-12-31 18:00:00'],
      ['learner2', new Date(Date.UTC(2026, 11, 1, 9, 30))],
      ['learner3', '2026-11-30'],
      ['teacher', ''],
    ]);
    const dry = await imported(`?termId=${term}&dryRun=true`, file);
    expect(dry).toEqual({
      total: 4,
      valid: 4,
      created: 0,
      errors: [],
      rows: ['learner1', 'learner2', 'learner3', 'teacher'].map((text, index) => ({ sheet: '学员', row: index + 2, type: null, text })),
      examples: [],
    });
    expect(await termRows(app, term)).toHaveLength(2);

    expect(await imported(`?termId=${term}&dryRun=false`, file)).toMatchObject({ total: 4, valid: 4, created: 3, errors: [] });
    expect(await termRows(app, term)).toMatchObject([
      { username: 'learner1', status: 'approved', source: 'import', due_at: new Date(2026, 11, 31, 18).getTime() },
      // A date cell holds the time Excel shows, read in the server's zone.
      { username: 'learner2', status: 'approved', source: 'import', due_at: new Date(2026, 11, 1, 9, 30).getTime() },
      // A date alone: by the end of that day. Their application became the enrolment.
      { username: 'learner3', status: 'approved', source: 'import', due_at: new Date(2026, 10, 30, 23, 59, 59).getTime() },
      { username: 'teacher', status: 'in_progress', source: 'staff', due_at: null },
    ]);
    // Sent again: everyone is enrolled already.
    expect(await imported(`?termId=${term}&dryRun=false`, file)).toMatchObject({ total: 4, valid: 4, created: 0, errors: [] });
  });

  it('refuses rows beyond the term’s free seats, writing nothing', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Two seats', capacity: 2 });
    await insertApplicant(app, term, 'teacher', 'approved');
    const file = await workbook([['learner1'], ['learner2'], ['learner3']]);
    const message = 'the term has 1 seat(s) left for 3 people';
    expect(await imported(`?termId=${term}&dryRun=false`, file)).toMatchObject({
      total: 3,
      valid: 1,
      created: 0,
      errors: [
        { row: 3, column: 'username', message },
        { row: 4, column: 'username', message },
      ],
    });
    expect((await termRows(app, term)).map((row) => row.username)).toEqual(['teacher']);
  });

  it('refuses the rows of people outside the importer’s departments, writing nothing', async () => {
    // The teacher manages 培训部 and 研发部: learner1 and learner3, not learner2 (市场部) nor admin.
    const term = await createTerm(app, teacher, course, { name: 'Scoped import' });
    const file = await workbook([['learner1'], ['learner2'], ['learner3'], ['admin']]);
    const expected: ImportResult = {
      total: 4,
      valid: 2,
      created: 0,
      errors: [
        { row: 3, column: 'username', message: "'learner2' is outside the departments you manage" },
        { row: 5, column: 'username', message: "'admin' is outside the departments you manage" },
      ],
      rows: [
        { sheet: '学员', row: 2, type: null, text: 'learner1' },
        { sheet: '学员', row: 4, type: null, text: 'learner3' },
      ],
      examples: [],
    };
    expect(await imported(`?termId=${term}&dryRun=true`, file, teacher)).toEqual(expected);
    expect(await imported(`?termId=${term}&dryRun=false`, file, teacher)).toEqual(expected);
    expect(await termRows(app, term)).toEqual([]);
    expect(await imported(`?termId=${term}&dryRun=false`, await workbook([['learner1'], ['learner3']]), teacher)).toMatchObject({ created: 2, errors: [] });
  });

  it('refuses what is not the template’s spreadsheet, naming the field', async () => {
    const term = await createTerm(app, teacher, course, { name: 'Refused' });
    const file = await workbook([['learner1']]);
    expect(await imported(`?termId=${term}`, await workbook([['learner1']], ['name', 'due']))).toMatchObject({
      total: 0,
      valid: 0,
      created: 0,
      errors: [{ row: 1, column: 'username', message: 'the first row must be the headers username, dueAt' }],
    });
    expectRefusal(await send(`?termId=${term}`, Buffer.from('username,dueAt\nlearner1,\n')), 400, 'file');
    // A zip archive, but no workbook.
    expectRefusal(await send(`?termId=${term}`, Buffer.from([0x50, 0x4b, 0x05, 0x06, ...Array<number>(18).fill(0)])), 400, 'file');
    expectRefusal(await send(`?termId=${term}`, file, 'upload'), 400, 'file');
    expectRefusal(await send('', file), 400, 'termId');
    expectRefusal(await send('?termId=3000000000', file), 400, 'termId');
    expectRefusal(await send(`?termId=${term}&dryRun=maybe`, file), 400, 'dryRun');
    expectRefusal(await send('?termId=99999&dryRun=false', file), 400, 'termId');
    expectRefusal(await call(app, 'POST', `/api/applicants/import?termId=${term}`, teacher, { username: 'learner1' }), 400, 'file');
    expect(await termRows(app, term)).toEqual([]);
  });
});
