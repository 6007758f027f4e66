import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { finished } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileRangeStream, READ_CHUNK_BYTES } from './file-range-stream.js';

/** A destination that keeps what each write held at the moment it called back, and calls back late. */
function slowCollector(): { destination: Writable; received: () => Buffer } {
  const chunks: Buffer[] = [];
  const destination = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      setTimeout(() => {
        chunks.push(Buffer.from(chunk));
        callback();
      }, 5);
    },
  });
  return { destination, received: () => Buffer.concat(chunks) };
}

const isClosed = (fd: number) => {
  try {
    fs.fstatSync(fd);
    return false;
  } catch {
    return true;
  }
};

describe('FileRangeStream', () => {
  let file: string;
  let content: Buffer;
  beforeEach(() => {
    // Several reads' worth, not a whole number of them.
    content = crypto.randomBytes(READ_CHUNK_BYTES * 3 + 12_345);
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-range-')), 'data.bin');
    fs.writeFileSync(file, content);
  });
  afterEach(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));

  it('pipes the range exactly, reusing its buffers only after each write called back, and closes the file', async () => {
    // Two at once: each stream's bytes stay its own though both draw from one pool.
    const ranges = [
      { start: 0, end: content.length - 1 },
      { start: 1000, end: READ_CHUNK_BYTES * 2 + 7 },
    ];
    const runs = ranges.map(({ start, end }) => {
      const fd = fs.openSync(file, 'r');
      const stream = new FileRangeStream(fd, start, end);
      const { destination, received } = slowCollector();
      stream.pipe(destination);
      return { fd, stream, received, done: finished(destination), expected: content.subarray(start, end + 1) };
    });
    for (const run of runs) {
      await run.done;
      await finished(run.stream);
      expect(run.received().equals(run.expected)).toBe(true);
      expect(isClosed(run.fd)).toBe(true);
    }
  });

  it('gives fresh chunks to a reader that keeps them, and an empty file or range ends at once', async () => {
    const fd = fs.openSync(file, 'r');
    const read = await buffer(new FileRangeStream(fd, 5, content.length - 1));
    expect(read.equals(content.subarray(5))).toBe(true);
    expect(isClosed(fd)).toBe(true);
    const empty = fs.openSync(file, 'r');
    expect((await buffer(new FileRangeStream(empty, 0, -1))).length).toBe(0);
    const { destination, received } = slowCollector();
    const piped = fs.openSync(file, 'r');
    new FileRangeStream(piped, 0, -1).pipe(destination);
    await finished(destination);
    expect(received().length).toBe(0);
  });

  it('stops and closes the file when destroyed mid-way, as when the player goes away', async () => {
    const fd = fs.openSync(file, 'r');
    const stream = new FileRangeStream(fd, 0, content.length - 1);
    const { destination } = slowCollector();
    stream.pipe(destination);
    await new Promise((resolve) => setTimeout(resolve, 2));
    stream.destroy();
    if (!stream.closed) await once(stream, 'close');
    expect(isClosed(fd)).toBe(true);
  });
});
