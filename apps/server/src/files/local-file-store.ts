import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { FileRangeStream } from './file-range-stream.js';
import { assertFileKey, type ByteRange, type FileStore, type OpenedFile, type StoredFileInfo } from './file-store.js';

// Callback-style descriptors, not FileHandle: a stream over a FileHandle reads each chunk through
// a promise and costs a video's range requests about twice the CPU of fs.createReadStream's.
const openFile = promisify(fs.open);
const statOpenFile = promisify(fs.fstat);

/**
 * A write in progress is `.<name>.<random>.partial` beside its final name: renamed once complete
 * (so the name holds a whole file or none), left behind only by a crash, and then swept.
 */
const UNFINISHED = /^\.(.+)\.[0-9a-f]{16}\.partial$/;

/** Files under one folder of this machine's disk (the data folder), readable by the server's user only. */
export class LocalFileStore implements FileStore {
  constructor(private readonly root: string) {}

  async put(key: string, content: Readable): Promise<{ size: number }> {
    const target = this.pathOf(key);
    const folder = path.dirname(target);
    const partial = path.join(folder, `.${path.basename(target)}.${crypto.randomBytes(8).toString('hex')}.partial`);
    const created = await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
    // A new folder survives a crash only once the folder holding it is synced.
    for (let dir = folder; created !== undefined; dir = path.dirname(dir)) {
      await syncFolder(path.dirname(dir));
      if (dir === created) break;
    }
    try {
      // flush: the bytes reach the disk (fsync) before the stream reports them written.
      const out = fs.createWriteStream(partial, { flags: 'wx', mode: 0o600, flush: true });
      await pipeline(content, out);
      await fs.promises.rename(partial, target);
      await syncFolder(folder);
      return { size: out.bytesWritten };
    } catch (error) {
      content.destroy();
      await fs.promises.rm(partial, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable | undefined> {
    const handle = await fs.promises.open(this.pathOf(key), 'r').catch(missing);
    if (handle === undefined) return undefined;
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      return undefined;
    }
    return handle.createReadStream(range === undefined ? {} : { start: range.start, end: range.end });
  }

  async open(key: string): Promise<OpenedFile | undefined> {
    const fd = await openFile(this.pathOf(key), 'r').catch(missing);
    if (fd === undefined) return undefined;
    const stat = await statOpenFile(fd).catch((error: unknown) => {
      fs.close(fd, () => {});
      throw error;
    });
    if (!stat.isFile()) {
      fs.close(fd, () => {});
      return undefined;
    }
    let taken = false;
    return {
      info: { key, size: stat.size, modifiedAt: stat.mtimeMs },
      stream: (range) => {
        if (taken) throw new Error(`${key}: already streamed or closed`);
        taken = true;
        return range === undefined ? new FileRangeStream(fd, 0, stat.size - 1) : new FileRangeStream(fd, range.start, range.end);
      },
      close: () => {
        if (taken) return;
        taken = true;
        fs.close(fd, () => {});
      },
    };
  }

  async stat(key: string): Promise<StoredFileInfo | undefined> {
    const stat = await fs.promises.stat(this.pathOf(key)).catch(missing);
    return stat?.isFile() ? { key, size: stat.size, modifiedAt: stat.mtimeMs } : undefined;
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<StoredFileInfo> {
    for await (const file of this.filesUnder(prefix)) {
      if (UNFINISHED.test(path.basename(file.path))) continue;
      yield { key: path.relative(this.root, file.path).split(path.sep).join('/'), size: file.size, modifiedAt: file.modifiedAt };
    }
  }

  async removeUnfinished(prefix: string, before: number): Promise<number> {
    let removed = 0;
    for await (const file of this.filesUnder(prefix)) {
      if (!UNFINISHED.test(path.basename(file.path)) || file.modifiedAt >= before) continue;
      await fs.promises.rm(file.path, { force: true });
      removed += 1;
    }
    return removed;
  }

  close(): void {}

  private async *filesUnder(prefix: string): AsyncIterable<{ path: string; size: number; modifiedAt: number }> {
    const entries = await fs.promises.readdir(this.pathOf(prefix), { recursive: true, withFileTypes: true }).catch(missing);
    for (const entry of entries ?? []) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const stat = await fs.promises.stat(file).catch(missing);
      if (stat !== undefined) yield { path: file, size: stat.size, modifiedAt: stat.mtimeMs };
    }
  }

  private pathOf(key: string): string {
    assertFileKey(key);
    return path.join(this.root, ...key.split('/'));
  }
}

function missing(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
  throw error;
}

/** A rename is durable only once its folder is synced too. */
async function syncFolder(folder: string): Promise<void> {
  // Windows cannot open a folder for syncing; it journals metadata itself.
  if (process.platform === 'win32') return;
  const handle = await fs.promises.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
