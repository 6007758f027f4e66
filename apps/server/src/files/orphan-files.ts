import type { FileStore } from './file-store.js';

/**
 * How old a file no row refers to must be before it is taken for a leftover. A file is written
 * first and its row committed right after (`FileStore.put` resolves once the file is durable), and
 * an unfinished write is touched by every chunk that arrives; an hour is far longer than any
 * upload stays between two chunks or between its last byte and its row, so nothing live is taken.
 */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;

/** A module that keeps files in one folder of the store, and can say which of them its rows refer to. */
export type FileOwner = {
  folder: string;
  /** Those of `keys` that a row refers to. */
  referenced(keys: readonly string[]): Promise<Set<string>>;
};

/** Keys asked about at once; keeps the `in (…)` lists well under every database's limit. */
const BATCH = 500;

/**
 * Removes, from each owner's folder, files last written before `before` (epoch ms) that no row
 * refers to, and what is left of unfinished writes: uploads killed mid-way leave both. Answers
 * how many files went.
 */
export async function removeOrphanFiles(store: FileStore, owners: readonly FileOwner[], before: number): Promise<number> {
  let removed = 0;
  for (const owner of owners) {
    removed += await store.removeUnfinished(owner.folder, before);
    const old: string[] = [];
    for await (const file of store.list(owner.folder)) if (file.modifiedAt < before) old.push(file.key);
    for (let start = 0; start < old.length; start += BATCH) {
      const batch = old.slice(start, start + BATCH);
      const referenced = await owner.referenced(batch);
      for (const key of batch.filter((candidate) => !referenced.has(candidate))) {
        await store.delete(key);
        removed += 1;
      }
    }
  }
  return removed;
}
