import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type * as FontkitModule from 'fontkit';
import type PdfKitModule from 'pdfkit';
import type * as QrCodeModule from 'qrcode';
import {
  certificateFieldText,
  certificatePageMm,
  POINTS_PER_MM,
  type CertificateField,
  type CertificateLayout,
  type CertificateSnapshot,
} from '@cloud-classroom/shared/certificates';

// A certificate's PDF, drawn from a template version's layout and a certificate's snapshot, so it
// prints the same however often it is drawn again (DESIGN §6; issue 14).
//
// The font is Noto Sans SC, whose TrueType files ship in the npm package
// @expo-google-fonts/noto-sans-sc (OFL), never the operating system's: every machine prints the
// same glyphs, and a server without Chinese fonts prints Chinese names. It holds Latin as well as
// the GB 18030 Han characters people's names use (堃, 喆, 赟, which GB 2312 fonts lack). pdfkit
// embeds a subset of just the glyphs used, so a PDF is a few tens of kilobytes, not 10 MB.
//
// pdfkit, fontkit and qrcode load on the first certificate (start-up loads only what every start
// needs). Each font is read and parsed by fontkit once per process and the parsed font handed to
// every document: parsed per document (pdfkit's way with a file or bytes), its 10 MB of tables were
// decoded again each time, half of a certificate's CPU. fontkit keeps only read-only caches on
// the font; each document's subset is its own.

type Fonts = { regular: FontkitModule.Font; bold: FontkitModule.Font };

let pdfKit: Promise<typeof PdfKitModule> | undefined;
let qrCode: Promise<typeof QrCodeModule> | undefined;
let fonts: Promise<Fonts> | undefined;

const FONT_PACKAGE = '@expo-google-fonts/noto-sans-sc';

async function parseFonts(): Promise<Fonts> {
  const require = createRequire(import.meta.url);
  const fontkit = await import('fontkit');
  const parse = async (file: string) => {
    const font = fontkit.create(await fs.readFile(require.resolve(`${FONT_PACKAGE}/${file}`)));
    if (!('layout' in font)) throw new Error(`${file} is a font collection, not a font`);
    return font;
  };
  const [regular, bold] = await Promise.all([parse('400Regular/NotoSansSC_400Regular.ttf'), parse('700Bold/NotoSansSC_700Bold.ttf')]);
  return { regular, bold };
}

function loadFonts(): Promise<Fonts> {
  // A failed load is not kept, so the next certificate tries again.
  fonts ??= parseFonts().catch((error: unknown) => {
    fonts = undefined;
    throw error;
  });
  return fonts;
}

export type CertificatePdfInput = {
  layout: CertificateLayout;
  snapshot: CertificateSnapshot;
  /** What the QR code holds: the public `/verify-cert?number=…&code=…` page of this certificate. */
  verificationUrl: string;
  /** The bytes of `layout.backgroundImage` (PNG or JPEG), which the caller reads from the file store. */
  background?: Buffer | null;
};

/** Below this a value shrunk to fit its box would be unreadable; it runs past the box instead (a name is never cut). */
const MIN_FONT_SIZE = 5;
/** White modules kept around the QR code inside its square, so a busy background does not confuse a reader. */
const QR_QUIET_MODULES = 2;

/**
 * The certificate as a whole PDF in memory. A Buffer rather than a stream: the file is small
 * (tens of kilobytes plus the background), and it must be complete before any of it is sent or
 * cached — a background that fails to decode halfway must become an error answer, not a cut PDF in
 * the cache or in a ZIP — and its length is then known for Content-Length. Callers that take a
 * stream (the file store's `put`, yazl's ZIP) get `Readable.from([buffer])`; a ZIP of thousands
 * renders them one after another, so only one is held at a time.
 */
