import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettableClock } from '../clock.js';
import { buildTestAppPair } from '../test/test-app.js';
import { KEEP_DONE_JOBS_MS, KEEP_FAILED_JOBS_MS, type JobRunner } from './job-runner.js';

/** The defaults these tests count on (job-runner.ts). */
const RETRY_DELAY_MS = 5000;
const LEASE_MS = 60_000;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * Two apps on one database, each with its own connections and its own runner, as two server
 * processes would be (on PostgreSQL two connection pools); both read one settable clock.
 */
describe('job runner', () => {
  let clock: SettableClock;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let a: JobRunner;
  let b: JobRunner;

  beforeEach(async () => {
    clock = new SettableClock();
    [first, second] = await buildTestAppPair({}, { clock });
    a = first.services.jobs;
    b = second.services.jobs;
  });
  afterEach(async () => {
    await first.close();
  });

  const jobRow = (id: number) =>
    first.services.database.db.selectFrom('sys_job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('runs each job once when two runners on one database claim at the same time', async () => {
    const runsOf = new Map<number, string[]>();
    for (const [runner, label] of [[a, 'a'], [b, 'b']] as const) {
      runner.register<{ n: number }>('count', async ({ n }) => {
        runsOf.set(n, [...(runsOf.get(n) ?? []), label]);
        // Lets the other runner's claim in while this job is under way.
        await new Promise((resolve) => setImmediate(resolve));
      });
    }
    const count = 60;
    const ids: number[] = [];
    for (let n = 0; n < count; n += 1) ids.push(await a.enqueue('count', { n }));

    const [ranByA, ranByB] = await Promise.all([a.runDue(), b.runDue()]);

    expect(ranByA + ranByB).toBe(count);
    expect(ranByA).toBeGreaterThan(0);
    expect(ranByB).toBeGreaterThan(0);
    expect([...runsOf.keys()].sort((x, y) => x - y)).toEqual([...Array(count).keys()]);
    expect([...runsOf.entries()].filter(([, runners]) => runners.length !== 1)).toEqual([]);
    const rows = await first.services.database.db.selectFrom('sys_job').select(['state', 'attempts']).where('id', 'in', ids).execute();
    expect(rows.every((row) => row.state === 'done' && row.attempts === 1)).toBe(true);
  });

  it('retries a failed job with exponential backoff until it succeeds', async () => {
    const attempts: number[] = [];
    a.register('flaky', async (_payload, { attempt }) => {
      attempts.push(attempt);
      if (attempt < 3) throw new Error(`boom ${attempt}`);
    });
    const id = await a.enqueue('flaky', { any: 'thing' });

    expect(await a.runDue()).toBe(1);
    expect(await jobRow(id)).toMatchObject({ state: 'queued', attempts: 1, run_at: clock.now() + RETRY_DELAY_MS });
    expect((await jobRow(id)).last_error).toMatch(/^Error: boom 1/);
    clock.advance(RETRY_DELAY_MS - 1);
    expect(await a.runDue()).toBe(0);
    clock.advance(1);
    expect(await a.runDue()).toBe(1);
    // Twice as long before the next one.
    expect(await jobRow(id)).toMatchObject({ state: 'queued', attempts: 2, run_at: clock.now() + 2 * RETRY_DELAY_MS });
    expect((await jobRow(id)).last_error).toMatch(/^Error: boom 2/);
    clock.advance(2 * RETRY_DELAY_MS - 1);
    expect(await a.runDue()).toBe(0);
    clock.advance(1);
    expect(await a.runDue()).toBe(1);

    expect(attempts).toEqual([1, 2, 3]);
    expect(await jobRow(id)).toMatchObject({ state: 'done', attempts: 3, finished_at: clock.now(), locked_by: null });
  });

  it('marks a job failed after its last attempt, keeping the last error', async () => {
    a.register('doomed', async (_payload, { attempt }) => {
      throw new Error(`still broken (${attempt})`);
    });
    const id = await a.enqueue('doomed', null, { maxAttempts: 2 });
    expect(await a.runDue()).toBe(1);
    clock.advance(RETRY_DELAY_MS);
    expect(await a.runDue()).toBe(1);

    const row = await jobRow(id);
    expect(row).toMatchObject({ state: 'failed', attempts: 2, finished_at: clock.now() });
    expect(row.last_error).toMatch(/^Error: still broken \(2\)/);
    clock.advance(24 * 60 * 60 * 1000);
    expect(await a.runDue()).toBe(0);
  });

  it('forgets done jobs after a week and failed ones after a month, keeping what is unfinished', async () => {
    a.register('ok', async () => {});
    a.register('doomed', async () => {
      throw new Error('broken');
    });
    const done = await a.enqueue('ok', null);
    const failed = await a.enqueue('doomed', null, { maxAttempts: 1 });
    await a.runDue();
    const waiting = await a.enqueue('ok', null, { runAt: clock.now() + 40 * DAY_MS });
    const stillThere = async () =>
      (await first.services.database.db.selectFrom('sys_job').select('id').orderBy('id').execute()).map((row) => row.id);

    // The runner looks at most once an hour.
    clock.advance(KEEP_DONE_JOBS_MS - HOUR_MS);
    await a.runDue();
    expect(await stillThere()).toEqual([done, failed, waiting]);
    clock.advance(HOUR_MS + 1);
    await a.runDue();
    expect(await stillThere()).toEqual([failed, waiting]);
    clock.advance(KEEP_FAILED_JOBS_MS - KEEP_DONE_JOBS_MS);
    await a.runDue();
    expect(await stillThere()).toEqual([waiting]);
  });

  it('does not run a scheduled job before its time', async () => {
    const ran: string[] = [];
    a.register<string>('remind', async (text) => {
      ran.push(text);
    });
    const hour = 60 * 60 * 1000;
    await a.enqueue('remind', 'later', { runAt: clock.now() + hour });
    await a.enqueue('remind', 'now');

    expect(await a.runDue()).toBe(1);
    expect(ran).toEqual(['now']);
    clock.advance(hour - 1);
    expect(await a.runDue()).toBe(0);
    clock.advance(1);
    expect(await a.runDue()).toBe(1);
    expect(ran).toEqual(['now', 'later']);
  });

  it('adds a job once per dedupe key while it is unfinished', async () => {
    const ran: number[] = [];
    a.register<number>('issue', async (n) => {
      ran.push(n);
    });
    const id = await a.enqueue('issue', 1, { dedupeKey: 'certificate:7' });
    expect(await a.enqueue('issue', 2, { dedupeKey: 'certificate:7' })).toBe(id);
    const other = await a.enqueue('issue', 3, { dedupeKey: 'certificate:8' });
    expect(other).not.toBe(id);
    expect(await a.runDue()).toBe(2);
    expect(ran.sort()).toEqual([1, 3]);
    // Finished, the key may be used again.
    expect(await a.enqueue('issue', 4, { dedupeKey: 'certificate:7' })).not.toBe(id);
  });

  it('refuses a job nobody handles', async () => {
    await expect(a.enqueue('no-such-job', {})).rejects.toThrow("no handler is registered for the job 'no-such-job'");
  });

  describe('shutdown', () => {
    it('hands a job still running after the grace back to the queue, where the next runner takes it', async () => {
      const started = deferred();
      const finish = deferred();
      let aborted = false;
      a.register('slow', async (_payload, { signal }) => {
        signal.addEventListener('abort', () => {
          aborted = true;
        });
        started.resolve();
        await finish.promise;
      });
      let ranOnB = 0;
      b.register('slow', async () => {
        ranOnB += 1;
      });
      const id = await a.enqueue('slow', {});
      const running = a.runDue();
      await started.promise;

      await a.stop(0);
      expect(aborted).toBe(true);
      expect(await jobRow(id)).toMatchObject({ state: 'queued', attempts: 0, locked_by: null, locked_until: null });
      // The handler ending late does not mark done a job its runner no longer holds.
      finish.resolve();
      expect(await running).toBe(1);
      expect((await jobRow(id)).state).toBe('queued');

      expect(await b.runDue()).toBe(1);
      expect(ranOnB).toBe(1);
      expect(await jobRow(id)).toMatchObject({ state: 'done', attempts: 1 });
    });

    it('finishes a job that ends within the grace, and claims nothing more', async () => {
      const started = deferred();
      const finish = deferred();
      const ranOn: string[] = [];
      a.register('slow', async () => {
        started.resolve();
        await finish.promise;
        ranOn.push('a');
      });
      b.register('slow', async () => {
        ranOn.push('b');
      });
      const id = await a.enqueue('slow', {});
      a.start();
      await started.promise;

      const stopping = a.stop(60_000);
      finish.resolve();
      await stopping;
      expect(await jobRow(id)).toMatchObject({ state: 'done', attempts: 1 });

      const later = await a.enqueue('slow', {});
      expect(await b.runDue()).toBe(1);
      expect(ranOn).toEqual(['a', 'b']);
      expect(await jobRow(later)).toMatchObject({ state: 'done' });
    });
  });

  describe('a runner that died', () => {
    it('loses its job to another runner once its lease runs out', async () => {
      const started = deferred();
      const hang = deferred();
      a.register('work', async () => {
        started.resolve();
        await hang.promise;
      });
      let ranOnB = 0;
      b.register('work', async () => {
        ranOnB += 1;
      });
      const id = await a.enqueue('work', {});
      const running = a.runDue();
      await started.promise;

      // A renews nothing from here on, as a runner that died does.
      clock.advance(LEASE_MS);
      expect(await b.runDue()).toBe(0);
      clock.advance(1);
      expect(await b.runDue()).toBe(1);
      expect(ranOnB).toBe(1);
      const done = await jobRow(id);
      expect(done).toMatchObject({ state: 'done', attempts: 2, locked_by: null });

      // Should A come back, its outcome is not written over the other runner's.
      hang.resolve();
      await running;
      expect(await jobRow(id)).toEqual(done);
    });

    it('fails the job when that was its last attempt', async () => {
      const started = deferred();
      const hang = deferred();
      a.register('work', async () => {
        started.resolve();
        await hang.promise;
      });
      let ranOnB = 0;
      b.register('work', async () => {
        ranOnB += 1;
      });
      const id = await a.enqueue('work', {}, { maxAttempts: 1 });
      const running = a.runDue();
      await started.promise;

      clock.advance(LEASE_MS + 1);
      expect(await b.runDue()).toBe(1);
      expect(ranOnB).toBe(0);
      const row = await jobRow(id);
      expect(row).toMatchObject({ state: 'failed', finished_at: clock.now() });
      expect(row.last_error).toMatch(/stopped before it finished/);
      hang.resolve();
      await running;
    });
  });
});
