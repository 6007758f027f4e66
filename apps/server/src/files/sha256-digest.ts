import crypto from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes the bytes through unchanged and hashes them on the way, so a file's SHA-256 is known
 * once it has been stored, without reading it a second time. `hex()` only after the stream ended.
 */
export function sha256Digest(): { stream: Transform; hex: () => string } {
  const hash = crypto.createHash('sha256');
  let result: string | undefined;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      result = hash.digest('hex');
      callback();
    },
  });
  return {
    stream,
    hex: () => {
      if (result === undefined) throw new Error('sha256Digest: the stream has not ended');
      return result;
    },
  };
}
