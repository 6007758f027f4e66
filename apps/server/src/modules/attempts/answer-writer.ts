import type { Clock } from '../../clock.js';
import type { AnswerOutcome, AnswerWrite } from './attempts.repo.js';

/** Writes a batch in one transaction and answers each item's outcome once it is committed. */
export type BatchWrite = (items: readonly AnswerWrite[], now: number) => Promise<AnswerOutcome[]>;

/** The most answers one transaction writes; more wait for the next. */
const MAX_BATCH = 1000;

type Pending = { item: AnswerWrite; resolve: (outcome: AnswerOutcome) => void; reject: (error: unknown) => void };

/**
 * Group commit for autosaves (DESIGN §8): a save is acknowledged only once durable, and a commit
 * (an fsync on SQLite) costs far more than the write, so saves arriving together share one. The
 * first save queued schedules a flush for after the current I/O callbacks (setImmediate), by
 * which time the other requests that arrived with it have queued theirs; the flush writes them
 * all in one transaction and only then answers each. One flush at a time: saves arriving while it
 * is in flight form the next batch.
 */
export class AnswerWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private flushing = false;

  constructor(
    private readonly write: BatchWrite,
    private readonly clock: Clock,
  ) {}

  save(item: AnswerWrite): Promise<AnswerOutcome> {
    return new Promise<AnswerOutcome>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.flushing || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, MAX_BATCH);
    this.flushing = true;
    try {
      const outcomes = await this.write(
        batch.map((pending) => pending.item),
        this.clock.now(),
      );
      batch.forEach((pending, index) => pending.resolve(outcomes[index] as AnswerOutcome));
    } catch (error) {
      // Nothing of the batch was committed: each request answers the failure (the client retries).
      for (const pending of batch) pending.reject(error);
    } finally {
      this.flushing = false;
      this.schedule();
    }
  }
}
