import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { rateLimited } from '../../domain-error.js';
import { clearAccountFailures, clearFailures, countAttempt, holdUntil, recordFailure } from './login-throttle.repo.js';

/** Wrong passwords in a row from one address that lock that address out of the account. */
export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MS = 10 * 60 * 1000;
// The row an attempt counts in; consecutive failures, not attempts, are what lock.
const ATTEMPT_WINDOW_MS = 60 * 1000;
/**
 * Wrong passwords for one account from all addresses together, within ACCOUNT_WINDOW_MS, after
 * which every address that fails must wait SLOW_DOWN_MS before its next try. A guesser with many
 * addresses is slowed; an address that has not failed is never refused.
 */
export const ACCOUNT_SLOW_AFTER = 20;
export const ACCOUNT_WINDOW_MS = 10 * 60 * 1000;
export const SLOW_DOWN_MS = 30 * 1000;

function waitText(ms: number): string {
  if (ms < 60_000) {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    return `${seconds} second${seconds === 1 ? '' : 's'}`;
  }
  const minutes = Math.ceil(ms / 60_000);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export type FailureThrottleOptions = {
  /** Keeps the counts of logins and of password changes apart. */
  scope: string;
  /** The 429's message, given how long to wait ("10 minutes", "25 seconds"). */
  lockedMessage: (wait: string) => string;
};

/**
 * Wrong passwords counted per account AND source address (`request.ip`, the address the audit log
 * records), so a stranger's guesses lock the stranger's address, never the owner's: after
 * LOCK_AFTER_FAILURES in a row an address is locked out of that account for LOCK_MS, and an account
 * guessed at from many addresses slows each failing address down rather than locking anyone out.
 * Used by logins and by password changes alike.
 */
export class FailureThrottle {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: FailureThrottleOptions,
  ) {}

  private accountKey(account: string): string {
    return `${this.options.scope}:${account}`;
  }

  // An address never holds a space, so the key splits back into its account and address.
  private addressKey(account: string, address: string): string {
    return `${this.accountKey(account)} ${address}`;
  }

  /** Counts an attempt; refuses with 429 while this address is locked or slowed down for the account. */
  async check(account: string, address: string, now: number): Promise<void> {
    const state = await countAttempt(this.db, this.addressKey(account, address), now, ATTEMPT_WINDOW_MS);
    if (state.lockedUntil !== null && state.lockedUntil > now) {
      throw rateLimited(this.options.lockedMessage(waitText(state.lockedUntil - now)));
    }
  }

  /**
   * Counts a wrong password (after `check`): throws 429 when it is the one that locks the address,
   * else returns, and the caller answers its own 400.
   */
  async failed(account: string, address: string, now: number): Promise<void> {
    const key = this.addressKey(account, address);
    const state = await recordFailure(this.db, key, LOCK_AFTER_FAILURES, now + LOCK_MS);
    if (state.lockedUntil !== null && state.lockedUntil > now) {
      throw rateLimited(this.options.lockedMessage(waitText(state.lockedUntil - now)));
    }
    const acrossAddresses = await countAttempt(this.db, this.accountKey(account), now, ACCOUNT_WINDOW_MS);
    if (acrossAddresses.attempts >= ACCOUNT_SLOW_AFTER) await holdUntil(this.db, key, now + SLOW_DOWN_MS);
  }

  /** The right password from this address ends its count and any lock on it. */
  async succeeded(account: string, address: string): Promise<void> {
    await clearFailures(this.db, this.addressKey(account, address));
  }

  /** Lifts every address's lock and count on the account (a password set from the console). */
  async lift(account: string): Promise<void> {
    await clearAccountFailures(this.db, this.accountKey(account), `${this.accountKey(account)} `);
  }
}

/** Failed logins, counted under the account a login names whatever its case. */
export const loginThrottle = (db: Kysely<Database>): FailureThrottle =>
  new FailureThrottle(db, {
    scope: 'user',
    lockedMessage: (wait) => `too many failed logins for this account; try again in ${wait}`,
  });

export const loginAccount = (username: string): string => username.toLowerCase();
