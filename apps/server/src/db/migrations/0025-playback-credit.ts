import type { Kysely } from 'kysely';

// A playback's credit was allowed per report (the seconds since its previous report, plus a
// tolerance), so reports sent back to back each brought a tolerance of their own and added up to
// any study time at all. Now a playback is allowed the seconds since it started, plus the one
// tolerance it started with, less what it has been credited: both are kept on the playback. A
// playback running at the upgrade keeps the full tolerance (2 s, CLOCK_TOLERANCE_SECONDS then).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('edu_playback').addColumn('credited_seconds', 'double precision', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema
    .alterTable('edu_playback')
    .addColumn('tolerance_seconds', 'double precision', (col) => col.notNull().defaultTo(2))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('edu_playback').dropColumn('tolerance_seconds').execute();
  await db.schema.alterTable('edu_playback').dropColumn('credited_seconds').execute();
}
