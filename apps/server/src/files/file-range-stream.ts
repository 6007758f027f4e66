import fs from 'node:fs';
import { Readable, type Writable } from 'node:stream';

/**
 * Reads of 512 KiB rather than the default 64: a player's range request (a MiB or more) then
 * takes two reads and two socket writes instead of sixteen of each.
 */
export const READ_CHUNK_BYTES = 512 * 1024;
/** Free read buffers kept for the next streams (at most 8 MiB held). */
const POOLED_BUFFERS = 16;
const pool: Buffer[] = [];

const takeBuffer = (): Buffer => pool.pop() ?? Buffer.allocUnsafeSlow(READ_CHUNK_BYTES);
const giveBack = (buffer: Buffer): void => {
  if (pool.length < POOLED_BUFFERS) pool.push(buffer);
};

function readAt(fd: number, buffer: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => fs.read(fd, buffer, 0, length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))));
}

/**
 * The bytes `start`..`end` (inclusive) of an open file, closing it when done or destroyed.
 *
 * Piped (as fastify sends a stream), it reads into a few pooled buffers and reads the next chunk
 * into a buffer only once the destination has called back for its previous write, that is once
 * the bytes are out of it (in the kernel, or copied). A fresh 512 KiB buffer per read, as
 * fs.createReadStream allocates, is memory outside the JS heap, and V8 answers a steady flow of
 * it with full collections of the whole heap: for a video's range requests that cost twice
 * the reading and sending. Read any other way ('data', async iteration), each chunk is a fresh
 * buffer, as the reader may keep it.
 */
export class FileRangeStream extends Readable {
  private position: number;
  /** A read in flight: the descriptor is closed only after it, never under it. */
  private reading: Promise<unknown> = Promise.resolve();
  private piped = false;

  constructor(
    private readonly fd: number,
    start: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: READ_CHUNK_BYTES });
    this.position = start;
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    // Only a stream nobody has read yet: a started one goes on as any Readable does.
    if (this.piped || this.readableFlowing !== null || this.readableLength > 0 || this.destroyed) return super.pipe(destination, options);
    this.piped = true;
    void this.pump(destination as unknown as Writable, options?.end !== false);
    return destination;
  }

  override _read(): void {
    const length = Math.min(READ_CHUNK_BYTES, this.end - this.position + 1);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafeSlow(length);
    this.reading = readAt(this.fd, buffer, length, this.position).then(
      (bytesRead) => {
        this.position += bytesRead;
        // A file cut short under us ends the stream early, as fs.createReadStream does.
        this.push(bytesRead === 0 ? null : buffer.subarray(0, bytesRead));
      },
      (error: unknown) => this.destroy(error as Error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    void this.reading.finally(() => fs.close(this.fd, (closeError) => callback(error ?? closeError)));
  }

  private async pump(destination: Writable, end: boolean): Promise<void> {
    const buffer = takeBuffer();
    try {
      while (!this.destroyed && this.position <= this.end) {
        const length = Math.min(buffer.length, this.end - this.position + 1);
        const read = readAt(this.fd, buffer, length, this.position);
        this.reading = read.catch(() => undefined);
        const bytesRead = await read;
        if (bytesRead === 0 || this.destroyed) break;
        this.position += bytesRead;
        // Until the destination calls back, the buffer is its; a write that never calls back
        // keeps it from the pool for good, and the collector takes it.
        const written = await new Promise<Error | null | undefined>((resolve) => {
          destination.write(buffer.subarray(0, bytesRead), resolve);
        });
        if (written) throw written;
      }
      giveBack(buffer);
    } catch (error) {
      giveBack(buffer);
      this.destroy(error as Error);
      return;
    }
    if (this.destroyed) return;
    this.push(null);
    this.resume();
    if (end) destination.end();
  }
}
