// Driver error codes: PostgreSQL's SQLSTATE, better-sqlite3's extended result codes.
const UNIQUE_VIOLATIONS = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
const REFERENCE_VIOLATIONS = new Set(['23503', 'SQLITE_CONSTRAINT_FOREIGNKEY']);

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/** Whether a write failed on a unique index or key, on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return typeof code === 'string' && UNIQUE_VIOLATIONS.has(code);
}

/** Whether a write failed on a foreign key, on either database. */
export function isReferenceViolation(error: unknown): boolean {
  const code = codeOf(error);
  return typeof code === 'string' && REFERENCE_VIOLATIONS.has(code);
}

// PostgreSQL's connection exceptions (class 08) and its shutting down or starting up (57P01-57P03),
// and the socket errors of a server that is gone or does not answer.
const UNAVAILABLE_CODES = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// node-postgres says these in words only.
const UNAVAILABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** Whether a query failed because the database cannot be reached now (down, restarting, cut off), not because of the query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}
