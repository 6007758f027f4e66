import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { certificatesIssuedSchema } from '@cloud-classroom/shared/certificates';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created, expectRefusal, userId } from '../../test/course-fixtures.js';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

// The ZIP of the filtered list, opened as a person would: Info-ZIP's unzip lists and extracts it,
// poppler's pdftotext reads a PDF from it.

const run = promisify(execFile);
const LAYOUT = {
  fields: [
    { kind: 'holderName', x: 20, y: 70, width: 257, fontSize: 36, align: 'center' },
    { kind: 'number', x: 30, y: 180, width: 120, fontSize: 12 },
  ],
};

describe('certificate download: access', () => {
  const { app } = itRefusesOutsiders([['GET', '/api/certificates/download']]);

  it('refuses a malformed filter with 400 naming the field', async () => {
    const admin = await loginAs(app(), 'admin');
    expectRefusal(await call(app(), 'GET', '/api/certificates/download?status=lost', admin), 400, 'status');
    expectRefusal(await call(app(), 'GET', '/api/certificates/download?templateId=x', admin), 400, 'templateId');
  });
});

describe('certificate download', () => {
  let app: FastifyInstance;
  let admin: string;
  let teacher: string;
  let folder: string;
  let template: number;
  beforeAll(async () => {
    app = await buildTestApp();
    admin = await loginAs(app, 'admin');
    teacher = await loginAs(app, 'teacher');
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'certificate-zip-'));
    template = await created(app, admin, '/api/cert-templates', { name: '下载测试', layout: LAYOUT });
  });
  afterAll(async () => {
    await app.close();
    await fs.rm(folder, { recursive: true, force: true });
  });

  const issue = async (body: Record<string, unknown>) => {
    const response = await call(app, 'POST', '/api/certificates/issue', admin, body);
    expect(response.statusCode, response.body).toBe(201);
    return certificatesIssuedSchema.parse(response.json()).certificates;
  };
  const download = async (query: string, token: string, name: string) => {
    const response = await call(app, 'GET', `/api/certificates/download?${query}`, token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="certificates-\d{8}\.zip"/);
    const file = path.join(folder, name);
    await fs.writeFile(file, response.rawPayload);
    return file;
  };
  const entries = async (zip: string) => {
    const { stdout } = await run('unzip', ['-Z1', zip]);
    return stdout.split('\n').filter((line) => line !== '').sort();
  };

  it('streams a ZIP of the filtered list’s PDFs, named by number, that unzip opens and tests', async () => {
    const issued = await issue({ templateId: template, userIds: [await userId(app, 'learner1'), await userId(app, 'learner3'), await userId(app, 'learner2')] });
    const other = await created(app, admin, '/api/cert-templates', { name: '其他', layout: LAYOUT });
    await issue({ templateId: other, userIds: [await userId(app, 'learner1')] });

    const zip = await download(`templateId=${template}`, admin, 'all.zip');
    expect(await entries(zip)).toEqual(issued.map((certificate) => `${certificate.number}.pdf`).sort());
    await run('unzip', ['-tq', zip]);
    const { stdout } = await run('unzip', ['-p', zip, `${issued[0]!.number}.pdf`], { encoding: 'buffer', maxBuffer: 10 * 1024 * 1024 });
    const pdf = path.join(folder, 'one.pdf');
    await fs.writeFile(pdf, stdout);
    const text = (await run('pdftotext', [pdf, '-'])).stdout;
    expect(text).toContain(issued[0]!.number);
    expect(text).toContain('李明');

    // Filtered by the list's filters and the caller's scope: learner2 is outside the teacher's.
    const revoked = await call(app, 'PUT', '/api/certificates/revoke', admin, { ids: [issued[1]!.id], reason: '测试' });
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect(await entries(await download(`templateId=${template}&status=valid`, admin, 'valid.zip'))).toEqual([issued[0]!, issued[2]!].map((c) => `${c.number}.pdf`).sort());
    expect(await entries(await download(`templateId=${template}`, teacher, 'scoped.zip'))).toEqual([issued[0]!, issued[1]!].map((c) => `${c.number}.pdf`).sort());
  });

  it('answers an empty ZIP for a filter matching nothing', async () => {
    const zip = await fs.readFile(await download('q=no-such-certificate', admin, 'empty.zip'));
    // Only the end-of-central-directory record, counting no entries (unzip calls it an empty zipfile).
    expect(zip.length).toBe(22);
    expect(zip.readUInt32LE(0)).toBe(0x06054b50);
    expect(zip.readUInt16LE(10)).toBe(0);
  });
});
