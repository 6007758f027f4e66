import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { invalidInput, rateLimited, tooLarge } from '../domain-error.js';
import { cellText } from '../http/xlsx-export.js';
import { OneAtATime } from './one-at-a-time.js';
import { inflatedSize, readZipDirectory, type ZipEntry } from './zip-directory.js';

// The one reader of an uploaded workbook (every spreadsheet import). An .xlsx is a zip: a file of
// a megabyte can unpack to gigabytes, and exceljs holds all of it, and every cell as objects. So
// the zip's directory is checked before anything is unpacked, every entry is then unpacked once,
// counted and thrown away, stopping at the size its directory declares (a directory may lie),
// and exceljs reads the file in a worker thread whose heap is capped: a workbook that needs more
// fails that thread, not the server. One workbook is read at a time per process.

/** What all entries of a workbook may unpack to together; a 5,000-row import is a few MB. */
const MAX_UNPACKED_BYTES = 50 * 1024 * 1024;
const MAX_UNPACKED_TEXT = '50 MB';
/** How many times its compressed size an entry may unpack to, once past RATIO_FREE_BYTES. Real sheets stay far below. */
const MAX_RATIO = 100;
const RATIO_FREE_BYTES = 1024 * 1024;
/** A workbook has a dozen parts, a few more per sheet and picture. */
const MAX_ENTRIES = 1000;
/** exceljs's heap for one workbook: a 5,000-row import needs some 40 MB. */
const WORKER_HEAP_MB = 256;
/** Imports waiting for the one being read; beyond, the next is asked to come back. Each holds its file meanwhile. */
const MAX_WAITING = 8;

export type WorkbookRow = {
  /** As Excel numbers it: the first row is 1. */
  number: number;
  /** The cells' values as exceljs gives them (`cell.value`), the first column first. */
  cells: unknown[];
};

export type WorkbookSheet = {
  name: string;
  /** The number of the last row, blank or not. */
  rowCount: number;
  /** Rows with a value. */
  actualRowCount: number;
  /** The rows with a value, in order. */
  rows: WorkbookRow[];
};

export type WorkbookReading = {
  /** Only the first sheet, or all of them. */
  sheets: 'first' | 'all';
  /** The most data rows in the sheets read, each sheet allowed `headerRows` more: `at most ${rows} ${what} per file`. */
  limit: { rows: number; headerRows: number; what: string };
};

type WorkerAnswer = { outcome: 'read'; sheets: WorkbookSheet[] } | { outcome: 'unreadable' | 'no-sheet' | 'too-many-rows' };

