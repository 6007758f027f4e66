// A full disk is the operator's to fix, not a bug: it is said in words, as a 507, wherever the
// write that hit it was (a file store, a spool, a backup, SQLite's WAL or PostgreSQL's disk).

/** What a request that found the disk full answers: every writer removes what it had begun. */
export const DISK_FULL = "the server's disk is full; nothing was saved";
const DATABASE_DISK_FULL = "the database server's disk is full; nothing was saved";

// The file system's codes (out of space, over the user's quota) and SQLite's result code.
const LOCAL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
// PostgreSQL's SQLSTATE disk_full: its own disk, which may be another machine's.
const DATABASE_CODES = new Set(['53100']);

/** The words for an error that is a full disk (its cause's too), else undefined. */
export function diskFullMessage(error: unknown): string | undefined {
  // A few causes deep at most: an error's cause may be anything, a cycle included.
  for (let depth = 0, at = error; depth < 4 && typeof at === 'object' && at !== null; depth += 1, at = (at as { cause?: unknown }).cause) {
    const code = (at as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (LOCAL_CODES.has(code)) return DISK_FULL;
    if (DATABASE_CODES.has(code)) return DATABASE_DISK_FULL;
  }
  return undefined;
}
