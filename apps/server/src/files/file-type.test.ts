import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { detectFileType, textOnly, type FileType } from './file-type.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('detectFileType', () => {
  it.each<[string, Buffer, FileType]>([
    ['PNG', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), 'png'],
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'jpeg'],
    ['GIF87a', bytes('GIF87a', [1, 0]), 'gif'],
    ['GIF89a', bytes('GIF89a', [1, 0]), 'gif'],
    ['WebP', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), 'webp'],
    ['PDF', bytes('%PDF-1.7\n'), 'pdf'],
    ['MP4', bytes([0, 0, 0, 0x18], 'ftypisom', [0, 0, 2, 0]), 'mp4'],
    ['WebM', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm', [0x42, 0x87]), 'webm'],
    ['xlsx (a zip archive)', bytes('PK', [3, 4, 20, 0, 6, 0]), 'zip'],
    ['an empty zip archive', bytes('PK', [5, 6], new Array<number>(18).fill(0)), 'zip'],
    ['MP3 with an ID3 tag', bytes('ID3', [4, 0, 0]), 'mp3'],
    ['MP3 frame', bytes([0xff, 0xfb, 0x90, 0x64]), 'mp3'],
    ['Matroska that is not WebM', bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], 'matroska'), 'unknown'],
    ['RIFF that is not WebP (a WAV)', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '), 'unknown'],
    ['HTML', bytes('<!doctype html><html>'), 'unknown'],
    ['text', bytes('name,score\nAda,90\n'), 'unknown'],
    ['nothing', Buffer.alloc(0), 'unknown'],
    ['a PNG signature cut short', bytes([0x89, 0x50, 0x4e, 0x47]), 'unknown'],
  ])('tells %s', (_name, head, type) => {
    expect(detectFileType(head)).toBe(type);
  });
});

describe('textOnly', () => {
  const through = (...chunks: Buffer[]) => text(Readable.from(chunks).pipe(textOnly(() => new Error('not text'))));

  it('passes UTF-8 through, even with a character split between chunks', async () => {
    const word = Buffer.from('课程', 'utf8');
    expect(await through(word.subarray(0, 2), word.subarray(2))).toBe('课程');
  });

  it.each([
    ['a NUL byte', [Buffer.from([0x61, 0, 0x62])]],
    ['bytes that are not UTF-8', [Buffer.from([0xc3, 0x28])]],
    ['a character cut off at the end', [Buffer.from('课', 'utf8').subarray(0, 2)]],
  ])('fails on %s', async (_name, chunks) => {
    const stream = Readable.from(chunks).pipe(textOnly(() => new Error('not text')));
    await expect(text(stream)).rejects.toThrow('not text');
  });
});
