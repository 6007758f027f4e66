import type { Kysely } from 'kysely';
import { ReusableQuery } from '../../db/reusable-query.js';
import type { Database } from '../../db/schema.js';

export type SessionRecord = {
  id: string;
  userId: number;
  username: string;
  isAdmin: boolean;
  expiresAt: number;
  lastSeenAt: number;
};

export async function insertSession(
  db: Kysely<Database>,
  session: { id: string; userId: number; ip: string; browser: string; now: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('sys_session')
    .values({
      id: session.id,
      user_id: session.userId,
      ip: session.ip,
      browser: session.browser,
      created_at: session.now,
      last_seen_at: session.now,
      expires_at: session.expiresAt,
    })
    .execute();
}

// Both run on every authenticated request: compiled once.
const liveSession = new ReusableQuery(1, (db, [id]) =>
  db
    .selectFrom('sys_session as s')
    .innerJoin('sys_user as u', 'u.id', 's.user_id')
    .select(['s.id', 's.user_id', 's.expires_at', 's.last_seen_at', 'u.username', 'u.is_admin'])
    .where('s.id', '=', id)
    .where('u.enabled', '=', 1),
);
const sessionTouch = new ReusableQuery(3, (db, [id, now, expiresAt]) =>
  db.updateTable('sys_session').set({ last_seen_at: now, expires_at: expiresAt }).where('id', '=', id),
);

/** The session with its user, only while the user is enabled. */
export async function findLiveSession(db: Kysely<Database>, id: string): Promise<SessionRecord | undefined> {
  const [row] = await liveSession.run(db, [id]);
  return (
    row && {
      id: row.id,
      userId: row.user_id,
      username: row.username,
      isAdmin: row.is_admin === 1,
      expiresAt: Number(row.expires_at),
      lastSeenAt: Number(row.last_seen_at),
    }
  );
}

export async function touchSession(db: Kysely<Database>, id: string, now: number, expiresAt: number): Promise<void> {
  await sessionTouch.run(db, [id, now, expiresAt]);
}

export async function deleteSessions(db: Kysely<Database>, ids: readonly string[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.deleteFrom('sys_session').where('id', 'in', ids).returning('user_id').execute();
  return rows.map((row) => row.user_id);
}

export async function deleteSessionsOfUsers(
  db: Kysely<Database>,
  userIds: readonly number[],
  exceptSessionId?: string,
): Promise<string[]> {
  if (userIds.length === 0) return [];
  let query = db.deleteFrom('sys_session').where('user_id', 'in', userIds);
  if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
  const rows = await query.returning('id').execute();
  return rows.map((row) => row.id);
}

export async function deleteExpiredSessions(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('sys_session').where('expires_at', '<', now).execute();
}
