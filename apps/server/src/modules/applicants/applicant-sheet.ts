import { APPLICANT_IMPORT_COLUMNS } from '@cloud-classroom/shared/applicants';
import { wireTimeSchema } from '@cloud-classroom/shared/http';
import type { Readable } from 'node:stream';
import { readImportSheet } from '../../files/workbook-reader.js';
import { cellText } from '../../http/xlsx-export.js';

// Reading the enrolment spreadsheet (`POST api/applicants/import`): its rows as text, and the
// due date in the forms people type or Excel stores.

/** More rows than any one term takes; a bigger file is refused rather than read. */
export const MAX_IMPORT_ROWS = 5000;

export type SheetRow = { row: number; username: string; dueAt: unknown };

/**
 * The data rows of the first sheet, numbered as Excel numbers them (the header is row 1), blank
 * rows and the template's example rows left out (their numbers in `examples`); null when the
 * first row is not the template's header.
 */
export async function readApplicantSheet(content: Readable, field: string): Promise<{ sheet: string; rows: SheetRow[]; examples: number[] } | null> {
  const read = await readImportSheet(content, field, APPLICANT_IMPORT_COLUMNS, { rows: MAX_IMPORT_ROWS, what: 'people' });
  if (read === null) return null;
  const rows: SheetRow[] = [];
  for (const { number, cells } of read.sheet.rows) {
    if (number === 1) continue;
    const username = cellText(cells[0]);
    const dueAt = cells[1];
    if (username === '' && cellText(dueAt) === '') continue;
    rows.push({ row: number, username, dueAt });
  }
  return { sheet: read.sheet.name, rows, examples: read.examples };
}

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * A due date from its cell: empty (none), `yyyy-MM-dd HH:mm:ss`, `yyyy-MM-dd` (the end of that
 * day: a due date means by then), or a date cell. Excel keeps a date cell as the time shown,
 * which exceljs hands over as that time in UTC; it is read as that time in the server's zone,
 * as the wire's times are.
 */
export function parseDueAt(value: unknown): { ok: true; at: number | null } | { ok: false } {
  const formula = value !== null && typeof value === 'object' && !(value instanceof Date) ? (value as { result?: unknown }).result : undefined;
  const cell = formula ?? value;
  let text: string;
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return { ok: false };
    text = `${cell.getUTCFullYear()}-${pad(cell.getUTCMonth() + 1)}-${pad(cell.getUTCDate())} ${pad(cell.getUTCHours())}:${pad(cell.getUTCMinutes())}:${pad(cell.getUTCSeconds())}`;
  } else {
    text = cellText(cell);
    if (text === '') return { ok: true, at: null };
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text = `${text} 23:59:59`;
  }
  const parsed = wireTimeSchema.safeParse(text);
  return parsed.success ? { ok: true, at: parsed.data } : { ok: false };
}