// Plain JavaScript run by `new Worker(…, { eval: true })`, the same in the tests (TypeScript
// sources) and in the bundled server, which has no file of its own to start a worker from.
const WORKBOOK_WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const ExcelJS = require(workerData.exceljs);
async function read() {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(workerData.zip);
  } catch {
    return { outcome: 'unreadable' };
  }
  const sheets = workerData.sheets === 'first' ? workbook.worksheets.slice(0, 1) : workbook.worksheets;
  if (sheets.length === 0) return { outcome: 'no-sheet' };
  const rows = sheets.reduce((sum, sheet) => sum + sheet.actualRowCount, 0);
  if (rows > workerData.maxRows + workerData.headerRows * sheets.length) return { outcome: 'too-many-rows' };
  return {
    outcome: 'read',
    sheets: sheets.map((sheet) => {
      const rows = [];
      sheet.eachRow((row, number) => {
        const cells = [];
        for (let column = 1; column <= row.cellCount; column += 1) cells.push(row.getCell(column).value);
        rows.push({ number, cells });
      });
      return { name: sheet.name, rowCount: sheet.rowCount, actualRowCount: sheet.actualRowCount, rows };
    }),
  };
}
read().then((answer) => parentPort.postMessage(answer));
`;

let exceljsPath: string | undefined;
const reads = new OneAtATime(MAX_WAITING);

/**
 * The sheets of an uploaded workbook, read within the limits above. Every refusal is a 4xx whose
 * message starts with `field`: 413 for a workbook unpacking too large (by its directory, by its
 * compression, or by the memory reading it takes), 400 for a damaged one or one of too many rows,
 * 429 when too many imports wait already.
 */
export async function readWorkbook(content: Readable, field: string, reading: WorkbookReading): Promise<WorkbookSheet[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk as Buffer);
  const zip = Buffer.concat(chunks);
  const entries = checkedDirectory(zip, field);
  return reads.run(
    async () => {
      await checkUnpackedSizes(zip, entries, field);
      return readInWorker(zip, field, reading);
    },
    () => rateLimited(`${field}: ${MAX_WAITING} imports are waiting to be read already; send it again in a minute`),
  );
}

/**
 * The first sheet of an uploaded workbook if its first row is `columns` (letter case aside),
 * after the example column if it has one (`setExamplesAside`); null when it is not, so the caller
 * can say which header it expects.
 */
export async function readImportSheet(
  content: Readable,
  field: string,
  columns: readonly string[],
  limit: { rows: number; what: string },
): Promise<{ sheet: WorkbookSheet; examples: number[] } | null> {
  const [read] = await readWorkbook(content, field, { sheets: 'first', limit: { ...limit, headerRows: 1 } });
  if (read === undefined) throw invalidInput(`${field}: the spreadsheet has no sheet`);
  const imported = setExamplesAside(read, 1);
  const header = rowCells(imported.sheet, 1);
  return columns.some((name, index) => cellText(header[index]).toLowerCase() !== name.toLowerCase()) ? null : imported;
}

const isExampleHeader = (value: unknown) => ['示例', 'example'].includes(cellText(value).normalize('NFKC').toLowerCase());

/**
 * The sheet as its columns are read, without the template's example column (when the header
 * row `headerRow` starts with it) and without the rows it marks, whose numbers come apart. A
 * sheet without the column is as it is: a download, or a file made by hand.
 */
export function setExamplesAside(sheet: WorkbookSheet, headerRow: number): { sheet: WorkbookSheet; examples: number[] } {
  if (!isExampleHeader(rowCells(sheet, headerRow)[0])) return { sheet, examples: [] };
  const examples: number[] = [];
  const rows: WorkbookRow[] = [];
  for (const { number, cells } of sheet.rows) {
    if (number > headerRow && cellText(cells[0]) !== '') examples.push(number);
    else rows.push({ number, cells: cells.slice(1) });
  }
  return { sheet: { ...sheet, rows }, examples };
}

/** The cells of row `number` (none for a blank row). */
export function rowCells(sheet: WorkbookSheet, number: number): unknown[] {
  return sheet.rows.find((row) => row.number === number)?.cells ?? [];
}

const unreadable = (field: string, reason?: string) => invalidInput(`${field}: is not a readable .xlsx spreadsheet${reason === undefined ? '' : ` (${reason})`}`);

function checkedDirectory(zip: Buffer, field: string): ZipEntry[] {
  const directory = readZipDirectory(zip, MAX_ENTRIES);
  if ('tooMany' in directory) throw tooLarge(`${field}: the workbook holds ${directory.tooMany} files, at most ${MAX_ENTRIES}`);
  if ('damaged' in directory) throw unreadable(field, directory.damaged);
  let total = 0;
  for (const entry of directory.entries) {
    total += entry.uncompressedSize;
    if (total > MAX_UNPACKED_BYTES) throw tooLarge(`${field}: the workbook unpacks to more than ${MAX_UNPACKED_TEXT}`);
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
    if (entry.uncompressedSize > RATIO_FREE_BYTES && ratio > MAX_RATIO) {
      throw tooLarge(`${field}: ${entry.name} unpacks to ${Math.floor(ratio)} times its size, at most ${MAX_RATIO}`);
    }
  }
  return directory.entries;
}

async function checkUnpackedSizes(zip: Buffer, entries: readonly ZipEntry[], field: string): Promise<void> {
  for (const entry of entries) {
    let size: number | 'over';
    try {
      size = await inflatedSize(zip, entry, entry.uncompressedSize);
    } catch {
      throw unreadable(field, `${entry.name} is damaged`);
    }
    if (size === 'over') throw unreadable(field, `${entry.name} unpacks to more than its zip directory says`);
  }
}

function readInWorker(zip: Buffer, field: string, reading: WorkbookReading): Promise<WorkbookSheet[]> {
  exceljsPath ??= createRequire(import.meta.url).resolve('exceljs');
  const workerData = { exceljs: exceljsPath, zip, sheets: reading.sheets, maxRows: reading.limit.rows, headerRows: reading.limit.headerRows };
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKBOOK_WORKER, { eval: true, workerData, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    let answer: WorkerAnswer | undefined;
    worker.once('message', (message: WorkerAnswer) => {
      answer = message;
      void worker.terminate();
    });
    worker.once('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') reject(tooLarge(`${field}: the workbook needs more memory to read than an import may take (${WORKER_HEAP_MB} MB)`));
      else reject(error);
    });
    worker.once('exit', () => {
      if (answer === undefined) reject(new Error('the workbook thread stopped without an answer'));
      else if (answer.outcome === 'read') resolve(answer.sheets);
      else if (answer.outcome === 'unreadable') reject(unreadable(field));
      else if (answer.outcome === 'no-sheet') reject(invalidInput(`${field}: the spreadsheet has no sheet`));
      else reject(invalidInput(`${field}: at most ${reading.limit.rows} ${reading.limit.what} per file`));
    });
  });
}
