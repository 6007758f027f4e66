import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export type ThrottleState = { attempts: number; consecutiveFailures: number; lockedUntil: number | null };

/** Counts one attempt in the key's fixed window (starting a new window when the old one is over). */
export async function countAttempt(db: Kysely<Database>, key: string, now: number, windowMs: number): Promise<ThrottleState> {
  const stale = now - windowMs;
  const row = await db
    .insertInto('sys_login_throttle')
    .values({ key, window_start: now, attempts: 1, consecutive_failures: 0, locked_until: null })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        attempts: sql<number>`case when sys_login_throttle.window_start < ${stale} then 1 else sys_login_throttle.attempts + 1 end`,
        window_start: sql<number>`case when sys_login_throttle.window_start < ${stale} then ${now} else sys_login_throttle.window_start end`,
      }),
    )
    .returning(['attempts', 'consecutive_failures', 'locked_until'])
    .executeTakeFirstOrThrow();
  return { attempts: row.attempts, consecutiveFailures: row.consecutive_failures, lockedUntil: row.locked_until };
}

/** When the key stops refusing; null when it does not refuse (or has no row). */
export async function lockedUntil(db: Kysely<Database>, key: string): Promise<number | null> {
  const row = await db.selectFrom('sys_login_throttle').select('locked_until').where('key', '=', key).executeTakeFirst();
  return row?.locked_until ?? null;
}

export async function recordFailure(
  db: Kysely<Database>,
  key: string,
  lockAfter: number,
  lockUntil: number,
): Promise<ThrottleState> {
  const row = await db
    .updateTable('sys_login_throttle')
    .set({
      consecutive_failures: sql<number>`consecutive_failures + 1`,
      locked_until: sql<number | null>`case when consecutive_failures + 1 >= ${lockAfter} then ${lockUntil} else locked_until end`,
    })
    .where('key', '=', key)
    .returning(['attempts', 'consecutive_failures', 'locked_until'])
    .executeTakeFirstOrThrow();
  return { attempts: row.attempts, consecutiveFailures: row.consecutive_failures, lockedUntil: row.locked_until };
}

export async function clearFailures(db: Kysely<Database>, key: string): Promise<void> {
  await db.updateTable('sys_login_throttle').set({ consecutive_failures: 0, locked_until: null }).where('key', '=', key).execute();
}

/** Keeps the key refusing until `until`, unless it is locked for longer already. */
export async function holdUntil(db: Kysely<Database>, key: string, until: number): Promise<void> {
  await db
    .updateTable('sys_login_throttle')
    .set({ locked_until: sql<number>`case when locked_until is not null and locked_until > ${until} then locked_until else ${until} end` })
    .where('key', '=', key)
    .execute();
}

/** Forgets the key and every key under it (`prefix`), counts and locks alike. */
export async function clearAccountFailures(db: Kysely<Database>, key: string, prefix: string): Promise<void> {
  await db
    .deleteFrom('sys_login_throttle')
    .where((eb) => eb.or([eb('key', '=', key), eb(sql<string>`substr(${sql.ref('key')}, 1, ${prefix.length})`, '=', prefix)]))
    .execute();
}
