import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { rateLimited } from '../../domain-error.js';
import { countAttempt } from './login-throttle.repo.js';

/**
 * Counts a call of a public route from `address` (`request.ip`) in the same throttle rows the
 * logins and captchas count in (a fixed window per key, shared by every process on the database),
 * and refuses with 429 past `max` calls in `windowMs`. `scope` keeps each route's counts apart.
 */
export async function limitPerAddress(
  db: Kysely<Database>,
  scope: string,
  address: string,
  now: number,
  limit: { max: number; windowMs: number },
  message: string,
): Promise<void> {
  const calls = await countAttempt(db, `${scope}:${address}`, now, limit.windowMs);
  if (calls.attempts > limit.max) throw rateLimited(message);
}
