import type { Kysely } from 'kysely';

// The address each captcha was issued to (issue 31): an address is held to a number of captchas
// it asked for and has not used yet, rather than to a number a minute, so an office behind one NAT
// or proxy, where hundreds open the login page together, is never refused one. Rows issued before
// have none and expire within two minutes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sys_captcha').addColumn('address', 'varchar(64)').execute();
  await db.schema.createIndex('sys_captcha_address').on('sys_captcha').columns(['address', 'expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sys_captcha_address').on('sys_captcha').execute();
  await db.schema.alterTable('sys_captcha').dropColumn('address').execute();
}
