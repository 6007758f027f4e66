import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * PostgreSQL's NOTIFY, heard by every process that LISTENs on `channel` (`AppDatabase.listen`),
 * the sender included; inside a transaction it is delivered on commit only. Payloads must stay
 * under 8000 bytes.
 */
export async function pgNotify(db: Kysely<Database>, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}

/** The channel of one kind of news among the processes of one database schema (test runs share a database, each in its schema). */
export function channelOf(topic: 'notifications' | 'sessions', schema: string | undefined): string {
  return `cc_${topic}_${schema ?? 'public'}`;
}
