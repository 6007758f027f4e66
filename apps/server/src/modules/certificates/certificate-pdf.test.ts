import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  certificateLayoutSchema,
  certificateSnapshotSchema,
  POINTS_PER_MM,
  type CertificateLayoutInput,
} from '@cloud-classroom/shared/certificates';
import { renderCertificatePdf, type CertificatePdfInput } from './certificate-pdf.js';
import { solidPng } from '../../test/solid-png.js';

// Real PDFs read back by real tools: poppler's pdftotext / pdffonts / pdftoppm and zbar's zbarimg
// (Debian's poppler-utils and zbar-tools, which .ci/run installs), as a person and a phone would.

const run = promisify(execFile);
let folder: string;

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'certificate-pdf-'));
});
afterAll(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

/** A4 landscape, as the default template places its fields (297 × 210 mm). */
const SAMPLE_LAYOUT: CertificateLayoutInput = {
  fields: [
    { kind: 'freeText', x: 20, y: 28, width: 257, fontSize: 34, align: 'center', bold: true, color: '#1f3a68', text: '结业证书 · Certificate of Completion' },
    { kind: 'freeText', x: 20, y: 58, width: 257, fontSize: 13, align: 'center', color: '#444444', text: '兹证明 / This certifies that' },
    { kind: 'holderName', x: 20, y: 72, width: 257, fontSize: 40, align: 'center', bold: true, color: '#111111' },
    { kind: 'title', x: 20, y: 100, width: 257, fontSize: 18, align: 'center', prefix: '完成课程：', color: '#333333' },
    { kind: 'score', x: 20, y: 114, width: 257, fontSize: 14, align: 'center', prefix: '成绩 Score: ', color: '#333333' },
    { kind: 'issuedOn', x: 30, y: 160, width: 120, fontSize: 12, prefix: '发证日期 Issued: ', dateFormat: '{yyyy}年{MM}月{dd}日' },
    { kind: 'expiresOn', x: 30, y: 170, width: 120, fontSize: 12, prefix: '有效期至 Valid until: ', dateFormat: '{yyyy}-{MM}-{dd}' },
    { kind: 'number', x: 30, y: 180, width: 120, fontSize: 12, prefix: '证书编号 No. ' },
    { kind: 'qrCode', x: 237, y: 150, size: 40 },
  ],
};

const URL_OF = (number: string) => `https://classroom.example.com/verify-cert?number=${encodeURIComponent(number)}&code=Q7kP2xV9mR4t`;

function input(layout: CertificateLayoutInput, snapshot: Record<string, unknown>, background?: Buffer): CertificatePdfInput {
  const parsed = certificateSnapshotSchema.parse(snapshot);
  return { layout: certificateLayoutSchema.parse(layout), snapshot: parsed, verificationUrl: URL_OF(parsed.number), background: background ?? null };
}

async function save(name: string, pdf: Buffer): Promise<string> {
  const file = path.join(folder, name);
  await fs.writeFile(file, pdf);
  return file;
}

async function text(file: string): Promise<string> {
  return (await run('pdftotext', ['-layout', file, '-'])).stdout;
}

/** Page 1 as a PNG at `dpi`; answers the PNG's path. */
async function toPng(file: string, dpi: number): Promise<string> {
  const base = file.replace(/\.pdf$/, '');
  await run('pdftoppm', ['-png', '-r', String(dpi), '-singlefile', file, base]);
  return `${base}.png`;
}

async function qrCodesIn(png: string): Promise<string[]> {
  const { stdout } = await run('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', png]);
  return stdout.trim().split('\n').filter(Boolean);
}

/** Each word pdftotext finds with its box, in points from the page's top-left. */
async function words(file: string): Promise<{ word: string; xMin: number; xMax: number; yMin: number }[]> {
  const { stdout } = await run('pdftotext', ['-bbox', file, '-']);
  return [...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)].map((match) => ({
    word: match[4] as string,
    xMin: Number(match[1]),
    yMin: Number(match[2]),
    xMax: Number(match[3]),
  }));
}

/** The colour of the pixel at (x, y) of page 1 rendered at 20 dpi, read from pdftoppm's PPM (a plain header, then RGB bytes). */
async function pixel(file: string, x: number, y: number): Promise<[number, number, number]> {
  const base = `${file}-pixels`;
  await run('pdftoppm', ['-r', '20', '-singlefile', file, base]);
  const ppm = await fs.readFile(`${base}.ppm`);
  const header = /^P6\s+(\d+)\s+\d+\s+255\s/.exec(ppm.toString('latin1', 0, 40));
  if (!header) throw new Error('pdftoppm wrote no PPM');
  const at = header[0].length + (y * Number(header[1]) + x) * 3;
  return [ppm[at] ?? -1, ppm[at + 1] ?? -1, ppm[at + 2] ?? -1];
}

