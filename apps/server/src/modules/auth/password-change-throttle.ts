import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { invalidInput, rateLimited, type DomainError } from '../../domain-error.js';
import { LOCK_AFTER_FAILURES, LOCK_MS, LOGIN_WINDOW_MS } from './auth.service.js';
import { clearFailures, countAttempt, recordFailure } from './login-throttle.repo.js';

function locked(until: number, now: number): DomainError {
  const minutes = Math.ceil((until - now) / 60_000);
  return rateLimited(`oldPass: too many wrong passwords; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`);
}

/**
 * Wrong current passwords given to change one's password, counted per account (whichever session
 * sends them) and locked as failed logins are: a stolen session must not become a way to guess
 * the password it does not know.
 */
export class PasswordChangeThrottle {
  constructor(private readonly db: Kysely<Database>) {}

  private key(userId: number): string {
    return `password-change:${userId}`;
  }

  /** Refuses with 429 while the account's password change is locked. */
  async check(userId: number, now: number): Promise<void> {
    const state = await countAttempt(this.db, this.key(userId), now, LOGIN_WINDOW_MS);
    if (state.lockedUntil !== null && state.lockedUntil > now) throw locked(state.lockedUntil, now);
  }

  /** Counts a wrong current password: 429 when it is the one that locks, else the 400 naming the field. */
  async failed(userId: number, now: number): Promise<never> {
    const state = await recordFailure(this.db, this.key(userId), LOCK_AFTER_FAILURES, now + LOCK_MS);
    if (state.lockedUntil !== null && state.lockedUntil > now) throw locked(state.lockedUntil, now);
    throw invalidInput('oldPass: the current password is wrong');
  }

  /** A right current password, or a new password set from the console, ends the count and any lock. */
  async succeeded(userId: number): Promise<void> {
    await clearFailures(this.db, this.key(userId));
  }
}
