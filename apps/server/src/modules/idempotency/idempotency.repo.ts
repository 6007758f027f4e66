import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export type KeyOwner = { userId: number; key: string };

export type StoredAnswer = { status: number; contentType: string | null; body: string | null };

export type KeyRow = { requestHash: string; answer: StoredAnswer | null };

/**
 * Takes the key for a request unless someone holds it: a new row, or one taken over in the same
 * statement when it is past `expiredBefore`, or still unanswered from before `abandonedBefore`.
 * Answers whether this request holds it now.
 */
export async function claimKey(
  db: Kysely<Database>,
  { userId, key }: KeyOwner,
  requestHash: string,
  now: number,
  { expiredBefore, abandonedBefore }: { expiredBefore: number; abandonedBefore: number },
): Promise<boolean> {
  const claimed = await db
    .insertInto('sys_idempotency')
    .values({ user_id: userId, idem_key: key, request_hash: requestHash, status: null, content_type: null, created_at: now, body: null })
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'idem_key'])
        .doUpdateSet({ request_hash: requestHash, status: null, content_type: null, created_at: now, body: null })
        .where((eb) =>
          eb.or([
            eb('sys_idempotency.created_at', '<', expiredBefore),
            eb.and([eb('sys_idempotency.status', 'is', null), eb('sys_idempotency.created_at', '<', abandonedBefore)]),
          ]),
        ),
    )
    .returning('user_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

export async function findKey(db: Kysely<Database>, { userId, key }: KeyOwner): Promise<KeyRow | undefined> {
  const row = await db
    .selectFrom('sys_idempotency')
    .select(['request_hash', 'status', 'content_type', 'body'])
    .where('user_id', '=', userId)
    .where('idem_key', '=', key)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return { requestHash: row.request_hash, answer: row.status === null ? null : { status: row.status, contentType: row.content_type, body: row.body } };
}

export async function storeAnswer(db: Kysely<Database>, { userId, key }: KeyOwner, answer: StoredAnswer): Promise<void> {
  await db
    .updateTable('sys_idempotency')
    .set({ status: answer.status, content_type: answer.contentType, body: answer.body })
    .where('user_id', '=', userId)
    .where('idem_key', '=', key)
    .execute();
}

export async function deleteKey(db: Kysely<Database>, { userId, key }: KeyOwner): Promise<void> {
  await db.deleteFrom('sys_idempotency').where('user_id', '=', userId).where('idem_key', '=', key).execute();
}

export async function deleteKeysBefore(db: Kysely<Database>, before: number): Promise<void> {
  await db.deleteFrom('sys_idempotency').where('created_at', '<', before).execute();
}
