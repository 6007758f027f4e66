import { Transform, type TransformCallback } from 'node:stream';

/** What the first bytes of a file can tell; 'unknown' for anything else, text included. */
export type FileType = 'png' | 'jpeg' | 'gif' | 'webp' | 'pdf' | 'mp4' | 'webm' | 'zip' | 'mp3' | 'unknown';

/** How many first bytes `detectFileType` looks at (WebM's document type is the furthest in). */
export const FILE_HEAD_BYTES = 64;

type Signature = (head: Buffer) => boolean;

function bytesAt(expected: string | readonly number[], offset = 0): Signature {
  const bytes = typeof expected === 'string' ? Buffer.from(expected, 'latin1') : Buffer.from(expected);
  return (head) => head.subarray(offset, offset + bytes.length).equals(bytes);
}

const SIGNATURES: [Exclude<FileType, 'unknown'>, Signature][] = [
  ['png', bytesAt([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ['jpeg', bytesAt([0xff, 0xd8, 0xff])],
  ['gif', (head) => bytesAt('GIF87a')(head) || bytesAt('GIF89a')(head)],
  ['webp', (head) => bytesAt('RIFF')(head) && bytesAt('WEBP', 8)(head)],
  ['pdf', bytesAt('%PDF-')],
  ['mp4', bytesAt('ftyp', 4)],
  // An EBML (Matroska) header whose document type is webm.
  ['webm', (head) => bytesAt([0x1a, 0x45, 0xdf, 0xa3])(head) && head.subarray(0, FILE_HEAD_BYTES).includes('webm', 4, 'latin1')],
  // docx, xlsx and pptx are zip archives too; an empty archive starts with its end record.
  ['zip', (head) => bytesAt([0x50, 0x4b, 0x03, 0x04])(head) || bytesAt([0x50, 0x4b, 0x05, 0x06])(head)],
  // An ID3 tag, or straight away an MPEG audio frame: 11 sync bits, then layer III.
  ['mp3', (head) => bytesAt('ID3')(head) || (head[0] === 0xff && ((head[1] ?? 0) & 0xe6) === 0xe2)],
];

/**
 * The one place that tells a file's type, from its first bytes (`FILE_HEAD_BYTES` of them, or the
 * whole file when shorter), never from the name or content type the client sent.
 */
export function detectFileType(head: Buffer): FileType {
  return SIGNATURES.find(([, matches]) => matches(head))?.[0] ?? 'unknown';
}

/**
 * Passes text through and fails with `mismatch()` as soon as the bytes are not UTF-8 or hold a
 * NUL, which no text file people upload contains.
 */
export function textOnly(mismatch: () => Error): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const isText = (decode: () => void) => {
    try {
      decode();
      return true;
    } catch {
      return false;
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      if (chunk.includes(0) || !isText(() => decoder.decode(chunk, { stream: true }))) callback(mismatch());
      else callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      callback(isText(() => decoder.decode()) ? null : mismatch());
    },
  });
}