describe('renderCertificatePdf', () => {
  const chinese = { holderName: '张伟', title: '安全生产培训', score: '92.5', issuedOn: '2025-01-05', expiresOn: '2027-01-05', number: 'CC-2025-000001' };

  it('prints a Chinese name, the title, score, dates and number in an embedded subset of the shipped font, and a QR code of the verification link', async () => {
    const pdf = await renderCertificatePdf(input(SAMPLE_LAYOUT, chinese));
    const file = await save('chinese.pdf', pdf);

    const printed = await text(file);
    for (const expected of ['张伟', '完成课程：安全生产培训', '成绩 Score: 92.5', '发证日期 Issued: 2025年01月05日', 'Valid until: 2027-01-05', '证书编号 No. CC-2025-000001', '结业证书']) {
      expect(printed).toContain(expected);
    }

    // Embedded and subset: the glyphs come from the file, not from whatever fonts a reader has, and only the used ones.
    const { stdout: fonts } = await run('pdffonts', [file]);
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSansSC-Regular\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSansSC-Bold\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    expect(pdf.length).toBeLessThan(60_000);

    expect(await qrCodesIn(await toPng(file, 150))).toEqual([URL_OF('CC-2025-000001')]);
  });

  it('prints a Latin name, leaves out an absent score and expiry with their labels, and draws the background under the fields', async () => {
    const latin = { holderName: "María-José O'Neil", title: 'Fire Safety Basics', score: null, issuedOn: '2024-02-29', expiresOn: null, number: 'LEGACY/2019-17' };
    const layout = { ...SAMPLE_LAYOUT, pageSize: 'A5', orientation: 'portrait', backgroundImage: 'cert-backgrounds/plain.png' } as const;
    const fields = layout.fields?.filter((field) => field.kind !== 'freeText').map((field) => ('width' in field ? { ...field, x: 10, width: 128 } : { ...field, x: 100, y: 160 }));
    const pdf = await renderCertificatePdf(input({ ...layout, fields }, latin, solidPng(8, 8, [250, 240, 200])));
    const file = await save('latin.pdf', pdf);

    const printed = await text(file);
    expect(printed).toContain("María-José O'Neil");
    expect(printed).toContain('LEGACY/2019-17');
    expect(printed).toContain('2024年02月29日');
    expect(printed).not.toContain('Score');
    expect(printed).not.toContain('Valid until');

    // A5 portrait at 20 dpi is 117 × 165 pixels; a corner shows the background, not white.
    expect(await pixel(file, 3, 3)).toEqual([250, 240, 200]);
    expect(await qrCodesIn(await toPng(file, 200))).toEqual([URL_OF('LEGACY/2019-17')]);
  });

  it('centres a name in its box and shrinks one too long for it onto one line inside the box', async () => {
    const box = { x: 60, width: 80 };
    const layout: CertificateLayoutInput = { fields: [{ kind: 'holderName', y: 50, fontSize: 40, align: 'center', ...box }] };
    const [short, long] = await Promise.all(
      ['李堃', '欧阳堃喆 Alexandria Konstantinopoulou-Wetherspoon'].map(async (holderName, index) =>
        save(`name-${index}.pdf`, await renderCertificatePdf(input(layout, { ...chinese, holderName }))),
      ),
    );
    const left = box.x * POINTS_PER_MM;
    const right = (box.x + box.width) * POINTS_PER_MM;

    const [name] = await words(short as string);
    expect(name?.word).toBe('李堃');
    expect(Math.abs(((name?.xMin ?? 0) + (name?.xMax ?? 0)) / 2 - (left + right) / 2)).toBeLessThan(2);

    const longWords = await words(long as string);
    expect(longWords.map((word) => word.word).join(' ')).toBe('欧阳堃喆 Alexandria Konstantinopoulou-Wetherspoon');
    expect(new Set(longWords.map((word) => Math.round(word.yMin))).size).toBe(1);
    expect(Math.min(...longWords.map((word) => word.xMin))).toBeGreaterThanOrEqual(left - 1);
    expect(Math.max(...longWords.map((word) => word.xMax))).toBeLessThanOrEqual(right + 1);
  });

  it('refuses to print a template with a background it was not given, rather than a certificate without it', async () => {
    await expect(renderCertificatePdf(input({ backgroundImage: 'cert-backgrounds/gone.png' }, chinese))).rejects.toThrow(
      'certificate background cert-backgrounds/gone.png was not given',
    );
  });
});
