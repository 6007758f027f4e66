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
