import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { clearFailures, usernameThrottleKey } from './login-throttle.repo.js';

/** Ends the count of failed logins under this user name, and any lock it set (a password set from the console). */
export async function liftLoginLock(db: Kysely<Database>, username: string): Promise<void> {
  await clearFailures(db, usernameThrottleKey(username));
}
