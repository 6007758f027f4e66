import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// A PDF read back as a person and a phone would: poppler's pdftotext and pdftoppm, zbar's zbarimg
// (Debian's poppler-utils and zbar-tools, which .ci/run installs).

const run = promisify(execFile);

async function inFolder<T>(pdf: Buffer, read: (file: string) => Promise<T>): Promise<T> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'pdf-reader-'));
  try {
    const file = path.join(folder, 'document.pdf');
    await fs.writeFile(file, pdf);
    return await read(file);
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

/** The PDF's text, as pdftotext finds it. */
export function pdfText(pdf: Buffer): Promise<string> {
  return inFolder(pdf, async (file) => (await run('pdftotext', [file, '-'])).stdout);
}

/** What the QR codes on the PDF's first page say, rendered at 150 dpi as a phone would see it. */
export function qrCodesInPdf(pdf: Buffer): Promise<string[]> {
  return inFolder(pdf, async (file) => {
    const base = file.replace(/\.pdf$/, '');
    await run('pdftoppm', ['-png', '-r', '150', '-singlefile', file, base]);
    const { stdout } = await run('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', `${base}.png`]);
    return stdout.trim().split('\n').filter(Boolean);
  });
}
