import type { Readable } from 'node:stream';

/** A stored file's facts. `modifiedAt` is epoch milliseconds. */
export type StoredFileInfo = { key: string; size: number; modifiedAt: number };

/** A stored file held open: its facts, then either one stream of its bytes or a close. */
export type OpenedFile = {
  info: StoredFileInfo;
  /** Its bytes (only `range`, when given); the file closes when the stream ends or is destroyed. */
  stream(range?: ByteRange): Readable;
  close(): void;
};

/** Inclusive, like HTTP's `Range: bytes=start-end`. */
export type ByteRange = { start: number; end: number };

/**
 * Where uploaded files live, by key: a relative path of `/`-separated segments made of letters,
 * digits, `.`, `_` and `-`, none starting with a dot (`files/202401/<hex>.png`, `avatar/<hex>.jpg`).
 * A key that breaks the pattern is refused with an Error before anything is touched.
 */
export interface FileStore {
  /**
   * Stores the stream under `key` (replacing what was there) and resolves once it is durable: a
   * row that refers to the key may be committed after that, and no crash loses the file. Either
   * the whole file is stored or nothing is; a failing stream leaves no file under the key.
   */
  put(key: string, content: Readable): Promise<{ size: number }>;
  /** The file's bytes (only `range`, when given), or undefined when there is no such file. */
  get(key: string, range?: ByteRange): Promise<Readable | undefined>;
  /**
   * The file opened once, with its facts read from the open file, so what is served is the
   * version whose size and time were checked; undefined when there is no such file. The caller
   * takes one stream of it or closes it.
   */
  open(key: string): Promise<OpenedFile | undefined>;
  stat(key: string): Promise<StoredFileInfo | undefined>;
  /** Removes the file if it is there. */
  delete(key: string): Promise<void>;
  /** Every stored file under the folder `prefix`. */
  list(prefix: string): AsyncIterable<StoredFileInfo>;
  /**
   * Removes what is left of writes that never completed (a crash, a killed process) under the
   * folder `prefix`, when last touched before `before` (epoch ms); answers how many.
   */
  removeUnfinished(prefix: string, before: number): Promise<number>;
  /** Lets go of what the store holds open (a bucket's connections); called once the server stops. */
  close(): void;
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export function isFileKey(key: string): boolean {
  return KEY.test(key);
}

export function assertFileKey(key: string): void {
  if (!isFileKey(key)) throw new Error(`not a file store key: ${JSON.stringify(key)}`);
}
