import { Transform, type TransformCallback } from 'node:stream';
import { formatFileSize, type StorableExtension } from '@cloud-classroom/shared/storage';
import { invalidInput, tooLarge, type DomainError } from '../../domain-error.js';

type Signature = (head: Buffer) => boolean;

function bytesAt(expected: string | readonly number[], offset = 0): Signature {
  const bytes = typeof expected === 'string' ? Buffer.from(expected, 'latin1') : Buffer.from(expected);
  return (head) => head.subarray(offset, offset + bytes.length).equals(bytes);
}

const jpeg = bytesAt([0xff, 0xd8, 0xff]);
// docx, xlsx and pptx are zip archives; their extension says which.
const zip = bytesAt([0x50, 0x4b, 0x03, 0x04]);

/** How each accepted extension's content must begin; 'text' means UTF-8 without NUL bytes. */
const EXPECTED_CONTENT: Record<StorableExtension, Signature | 'text'> = {
  png: bytesAt([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  jpg: jpeg,
  jpeg,
  gif: (head) => bytesAt('GIF87a')(head) || bytesAt('GIF89a')(head),
  webp: (head) => bytesAt('RIFF')(head) && bytesAt('WEBP', 8)(head),
  pdf: bytesAt('%PDF-'),
  docx: zip,
  xlsx: zip,
  pptx: zip,
  txt: 'text',
  csv: 'text',
  md: 'text',
  // An ID3 tag, or straight away an MPEG audio frame: 11 sync bits, then layer III.
  mp3: (head) => bytesAt('ID3')(head) || (head[0] === 0xff && ((head[1] ?? 0) & 0xe6) === 0xe2),
  mp4: bytesAt('ftyp', 4),
};

/** Enough for every signature above (webp's is the longest). */
const HEAD_LENGTH = 12;

/**
 * Passes an upload through while making sure it is what its extension claims and no larger than
 * allowed. It fails the stream as soon as it knows, so a refused upload is not written out in full.
 */
export class ContentCheck extends Transform {
  private readonly expected: Signature | 'text';
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private head = Buffer.alloc(0);
  private headChecked = false;
  private bytes = 0;

  constructor(
    private readonly extension: StorableExtension,
    private readonly maxBytes: number,
  ) {
    super();
    this.expected = EXPECTED_CONTENT[extension];
  }

  get size(): number {
    return this.bytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      callback(tooLarge(`file: is larger than ${formatFileSize(this.maxBytes)}`));
      return;
    }
    callback(this.problemWith(chunk) ?? null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.bytes === 0) {
      callback(invalidInput('file: is empty'));
      return;
    }
    callback(this.problemAtEnd());
  }

  private problemWith(chunk: Buffer): DomainError | undefined {
    if (this.expected === 'text') {
      if (chunk.includes(0)) return this.mismatch();
      try {
        this.decoder.decode(chunk, { stream: true });
      } catch {
        return this.mismatch();
      }
      return undefined;
    }
    if (this.headChecked) return undefined;
    this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_LENGTH - this.head.length)]);
    if (this.head.length < HEAD_LENGTH) return undefined;
    this.headChecked = true;
    return this.expected(this.head) ? undefined : this.mismatch();
  }

  private problemAtEnd(): DomainError | undefined {
    if (this.expected === 'text') {
      try {
        this.decoder.decode();
      } catch {
        return this.mismatch();
      }
      return undefined;
    }
    if (this.headChecked) return undefined;
    return this.expected(this.head) ? undefined : this.mismatch();
  }

  private mismatch(): DomainError {
    return invalidInput(`file: the content is not a .${this.extension} file`);
  }
}
