import { downloadFileName } from '@cloud-classroom/shared/display';
import type * as ExcelJsModule from 'exceljs';
import type { FastifyReply } from 'fastify';

export type XlsxColumn<Row> = { header: string; value: (row: Row) => string | number | boolean | null | undefined; width?: number };

// A cell starting with one of these is a formula to Excel and LibreOffice, even in a value cell:
// '=HYPERLINK(…)' in a user's nick name must arrive as text, not run.
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCell(value: string | number | boolean | null | undefined): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return value;
  return FORMULA_START.test(value) ? `'${value}` : value;
}

type ExcelJs = typeof ExcelJsModule;

// exceljs takes a quarter of a second to load, and most runs of the server never export: it is
// loaded on the first export rather than at start. Being CommonJS, Node offers it as the default
// export only, which its typings do not say.
let excel: Promise<ExcelJs> | undefined;

/** exceljs, loaded on first use (exports; imports read a workbook in a thread of their own: `files/workbook-reader.ts`). */
export const loadExcelJs = (): Promise<ExcelJs> => (excel ??= import('exceljs').then((module) => (module as unknown as { default: ExcelJs }).default));

/** What a cell shows, as text: rich text, links and formulas by their text or result. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const cell = value as { richText?: { text: string }[]; text?: unknown; result?: unknown };
    if (Array.isArray(cell.richText)) return cell.richText.map((part) => part.text).join('').trim();
    if (cell.text !== undefined) return cellText(cell.text);
    if (cell.result !== undefined) return cellText(cell.result);
  }
  return '';
}

export async function toXlsx<Row>(sheetName: string, columns: readonly XlsxColumn<Row>[], rows: readonly Row[]): Promise<Buffer> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.columns = columns.map((column) => ({ header: column.header, width: column.width ?? 18 }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(columns.map((column) => neutraliseCell(column.value(row))));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// An import template's example rows are marked in a first column of their own, which stays in
// view however far a person scrolls (it is frozen) and which the reader knows
// (`setExamplesAside`, files/workbook-reader.ts): a row with anything in it is never imported.
// The grey of an example row is for the eye only; spreadsheets keep or lose styles as they like.
export const EXAMPLE_HEADER = '示例';
export const EXAMPLE_MARK = '示例（不导入）';
const EXAMPLE_WIDTH = 14;

/** The example column's header and marks for a sheet whose header is `headerRow`, and the grey of its example rows. */
export function markExamples(sheet: ExcelJsModule.Worksheet, headerRow: number, exampleRows: readonly number[]): void {
  sheet.getColumn(1).width = EXAMPLE_WIDTH;
  sheet.getCell(headerRow, 1).value = EXAMPLE_HEADER;
  for (const number of exampleRows) {
    const row = sheet.getRow(number);
    row.getCell(1).value = EXAMPLE_MARK;
    row.font = { italic: true, color: { argb: 'FF8C8C8C' } };
  }
  sheet.views = [{ state: 'frozen', xSplit: 1, ySplit: headerRow }];
}

/** An import template: the columns after the example column, and the example rows, marked. */
async function toTemplateXlsx<Row>(sheetName: string, columns: readonly XlsxColumn<Row>[], examples: readonly Row[]): Promise<Buffer> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.columns = [{}, ...columns.map((column) => ({ header: column.header, width: column.width ?? 18 }))];
  sheet.getRow(1).font = { bold: true };
  for (const row of examples) sheet.addRow([null, ...columns.map((column) => neutraliseCell(column.value(row)))]);
  markExamples(
    sheet,
    1,
    examples.map((_, index) => index + 2),
  );
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Answers a GET <list>/download with the rows as an .xlsx attachment. */
export async function sendXlsx<Row>(
  reply: FastifyReply,
  title: string,
  columns: readonly XlsxColumn<Row>[],
  rows: readonly Row[],
): Promise<FastifyReply> {
  return sendXlsxFile(reply, title, await toXlsx(title, columns, rows));
}

/** Answers a GET <import>/template: the columns to fill in, with example rows marked as such. */
export async function sendXlsxTemplate<Row>(reply: FastifyReply, title: string, columns: readonly XlsxColumn<Row>[], examples: readonly Row[]): Promise<FastifyReply> {
  return sendXlsxFile(reply, title, await toTemplateXlsx(title, columns, examples));
}

/** Answers with a workbook made elsewhere (several sheets, notes) as an .xlsx attachment named after `title`. */
export function sendXlsxFile(reply: FastifyReply, title: string, body: Buffer): FastifyReply {
  const fileName = downloadFileName(title, 'xlsx');
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${encodeURIComponent(fileName)}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .send(body);
}
