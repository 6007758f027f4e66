import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/dialect.js';
import type { Database, JobState } from '../db/schema.js';

export type NewJob = {
  name: string;
  /** JSON. */
  payload: string;
  runAt: number;
  maxAttempts: number;
  dedupeKey: string | null;
  now: number;
};

export type ClaimedJob = {
  id: number;
  name: string;
  payload: string;
  /** This claim included. */
  attempts: number;
  maxAttempts: number;
};

/** Whether the dedupe index covers a job in this state (migration 0006 says the same). */
const unfinished = sql<boolean>`state in ('queued', 'running')`;

/**
 * Adds a queued job and answers its id; with a dedupe key that an unfinished job already holds,
 * adds nothing and answers that job's id.
 */
export async function insertJob(db: Kysely<Database>, job: NewJob): Promise<number> {
  const inserted = await db
    .insertInto('sys_job')
    .values({
      name: job.name,
      payload: job.payload,
      state: 'queued',
      run_at: job.runAt,
      max_attempts: job.maxAttempts,
      dedupe_key: job.dedupeKey,
      created_at: job.now,
      updated_at: job.now,
    })
    // Names the partial index's predicate, as both databases require to pick that index.
    .onConflict((conflict) => conflict.column('dedupe_key').where(unfinished).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted !== undefined) return inserted.id;
  const holder = await db
    .selectFrom('sys_job')
    .select('id')
    .where('dedupe_key', '=', job.dedupeKey)
    .where(unfinished)
    .executeTakeFirst();
  // The holder finished between the two statements: its key is free again.
  return holder?.id ?? insertJob(db, job);
}

/**
 * Takes up to `limit` due jobs of these names for one runner, in one statement: queued jobs whose
 * time has come, and running ones whose lease ran out (their runner died). On PostgreSQL the rows
 * are locked with SKIP LOCKED, so runners claiming at once take different jobs; SQLite runs one
 * writing statement at a time, so the statement alone is atomic.
 */
export async function claimJobs(
  db: Kysely<Database>,
  claim: { runner: string; names: readonly string[]; now: number; lockedUntil: number; limit: number },
): Promise<ClaimedJob[]> {
  if (claim.names.length === 0 || claim.limit <= 0) return [];
  const due = db
    .selectFrom('sys_job')
    .select('id')
    .where('name', 'in', claim.names)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', claim.now)]),
        eb.and([eb('state', '=', 'running'), eb('locked_until', '<', claim.now)]),
      ]),
    )
    .orderBy('run_at')
    .orderBy('id')
    .limit(claim.limit)
    .$if(isPostgres(db), (query) => query.forUpdate().skipLocked());
  const rows = await db
    .updateTable('sys_job')
    .set((eb) => ({
      state: 'running',
      attempts: eb('attempts', '+', 1),
      locked_by: claim.runner,
      locked_until: claim.lockedUntil,
      updated_at: claim.now,
    }))
    .where('id', 'in', due)
    .returning(['id', 'name', 'payload', 'attempts', 'max_attempts'])
    .execute();
  return rows
    .map((row) => ({ id: row.id, name: row.name, payload: row.payload, attempts: row.attempts, maxAttempts: row.max_attempts }))
    .sort((a, b) => a.id - b.id);
}

/** The outcome of a run is written only while the runner still holds the job. */
function heldBy(db: Kysely<Database>, id: number, runner: string) {
  return db.updateTable('sys_job').where('id', '=', id).where('locked_by', '=', runner).where('state', '=', 'running');
}

const changed = (result: { numUpdatedRows: bigint }): boolean => result.numUpdatedRows > 0n;

export async function extendLease(db: Kysely<Database>, id: number, runner: string, lockedUntil: number, now: number): Promise<boolean> {
  return changed(await heldBy(db, id, runner).set({ locked_until: lockedUntil, updated_at: now }).executeTakeFirst());
}

export async function completeJob(db: Kysely<Database>, id: number, runner: string, now: number): Promise<boolean> {
  const done = { state: 'done', locked_by: null, locked_until: null, updated_at: now, finished_at: now } as const;
  return changed(await heldBy(db, id, runner).set(done).executeTakeFirst());
}

export async function retryJob(
  db: Kysely<Database>,
  id: number,
  runner: string,
  retry: { runAt: number; error: string; now: number },
): Promise<boolean> {
  const queued = { state: 'queued', run_at: retry.runAt, last_error: retry.error, locked_by: null, locked_until: null, updated_at: retry.now } as const;
  return changed(await heldBy(db, id, runner).set(queued).executeTakeFirst());
}

export async function failJob(db: Kysely<Database>, id: number, runner: string, failure: { error: string; now: number }): Promise<boolean> {
  const failed = {
    state: 'failed',
    last_error: failure.error,
    locked_by: null,
    locked_until: null,
    updated_at: failure.now,
    finished_at: failure.now,
  } as const;
  return changed(await heldBy(db, id, runner).set(failed).executeTakeFirst());
}

/**
 * Hands unfinished jobs back to the queue at shutdown, due at once. The interrupted attempt is
 * not counted: the job did not fail, its runner stopped.
 */
export async function releaseJobs(db: Kysely<Database>, ids: readonly number[], runner: string, now: number): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('sys_job')
    .set((eb) => ({ state: 'queued', attempts: eb('attempts', '-', 1), locked_by: null, locked_until: null, updated_at: now }))
    .where('id', 'in', ids)
    .where('locked_by', '=', runner)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes finished jobs: done ones finished before `doneBefore`, failed ones before `failedBefore`. */
export async function deleteFinishedJobs(db: Kysely<Database>, { doneBefore, failedBefore }: { doneBefore: number; failedBefore: number }): Promise<number> {
  const result = await db
    .deleteFrom('sys_job')
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'done'), eb('finished_at', '<', doneBefore)]),
        eb.and([eb('state', '=', 'failed'), eb('finished_at', '<', failedBefore)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many jobs are in each state now. */
export async function countJobsByState(db: Kysely<Database>): Promise<Record<JobState, number>> {
  const rows = await db
    .selectFrom('sys_job')
    .select(['state', (eb) => eb.fn.countAll<number | string>().as('count')])
    .groupBy('state')
    .execute();
  const counts: Record<JobState, number> = { queued: 0, running: 0, done: 0, failed: 0 };
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}
