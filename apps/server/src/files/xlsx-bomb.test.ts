import { APPLICANT_IMPORT_COLUMNS, importResultSchema } from '@cloud-classroom/shared/applicants';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createTerm, expectRefusal } from '../test/course-fixtures.js';
import { buildTestApp, loginAs } from '../test/test-app.js';
import { deflatedSheet, xlsxBomb, type DeflatedSheet } from '../test/xlsx-bomb.js';

// An import's workbook is a zip: a 200 KB file can unpack to gigabytes. The 1.5 MB
// spreadsheet whose sheet1.xml unpacks to 1.5 GiB cost one request 1.8 GB and killed the process
// when four came together.

const MiB = 1024 * 1024;

async function multipart(content: Buffer): Promise<{ headers: Record<string, string>; payload: Buffer }> {
  const form = new FormData();
  form.append('file', new Blob([content]), 'import.xlsx');
  const encoded = new Response(form);
  return { headers: { 'content-type': encoded.headers.get('content-type') ?? '' }, payload: Buffer.from(await encoded.arrayBuffer()) };
}

describe('a workbook that unpacks to far more than it weighs', () => {
  let app: FastifyInstance;
  let teacher: string;
  let term: number;
  // 200 MiB of rows, about 200 KB deflated: built once, sent with an honest and a lying directory.
  let huge: DeflatedSheet;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    term = await createTerm(app, teacher, await createCourse(app, teacher, { title: 'Bombed', status: 'published' }), { name: 'Bombed' });
    huge = await deflatedSheet(APPLICANT_IMPORT_COLUMNS, 200 * MiB);
  });
  afterAll(async () => {
    await app.close();
  });

  const send = async (url: string, content: Buffer) => {
    const { headers, payload } = await multipart(content);
    return app.inject({ method: 'POST', url, headers: { ...headers, authorization: teacher }, payload });
  };
  const applicantsImport = () => `/api/applicants/import?termId=${term}&dryRun=true`;

  it('is refused from its zip directory, with a 413 naming the file, before it is unpacked', async () => {
    const bomb = await xlsxBomb(huge);
    expect(bomb.length).toBeLessThan(MiB);
    const before = process.memoryUsage().rss;
    const message = expectRefusal(await send(applicantsImport(), bomb), 413, 'file');
    expect(message).toMatch(/unpacks to more than 50 MB/);
    // Unpacked, the sheet alone would be 200 MiB, and exceljs's cells many times that.
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * MiB);
  });

  it('is refused the same by the question and certificate imports', async () => {
    const bomb = await xlsxBomb(huge);
    for (const url of ['/api/questions/import?dryRun=true', '/api/certificates/import?dryRun=true']) {
      expect(expectRefusal(await send(url, bomb), 413, 'file'), url).toMatch(/unpacks to more than 50 MB/);
    }
  });

  it('is refused when only its compression gives it away: a sheet unpacking to 400 times its size', async () => {
    const bomb = await xlsxBomb(await deflatedSheet(APPLICANT_IMPORT_COLUMNS, 8 * MiB));
    expect(expectRefusal(await send(applicantsImport(), bomb), 413, 'file')).toMatch(/xl\/worksheets\/sheet1\.xml unpacks to \d+ times its size/);
  });

  it('is stopped while unpacking when its directory lies about the size, having unpacked no more than it claimed', async () => {
    // 64 KiB declared, compressed to 200 KB: nothing in the directory gives it away.
    const bomb = await xlsxBomb(huge, 64 * 1024);
    const before = process.memoryUsage().rss;
    const message = expectRefusal(await send(applicantsImport(), bomb), 400, 'file');
    expect(message).toMatch(/xl\/worksheets\/sheet1\.xml unpacks to more than its zip directory says/);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * MiB);
  });
});

describe('imports sent together', () => {
  let app: FastifyInstance;
  let teacher: string;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
  });

  it('are read one after another, each answered in full, none refused', async () => {
    const term = await createTerm(app, teacher, await createCourse(app, teacher, { title: 'Together', status: 'published' }), { name: 'Together' });
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('学员');
    sheet.addRow([...APPLICANT_IMPORT_COLUMNS]);
    for (let index = 0; index < 200; index += 1) sheet.addRow([`ghost${index}`, '2026-12-31']);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    const answers = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const { headers, payload } = await multipart(file);
        return app.inject({ method: 'POST', url: `/api/applicants/import?termId=${term}&dryRun=true`, headers: { ...headers, authorization: teacher }, payload });
      }),
    );
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      const result = importResultSchema.parse(answer.json());
      expect(result).toMatchObject({ total: 200, valid: 0, created: 0 });
      expect(result.errors).toHaveLength(200);
    }
  });
});
