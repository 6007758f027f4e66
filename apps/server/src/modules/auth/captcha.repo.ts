import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function insertCaptcha(db: Kysely<Database>, uuid: string, answer: string, expiresAt: number): Promise<void> {
  await db.insertInto('sys_captcha').values({ uuid, answer, expires_at: expiresAt }).execute();
}

/** Takes the captcha away as it is read: one guess per captcha, right or wrong. */
export async function takeCaptcha(db: Kysely<Database>, uuid: string): Promise<{ answer: string; expiresAt: number } | undefined> {
  const row = await db.deleteFrom('sys_captcha').where('uuid', '=', uuid).returning(['answer', 'expires_at']).executeTakeFirst();
  return row && { answer: row.answer, expiresAt: row.expires_at };
}

export async function deleteExpiredCaptchas(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('sys_captcha').where('expires_at', '<', now).execute();
}
