import crypto from 'node:crypto';
import type { ServiceLog } from '../service-log.js';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../db/schema.js';
import { claimJobs, completeJob, countJobsByState, deleteFinishedJobs, extendLease, failJob, insertJob, releaseJobs, retryJob, type ClaimedJob } from './jobs.repo.js';

export type JobContext = {
  jobId: number;
  /** 1 on the first run, counting the runs of earlier attempts. */
  attempt: number;
  /** Aborted when the runner gives the job up (shutdown past its grace, or its lease lost). */
  signal: AbortSignal;
};

/**
 * Does the work of one job; a throw is a failed attempt, retried later. A job runs once in normal
 * operation, but can run again after a crash or a shutdown that cut it short: make it idempotent.
 */
export type JobHandler<P = unknown> = (payload: P, context: JobContext) => Promise<void>;

export type EnqueueOptions = {
  /** Epoch ms; now when not given. */
  runAt?: number;
  /** While a job with this key is queued or running, enqueueing another adds nothing. */
  dedupeKey?: string;
  maxAttempts?: number;
  /** A transaction, to add the job together with the write that calls for it. */
  db?: Kysely<Database>;
};

export type JobRunnerOptions = {
  db: Kysely<Database>;
  clock: Clock;
  log: ServiceLog;
  /** Jobs run at once by this runner. */
  concurrency?: number;
  pollIntervalMs?: number;
  /** How long a claim holds without news from its runner; renewed while the job runs. */
  leaseMs?: number;
  defaultMaxAttempts?: number;
  /** The wait before the first retry, doubling for each one after, up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
};

const DEFAULTS = {
  concurrency: 4,
  pollIntervalMs: 1000,
  leaseMs: 60_000,
  defaultMaxAttempts: 5,
  retryDelayMs: 5000,
  maxRetryDelayMs: 60 * 60 * 1000,
};

type Run = { done: Promise<void>; abort: AbortController };

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
// Every attempt queues its auto-submit, every enrolment a rule check: finished rows would pile up
// forever. Done jobs are kept a week (to look into what ran), failed ones a month (to fix them).
const PURGE_EVERY_MS = HOUR_MS;
export const KEEP_DONE_JOBS_MS = 7 * DAY_MS;
export const KEEP_FAILED_JOBS_MS = 30 * DAY_MS;

const describeError = (error: unknown): string => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/**
 * Background jobs kept in `sys_job`, so they survive restarts and are shared by every server
 * process on the database: each due job is claimed by one runner, retried with exponential
 * backoff when it throws, and failed for good after its last attempt, keeping the last error.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly runs = new Map<number, Run>();
  private readonly settings: typeof DEFAULTS;
  /** Written into the rows this runner holds. */
  private readonly id = crypto.randomUUID();
  private started = false;
  private stopped: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private pollAgain = false;
  private purgedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: JobRunnerOptions) {
    this.settings = {
      concurrency: options.concurrency ?? DEFAULTS.concurrency,
      pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
      leaseMs: options.leaseMs ?? DEFAULTS.leaseMs,
      defaultMaxAttempts: options.defaultMaxAttempts ?? DEFAULTS.defaultMaxAttempts,
      retryDelayMs: options.retryDelayMs ?? DEFAULTS.retryDelayMs,
      maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
    };
  }

  register<P>(name: string, handler: JobHandler<P>): void {
    if (this.handlers.has(name)) throw new Error(`a handler for the job '${name}' is already registered`);
    this.handlers.set(name, handler as JobHandler);
  }

  /** Queues a job and answers its id (with a dedupe key already held, that job's id). */
  async enqueue(name: string, payload: unknown, options: EnqueueOptions = {}): Promise<number> {
    // A misspelt name would wait in the table forever.
    if (!this.handlers.has(name)) throw new Error(`no handler is registered for the job '${name}'`);
    const now = this.options.clock.now();
    const id = await insertJob(options.db ?? this.options.db, {
      name,
      payload: JSON.stringify(payload ?? null),
      runAt: options.runAt ?? now,
      maxAttempts: options.maxAttempts ?? this.settings.defaultMaxAttempts,
      dedupeKey: options.dedupeKey ?? null,
      now,
    });
    if (options.db === undefined) this.wake();
    return id;
  }

  /** Starts polling for due jobs (main.ts; tests that want a running runner). */
  /** The jobs in each state now, on every process (the metrics' queue depth and failures). */
  countByState(): ReturnType<typeof countJobsByState> {
    return countJobsByState(this.options.db);
  }

  start(): void {
    if (this.started || this.stopped !== undefined) return;
    this.started = true;
    this.schedule(0);
  }

  /**
   * Stops claiming, waits up to `timeoutMs` for the jobs under way, then hands those still running
   * back to the queue for the next runner and aborts their signals. Stopped for good: the same
   * promise answers every later call.
   */
  stop(timeoutMs = 5000): Promise<void> {
    this.stopped ??= this.shutDown(timeoutMs);
    return this.stopped;
  }

  /** Claims and runs due jobs until none is left, and answers how many ran (tests, consoles). */
  async runDue(): Promise<number> {
    let ran = 0;
    while (this.stopped === undefined) {
      const runs = await this.claim(this.settings.concurrency);
      if (runs.length === 0) break;
      await Promise.all(runs);
      ran += runs.length;
    }
    return ran;
  }

  private async shutDown(timeoutMs: number): Promise<void> {
    clearTimeout(this.timer);
    // A claim under way still launches its jobs; they are waited for like the others.
    await this.polling;
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...this.runs.values()].map((run) => run.done)), graceOver]);
    clearTimeout(timer);
    const unfinished = [...this.runs.keys()];
    if (unfinished.length === 0) return;
    try {
      await releaseJobs(this.options.db, unfinished, this.id, this.options.clock.now());
      this.options.log.warn({ jobs: unfinished }, 'jobs still running at shutdown went back to the queue');
    } catch (error) {
      // Not lost either way: their leases run out and another runner takes them up.
      this.options.log.error({ jobs: unfinished, err: error }, 'could not hand unfinished jobs back to the queue');
    }
    for (const run of this.runs.values()) run.abort.abort();
  }

  private schedule(delayMs: number): void {
    if (!this.started || this.stopped !== undefined) return;
    clearTimeout(this.timer);
    // Unreferenced: the server's socket keeps the process alive, a runner alone must not.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
      });
    }, delayMs).unref();
  }

  /** A slot came free or a job was added: look now rather than at the next interval. */
  private wake(): void {
    if (this.polling === undefined) this.schedule(0);
    else this.pollAgain = true;
  }

  private async poll(): Promise<void> {
    this.pollAgain = false;
    let full = false;
    try {
      const free = this.settings.concurrency - this.runs.size;
      full = free > 0 && (await this.claim(free)).length === free;
    } catch (error) {
      this.options.log.error({ err: error }, 'could not claim jobs');
    }
    // Every free slot filled: more may be due at once.
    this.schedule(full || this.pollAgain ? 0 : this.settings.pollIntervalMs);
  }

  private async claim(limit: number): Promise<Promise<void>[]> {
    const now = this.options.clock.now();
    if (now - this.purgedAt >= PURGE_EVERY_MS) {
      this.purgedAt = now;
      await deleteFinishedJobs(this.options.db, { doneBefore: now - KEEP_DONE_JOBS_MS, failedBefore: now - KEEP_FAILED_JOBS_MS });
    }
    const jobs = await claimJobs(this.options.db, {
      runner: this.id,
      names: [...this.handlers.keys()],
      now,
      lockedUntil: now + this.settings.leaseMs,
      limit,
    });
    return jobs.map((job) => this.launch(job));
  }

  private launch(job: ClaimedJob): Promise<void> {
    // Held already: its lease ran out under this runner (no renewal got through), and the old run is given up.
    this.runs.get(job.id)?.abort.abort();
    const abort = new AbortController();
    const run: Run = {
      abort,
      done: this.execute(job, abort).finally(() => {
        if (this.runs.get(job.id) === run) this.runs.delete(job.id);
        this.wake();
      }),
    };
    this.runs.set(job.id, run);
    return run.done;
  }

  private async execute(job: ClaimedJob, abort: AbortController): Promise<void> {
    const { db, clock, log } = this.options;
    const about = { jobId: job.id, job: job.name, attempt: job.attempts };
    try {
      if (job.attempts > job.maxAttempts) {
        // Its last attempt was cut short by a runner that died: no attempt is left.
        await failJob(db, job.id, this.id, { error: 'the runner of its last attempt stopped before it finished', now: clock.now() });
        log.error(about, 'job failed: its runner stopped during the last attempt');
        return;
      }
      const handler = this.handlers.get(job.name);
      if (handler === undefined) throw new Error(`no handler is registered for the job '${job.name}'`);
      const outcome = await this.withLease(job, abort, () =>
        handler(JSON.parse(job.payload) as unknown, { jobId: job.id, attempt: job.attempts, signal: abort.signal }),
      );
      const now = clock.now();
      if (outcome.ok) {
        await completeJob(db, job.id, this.id, now);
      } else if (job.attempts < job.maxAttempts) {
        const delay = Math.min(this.settings.maxRetryDelayMs, this.settings.retryDelayMs * 2 ** (job.attempts - 1));
        await retryJob(db, job.id, this.id, { runAt: now + delay, error: describeError(outcome.error), now });
        log.warn({ ...about, err: outcome.error, retryInMs: delay }, 'job failed; it will be retried');
      } else {
        await failJob(db, job.id, this.id, { error: describeError(outcome.error), now });
        log.error({ ...about, err: outcome.error }, 'job failed on its last attempt');
      }
    } catch (error) {
      // The row stays claimed; once the lease runs out a runner takes the job up again.
      log.error({ ...about, err: error }, 'could not record the outcome of a job');
    }
  }

  /** Runs the handler while renewing the lease; a lease lost (taken over, or released) aborts it. */
  private async withLease(
    job: ClaimedJob,
    abort: AbortController,
    work: () => Promise<void>,
  ): Promise<{ ok: true } | { ok: false; error: unknown }> {
    const { db, clock, log } = this.options;
    const renew = async (): Promise<void> => {
      try {
        const now = clock.now();
        if (!(await extendLease(db, job.id, this.id, now + this.settings.leaseMs, now))) abort.abort();
      } catch (error) {
        log.error({ jobId: job.id, err: error }, 'could not renew the lease of a job');
      }
    };
    const renewal = setInterval(() => void renew(), this.settings.leaseMs / 3).unref();
    try {
      await work();
      return { ok: true };
    } catch (error) {
      return { ok: false, error };
    } finally {
      clearInterval(renewal);
    }
  }
}
