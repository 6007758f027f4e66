import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function insertCaptcha(db: Kysely<Database>, captcha: { uuid: string; answer: string; expiresAt: number; address: string }): Promise<void> {
  await db.insertInto('sys_captcha').values({ uuid: captcha.uuid, answer: captcha.answer, expires_at: captcha.expiresAt, address: captcha.address }).execute();
}

/** The captchas issued to `address` that are neither used nor expired. */
export async function countLiveCaptchas(db: Kysely<Database>, address: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('sys_captcha')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('address', '=', address)
    .where('expires_at', '>=', now)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Takes the captcha away as it is read: one guess per captcha, right or wrong. */
export async function takeCaptcha(db: Kysely<Database>, uuid: string): Promise<{ answer: string; expiresAt: number } | undefined> {
  const row = await db.deleteFrom('sys_captcha').where('uuid', '=', uuid).returning(['answer', 'expires_at']).executeTakeFirst();
  return row && { answer: row.answer, expiresAt: row.expires_at };
}

export async function deleteExpiredCaptchas(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('sys_captcha').where('expires_at', '<', now).execute();
}
