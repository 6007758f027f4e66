import { once } from 'node:events';
import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { inflatedSize, readZipDirectory } from '../files/zip-directory.js';

// Zip bombs shaped as workbooks: a real .xlsx made by exceljs whose first sheet's XML is swapped
// for a huge, highly compressible one. The XML is deflated as it is made, so building a bomb of
// hundreds of megabytes holds only its compressed bytes (about a thousandth) in memory.

/** A deflated sheet: its compressed bytes, what they unpack to and their CRC. */
export type DeflatedSheet = { compressed: Buffer; size: number; crc32: number };

const inlineCell = (reference: string, text: string) => `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`;

// The same row 2 over and over: exceljs reads each (a row is the last one of its number), which
// is what makes the bomb go off in a reader that does not look at sizes first.
const ROW = `<row r="2">${inlineCell('A2', 'bomb')}</row>`;

/** A worksheet's XML of at least `bytes`: `header` as row 1, then one row repeated. */
export async function deflatedSheet(header: readonly string[], bytes: number): Promise<DeflatedSheet> {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
  let size = 0;
  let crc32 = 0;
  const write = async (part: Buffer) => {
    size += part.length;
    crc32 = zlib.crc32(part, crc32);
    if (!deflate.write(part)) await once(deflate, 'drain');
  };
  const rows = Buffer.from(ROW.repeat(Math.ceil((1024 * 1024) / ROW.length)));
  await write(Buffer.from('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'));
  await write(Buffer.from(`<row r="1">${header.map((text, index) => inlineCell(`${String.fromCharCode(65 + index)}1`, text)).join('')}</row>`));
  while (size < bytes) await write(rows);
  await write(Buffer.from('</sheetData></worksheet>'));
  deflate.end();
  await once(deflate, 'end');
  return { compressed: Buffer.concat(compressed), size, crc32 };
}

type Entry = { name: string; method: number; crc32: number; data: Buffer; declaredSize: number };

/**
 * A workbook made by exceljs whose `xl/worksheets/sheet1.xml` is `sheet`. Its zip directory and local header declare the sheet's true size, or `declaredSize`
 * when given: a directory that lies, saying small while it unpacks huge.
 */
export async function xlsxBomb(sheet: DeflatedSheet, declaredSize = sheet.size): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Sheet1').addRow(['replaced']);
  const made = Buffer.from(await book.xlsx.writeBuffer());
  const directory = readZipDirectory(made, 100);
  if (!('entries' in directory)) throw new Error('exceljs wrote a zip its reader does not take');
  const entries: Entry[] = [];
  for (const entry of directory.entries) {
    if (entry.name === 'xl/worksheets/sheet1.xml') {
      entries.push({ name: entry.name, method: 8, crc32: sheet.crc32, data: sheet.compressed, declaredSize });
    } else {
      const size = await inflatedSize(made, entry, entry.uncompressedSize);
      if (size !== entry.uncompressedSize) throw new Error(`exceljs wrote ${entry.name} of another size than it says`);
      const data = made.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
      entries.push({ name: entry.name, method: entry.method, crc32: entry.crc32, data, declaredSize: size });
    }
  }
  if (!entries.some((entry) => entry.data === sheet.compressed)) throw new Error('exceljs wrote no xl/worksheets/sheet1.xml');
  return zipOf(entries);
}

/** A plain zip of `entries` as given, sizes and all. */
function zipOf(entries: readonly Entry[]): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(entry.crc32, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(entry.crc32, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    directory.push(central, name);
    parts.push(local, name, entry.data);
    offset += local.length + name.length + entry.data.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directoryBytes, end]);
}
