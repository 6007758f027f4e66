import type { Readable } from 'node:stream';
import { calendarDateSchema, CERTIFICATE_IMPORT_COLUMNS, type CertificateImportColumn } from '@cloud-classroom/shared/certificates';
import { readImportSheet } from '../../files/workbook-reader.js';
import { cellText } from '../../http/xlsx-export.js';

// Reading the spreadsheet of existing certificates (`POST api/certificates/import`): its rows as
// text, and the dates in the forms people type or Excel stores.

/** More rows than one organisation's backlog of a kind; a bigger file is split or refused. */
export const MAX_CERTIFICATE_IMPORT_ROWS = 5000;

export type CertificateSheetRow = { row: number } & Record<Exclude<CertificateImportColumn, 'issuedOn' | 'expiresOn'>, string> & { issuedOn: unknown; expiresOn: unknown };

/**
 * The data rows of the first sheet, numbered as Excel numbers them (the header is row 1), blank
 * rows and the template's example rows left out (their numbers in `examples`); null when the
 * first row is not the template's header.
 */
export async function readCertificateSheet(content: Readable, field: string): Promise<{ sheet: string; rows: CertificateSheetRow[]; examples: number[] } | null> {
  const read = await readImportSheet(content, field, CERTIFICATE_IMPORT_COLUMNS, { rows: MAX_CERTIFICATE_IMPORT_ROWS, what: 'certificates' });
  if (read === null) return null;
  const rows: CertificateSheetRow[] = [];
  for (const { number, cells } of read.sheet.rows) {
    if (number === 1) continue;
    const value = (column: CertificateImportColumn) => cells[CERTIFICATE_IMPORT_COLUMNS.indexOf(column)];
    const row: CertificateSheetRow = {
      row: number,
      username: cellText(value('username')),
      template: cellText(value('template')),
      number: cellText(value('number')),
      issuedOn: value('issuedOn'),
      expiresOn: value('expiresOn'),
      title: cellText(value('title')),
      score: cellText(value('score')),
    };
    if (CERTIFICATE_IMPORT_COLUMNS.every((column) => cellText(value(column)) === '')) continue;
    rows.push(row);
  }
  return { sheet: read.sheet.name, rows, examples: read.examples };
}

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * A calendar date from its cell: empty (none), `yyyy-MM-dd`, or a date cell. Excel keeps a date
 * cell as the day shown, which exceljs hands over as midnight UTC of that day: read in UTC.
 */
export function parseCalendarCell(value: unknown): { ok: true; date: string | null } | { ok: false } {
  const formula = value !== null && typeof value === 'object' && !(value instanceof Date) ? (value as { result?: unknown }).result : undefined;
  const cell = formula ?? value;
  let text: string;
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return { ok: false };
    text = `${cell.getUTCFullYear()}-${pad(cell.getUTCMonth() + 1)}-${pad(cell.getUTCDate())}`;
  } else {
    text = cellText(cell);
    if (text === '') return { ok: true, date: null };
  }
  return calendarDateSchema.safeParse(text).success ? { ok: true, date: text } : { ok: false };
}