export async function renderCertificatePdf(input: CertificatePdfInput): Promise<Buffer> {
  const { layout, snapshot, verificationUrl } = input;
  if (layout.backgroundImage !== null && !input.background) {
    throw new Error(`certificate background ${layout.backgroundImage} was not given`);
  }
  const [PDFDocument, qr, font] = await Promise.all([
    (pdfKit ??= import('pdfkit').then((module) => module.default)),
    (qrCode ??= import('qrcode')),
    loadFonts(),
  ]);

  const page = certificatePageMm(layout.pageSize, layout.orientation);
  const pageWidth = page.width * POINTS_PER_MM;
  const pageHeight = page.height * POINTS_PER_MM;
  const doc = new PDFDocument({
    size: [pageWidth, pageHeight],
    // No margins: fields are placed from the page's corner, and nothing may flow onto a second page.
    margin: 0,
    // Instead of Helvetica, whose metrics pdfkit would parse for every document and never use.
    font: font.regular as unknown as string,
    info: { Title: `${snapshot.title} — ${snapshot.holderName}`, Subject: snapshot.number, Creator: 'Cloud Classroom' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  // pdfkit takes a parsed fontkit font for its `src`, though its types name only paths and bytes.
  doc.registerFont('regular', font.regular as unknown as Buffer);
  doc.registerFont('bold', font.bold as unknown as Buffer);

  if (input.background) doc.image(input.background, 0, 0, { width: pageWidth, height: pageHeight });

  for (const field of layout.fields) {
    if (field.kind === 'qrCode') drawQrCode(doc, qr, field, verificationUrl);
    else if (field.kind === 'freeText') drawParagraph(doc, field, field.text, pageHeight);
    else drawLine(doc, field, certificateFieldText(field, snapshot));
  }

  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

type Doc = InstanceType<typeof PdfKitModule>;
type TextField = Exclude<CertificateField, { kind: 'qrCode' }>;

/** A value on one line, aligned in its box and shrunk until it fits it: a long name must not run into the next field. */
function drawLine(doc: Doc, field: TextField, text: string): void {
  if (text === '') return;
  const boxWidth = field.width * POINTS_PER_MM;
  doc.font(field.bold ? 'bold' : 'regular').fontSize(field.fontSize);
  const natural = doc.widthOfString(text);
  const size = natural > boxWidth ? Math.max(MIN_FONT_SIZE, (field.fontSize * boxWidth) / natural) : field.fontSize;
  doc.fontSize(size);
  const width = Math.min(doc.widthOfString(text), boxWidth);
  const left = field.x * POINTS_PER_MM;
  const x = field.align === 'center' ? left + (boxWidth - width) / 2 : field.align === 'right' ? left + boxWidth - width : left;
  // No width given: pdfkit would wrap or cut a line measured to exactly its width at a rounding.
  doc.fillColor(field.color).text(text, x, field.y * POINTS_PER_MM, { lineBreak: false });
}

/** Free text wraps within its box's width (Chinese breaks between characters) and stops at the page's foot. */
function drawParagraph(doc: Doc, field: TextField, text: string, pageHeight: number): void {
  const top = field.y * POINTS_PER_MM;
  doc
    .font(field.bold ? 'bold' : 'regular')
    .fontSize(field.fontSize)
    .fillColor(field.color)
    .text(text, field.x * POINTS_PER_MM, top, {
      width: field.width * POINTS_PER_MM,
      align: field.align,
      height: Math.max(field.fontSize, pageHeight - top),
      ellipsis: true,
    });
}

/** The QR code as vector squares (sharp at any print size, a few hundred bytes), on white, filling its square. */
function drawQrCode(doc: Doc, qr: typeof QrCodeModule, field: Extract<CertificateField, { kind: 'qrCode' }>, url: string): void {
  const { modules } = qr.create(url, { errorCorrectionLevel: 'M' });
  const side = field.size * POINTS_PER_MM;
  const unit = side / (modules.size + 2 * QR_QUIET_MODULES);
  const left = field.x * POINTS_PER_MM;
  const top = field.y * POINTS_PER_MM;
  doc.rect(left, top, side, side).fill('#ffffff');
  // One rectangle per run of dark modules in a row, slightly overlapping the next row so no hairline shows between them.
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; ) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col += 1;
      doc.rect(left + (start + QR_QUIET_MODULES) * unit, top + (row + QR_QUIET_MODULES) * unit, (col - start) * unit, unit + 0.01);
    }
  }
  doc.fill(field.color);
}
