import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { invalidInput } from '../../domain-error.js';
import { FailureThrottle } from './failure-throttle.js';

/**
 * Wrong current passwords given to change one's password, counted and locked as failed logins
 * are (per account and address): a stolen session must not become a way to guess the password it
 * does not know, nor lock the owner, elsewhere, out of changing it.
 */
export class PasswordChangeThrottle {
  private readonly throttle: FailureThrottle;

  constructor(db: Kysely<Database>) {
    this.throttle = new FailureThrottle(db, {
      scope: 'password-change',
      lockedMessage: (wait) => `oldPass: too many wrong passwords; try again in ${wait}`,
    });
  }

  /** Refuses with 429 while password changes of the account from this address are locked. */
  async check(userId: number, address: string, now: number): Promise<void> {
    await this.throttle.check(String(userId), address, now);
  }

  /** Counts a wrong current password: 429 when it is the one that locks, else the 400 naming the field. */
  async failed(userId: number, address: string, now: number): Promise<never> {
    await this.throttle.failed(String(userId), address, now);
    throw invalidInput('oldPass: the current password is wrong');
  }

  /** A right current password ends the count and any lock from this address. */
  async succeeded(userId: number, address: string): Promise<void> {
    await this.throttle.succeeded(String(userId), address);
  }

  /** A new password set from the console lifts the locks from every address. */
  async lift(userId: number): Promise<void> {
    await this.throttle.lift(String(userId));
  }
}
