import zlib from 'node:zlib';

// The central directory of a zip archive (an .xlsx is one), read before a byte of it is unpacked:
// what it holds and how big each entry says it unpacks to. Only the plain form that Excel,
// LibreOffice and exceljs write is taken: one disk, no ZIP64, no encryption, nothing before the
// first entry or between the directory and its end record. Anything else is answered as damaged,
// so that no reader after this one can see entries this one did not.

export type ZipEntry = {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  crc32: number;
  compressedSize: number;
  /** What the directory says; `inflatedSize` finds out what it is. */
  uncompressedSize: number;
  /** Where its compressed bytes start, past the local header. */
  dataOffset: number;
};

export type ZipDirectory = { entries: ZipEntry[] } | { damaged: string };

const END_SIGNATURE = 0x06054b50;
const ENTRY_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const END_SIZE = 22;
const ENTRY_SIZE = 46;
const LOCAL_SIZE = 30;
const ENCRYPTED = 0x1;

/**
 * The entries of `zip`'s central directory, or why it cannot be read as a plain zip. An archive
 * listing more than `maxEntries` is answered as soon as its end record says so (`tooMany`),
 * before its directory is walked.
 */
export function readZipDirectory(zip: Buffer, maxEntries: number): ZipDirectory | { tooMany: number } {
  // The last end record, as JSZip (exceljs's reader) takes it.
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + END_SIZE > zip.length) return { damaged: 'no zip directory' };
  if (zip.readUInt32LE(end) !== END_SIGNATURE) return { damaged: 'no zip directory' };
  const disk = zip.readUInt16LE(end + 4);
  const directoryDisk = zip.readUInt16LE(end + 6);
  const onDisk = zip.readUInt16LE(end + 8);
  const count = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  const directoryOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) return { damaged: 'ZIP64 archives are not taken' };
  if (disk !== 0 || directoryDisk !== 0 || onDisk !== count) return { damaged: 'archives split over several parts are not taken' };
  if (count > maxEntries) return { tooMany: count };
  if (directoryOffset + directorySize !== end) return { damaged: 'the zip directory is not where its end record says' };
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (at + ENTRY_SIZE > end || zip.readUInt32LE(at) !== ENTRY_SIGNATURE) return { damaged: 'the zip directory is cut short' };
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc32 = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const uncompressedSize = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const headerOffset = zip.readUInt32LE(at + 42);
    const next = at + ENTRY_SIZE + nameLength + extraLength + commentLength;
    if (next > end) return { damaged: 'the zip directory is cut short' };
    const name = zip.toString('utf8', at + ENTRY_SIZE, at + ENTRY_SIZE + nameLength);
    if ((flags & ENCRYPTED) !== 0) return { damaged: `${name} is encrypted` };
    if (method !== 0 && method !== 8) return { damaged: `${name} is compressed by method ${method}` };
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || headerOffset === 0xffffffff) return { damaged: 'ZIP64 archives are not taken' };
    if (headerOffset + LOCAL_SIZE > directoryOffset || zip.readUInt32LE(headerOffset) !== LOCAL_SIGNATURE) return { damaged: `${name} has no local header` };
    const dataOffset = headerOffset + LOCAL_SIZE + zip.readUInt16LE(headerOffset + 26) + zip.readUInt16LE(headerOffset + 28);
    if (dataOffset + compressedSize > directoryOffset) return { damaged: `${name} runs into the zip directory` };
    entries.push({ name, method, crc32, compressedSize, uncompressedSize, dataOffset });
    at = next;
  }
  if (at !== end) return { damaged: 'the zip directory holds more than its end record counts' };
  return { entries };
}

/**
 * How many bytes `entry` unpacks to, counted while it is unpacked and nothing kept; `'over'` as
 * soon as that passes `limit`, so that an entry whose directory lies about its size costs no more
 * than the limit. Corrupt deflate data rejects.
 */
export function inflatedSize(zip: Buffer, entry: ZipEntry, limit: number): Promise<number | 'over'> {
  const data = zip.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method === 0) return Promise.resolve(data.length > limit ? 'over' : data.length);
  return new Promise((resolve, reject) => {
    const inflate = zlib.createInflateRaw();
    let size = 0;
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return;
      inflate.destroy();
      resolve('over');
    });
    inflate.once('end', () => resolve(size));
    inflate.once('error', reject);
    inflate.end(data);
  });
}
