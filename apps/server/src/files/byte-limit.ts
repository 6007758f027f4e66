import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes at most `maxBytes` through and fails with `tooLarge()` at the first byte beyond, so an
 * oversize upload is refused while it arrives, not after it has been stored.
 */
export function byteLimit(maxBytes: number, tooLarge: () => Error): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      bytes += chunk.length;
      if (bytes > maxBytes) callback(tooLarge());
      else callback(null, chunk);
    },
  });
}
