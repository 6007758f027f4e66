import type { AnswerSaved, AttemptResponse } from '@cloud-classroom/shared/attempts';
import { HttpError } from '../../../lib/http-client';

/**
 * The answers of an attempt on their way to the server (DESIGN §7, "exams that lose nothing").
 * Every change gets the next revision of its question and is written to a local store before it
 * is sent; it leaves the store once the server has acknowledged it (or a newer revision). Sends go
 * one at a time, oldest change first, so a question's revisions arrive in order; only the newest
 * unacknowledged revision of a question is kept (the server ignores older ones anyway). A send
 * that finds no network waits and tries again with backoff; 409 means the attempt takes no more
 * answers (time is up, or it was submitted); 400 drops that answer. After a reload the store's
 * saves are replayed, oldest first.
 */

/** One answer waiting for the server's acknowledgement. */
export type PendingSave = {
  attemptId: number;
  questionId: number;
  revision: number;
  response: AttemptResponse;
  /** Seconds spent on the question since its last acknowledged save. */
  seconds: number;
  /** Order of the change among all of the attempt's changes, kept across reloads. */
  seq: number;
};

/** Where pending saves wait (IndexedDB in the browser): at most one per question, the newest. */
export interface PendingSaveStore {
  list(attemptId: number): Promise<PendingSave[]>;
  /** Replaces the question's pending save. */
  put(save: PendingSave): Promise<void>;
  /** Removes the question's pending save if its revision is `revision` or older. */
  remove(attemptId: number, questionId: number, revision: number): Promise<void>;
  clear(attemptId: number): Promise<void>;
}

export type SaveSender = (save: PendingSave) => Promise<AnswerSaved>;

/** A timer the queue can cancel; injected so tests move time themselves. */
export type Schedule = (run: () => void, ms: number) => () => void;

export const browserSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

export type QueueStatus = {
  /** Questions with a change the server has not acknowledged yet. */
  pending: number;
  /** The last send found no network (or no server): the queue keeps retrying. */
  offline: boolean;
  /** The server takes no more answers (409): time is up or the attempt was submitted. */
  closed: boolean;
  /** The server's time of the last acknowledged save. */
  savedAt: string | undefined;
  /** Questions whose last answer the server refused (400). */
  rejected: readonly number[];
};

export type FlushResult = 'saved' | 'offline' | 'closed';

export type AnswerQueueOptions = {
  attemptId: number;
  store: PendingSaveStore;
  send: SaveSender;
  schedule?: Schedule;
  /** Backoff after the nth failure in a row (from 1). */
  retryDelay?: (failures: number) => number;
};

export const defaultRetryDelay = (failures: number): number => Math.min(30_000, 1000 * 2 ** (failures - 1));

const statusOf = (error: unknown): number => (error instanceof HttpError ? error.status : 0);

export class AnswerQueue {
  private readonly attemptId: number;
  private readonly store: PendingSaveStore;
  private readonly send: SaveSender;
  private readonly schedule: Schedule;
  private readonly retryDelay: (failures: number) => number;

  /** The newest unacknowledged save of each question. */
  private readonly latest = new Map<number, PendingSave>();
  /** The highest revision known for each question (issued here, or the server's). */
  private readonly revisions = new Map<number, number>();
  /** Questions whose newest save may go now (their debounce has passed). */
  private readonly ready = new Set<number>();
  private readonly debounces = new Map<number, () => void>();
  /** Each question's store writes, chained so a save is stored before it is sent. */
  private readonly writes = new Map<number, Promise<void>>();
  private readonly listeners = new Set<() => void>();
  private readonly flushWaiters: Array<(result: FlushResult) => void> = [];
  private inFlight: PendingSave | undefined;
  private seq = 0;
  private running = false;
  private failures = 0;
  private cancelRetry: (() => void) | undefined;
  private current: QueueStatus = { pending: 0, offline: false, closed: false, savedAt: undefined, rejected: [] };

  constructor(options: AnswerQueueOptions) {
    this.attemptId = options.attemptId;
    this.store = options.store;
    this.send = options.send;
    this.schedule = options.schedule ?? browserSchedule;
    this.retryDelay = options.retryDelay ?? defaultRetryDelay;
  }

  status(): QueueStatus {
    return this.current;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts from the server's saved revisions and the store's pending saves: those newer than the
   * server's are returned (the page shows them: they are what the learner last wrote) and sent,
   * oldest change first; older ones are dropped.
   */
  async restore(serverRevisions: ReadonlyMap<number, number>): Promise<PendingSave[]> {
    for (const [questionId, revision] of serverRevisions) this.raiseRevision(questionId, revision);
    const stored = (await this.store.list(this.attemptId)).sort((a, b) => a.seq - b.seq);
    const newer: PendingSave[] = [];
    for (const save of stored) {
      this.seq = Math.max(this.seq, save.seq);
      if (save.revision <= (serverRevisions.get(save.questionId) ?? 0)) {
        await this.store.remove(this.attemptId, save.questionId, save.revision);
        continue;
      }
      // Changes made meanwhile (before the restore finished) are newer: they stay.
      if ((this.latest.get(save.questionId)?.revision ?? 0) >= save.revision) continue;
      this.raiseRevision(save.questionId, save.revision);
      this.latest.set(save.questionId, save);
      this.ready.add(save.questionId);
      newer.push(save);
    }
    this.update();
    void this.pump();
    return newer;
  }

  /**
   * A new answer to a question: stored at once, sent after `debounceMs` without a newer change
   * (typing), or at once (a click). Returns its revision; undefined once the attempt is closed.
   */
  change(questionId: number, response: AttemptResponse, { debounceMs = 0, seconds = 0 }: { debounceMs?: number; seconds?: number } = {}): number | undefined {
    if (this.current.closed) return undefined;
    const revision = (this.revisions.get(questionId) ?? 0) + 1;
    this.revisions.set(questionId, revision);
    const previous = this.latest.get(questionId);
    // Time spent is carried over from a save this one replaces before it was sent.
    const carried = previous !== undefined && previous !== this.inFlight ? previous.seconds : 0;
    const save: PendingSave = { attemptId: this.attemptId, questionId, revision, response, seconds: carried + seconds, seq: ++this.seq };
    this.latest.set(questionId, save);
    this.writes.set(questionId, (this.writes.get(questionId) ?? Promise.resolve()).then(() => this.store.put(save)).catch(() => undefined));
    if (this.current.rejected.includes(questionId)) this.current = { ...this.current, rejected: this.current.rejected.filter((id) => id !== questionId) };

    this.debounces.get(questionId)?.();
    this.debounces.delete(questionId);
    if (debounceMs > 0) {
      this.ready.delete(questionId);
      this.debounces.set(
        questionId,
        this.schedule(() => {
          this.debounces.delete(questionId);
          this.ready.add(questionId);
          void this.pump();
        }, debounceMs),
      );
    } else {
      this.ready.add(questionId);
    }
    this.update();
    void this.pump();
    return revision;
  }

  /** Tries again now (the browser says it is back online). */
  retryNow(): void {
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    void this.pump();
  }

  /**
   * Sends everything now, debounced changes included, and tells how it ended: all acknowledged,
   * stopped for want of a network (the saves stay stored and keep being retried), or closed.
   */
  flush(): Promise<FlushResult> {
    for (const [questionId, cancel] of this.debounces) {
      cancel();
      this.ready.add(questionId);
    }
    this.debounces.clear();
    const result = new Promise<FlushResult>((resolve) => this.flushWaiters.push(resolve));
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    void this.pump().then(() => this.settleFlushes());
    return result;
  }

  /** Stops timers (the page is leaving); what is stored stays for the next visit. */
  dispose(): void {
    for (const cancel of this.debounces.values()) cancel();
    this.debounces.clear();
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    this.listeners.clear();
  }

  private raiseRevision(questionId: number, revision: number): void {
    if ((this.revisions.get(questionId) ?? 0) < revision) this.revisions.set(questionId, revision);
  }

  private nextReady(): PendingSave | undefined {
    let next: PendingSave | undefined;
    for (const questionId of this.ready) {
      const save = this.latest.get(questionId);
      if (save !== undefined && (next === undefined || save.seq < next.seq)) next = save;
    }
    return next;
  }

  private async pump(): Promise<void> {
    if (this.running || this.current.closed || this.cancelRetry !== undefined) return;
    this.running = true;
    try {
      for (let save = this.nextReady(); save !== undefined && !this.current.closed; save = this.nextReady()) {
        this.ready.delete(save.questionId);
        // Stored before sent: a crash between the two loses nothing.
        await this.writes.get(save.questionId);
        this.inFlight = save;
        try {
          const saved = await this.send(save);
          this.inFlight = undefined;
          this.failures = 0;
          await this.acknowledged(save, saved);
        } catch (error) {
          this.inFlight = undefined;
          const status = statusOf(error);
          if (status === 409) {
            await this.close();
            break;
          }
          if (status === 400) {
            await this.refused(save);
            continue;
          }
          this.failures += 1;
          if (this.latest.has(save.questionId)) this.ready.add(save.questionId);
          this.current = { ...this.current, offline: true };
          const cancel = this.schedule(() => {
            this.cancelRetry = undefined;
            void this.pump();
          }, this.retryDelay(this.failures));
          this.cancelRetry = cancel;
          break;
        }
      }
    } finally {
      this.running = false;
      this.update();
      this.settleFlushes();
    }
  }

  private async acknowledged(save: PendingSave, saved: AnswerSaved): Promise<void> {
    // The server's revision may be newer (another device): later changes here must go above it.
    this.raiseRevision(save.questionId, saved.revision);
    const latest = this.latest.get(save.questionId);
    if (latest !== undefined && latest.revision <= saved.revision) {
      this.latest.delete(save.questionId);
      this.ready.delete(save.questionId);
    }
    await this.writes.get(save.questionId);
    await this.store.remove(this.attemptId, save.questionId, saved.revision).catch(() => undefined);
    this.current = { ...this.current, offline: false, savedAt: saved.savedAt };
    this.update();
  }

  private async refused(save: PendingSave): Promise<void> {
    if (this.latest.get(save.questionId) === save) this.latest.delete(save.questionId);
    await this.writes.get(save.questionId);
    await this.store.remove(this.attemptId, save.questionId, save.revision).catch(() => undefined);
    this.current = { ...this.current, rejected: [...new Set([...this.current.rejected, save.questionId])] };
    this.update();
  }

  private async close(): Promise<void> {
    for (const cancel of this.debounces.values()) cancel();
    this.debounces.clear();
    this.latest.clear();
    this.ready.clear();
    this.current = { ...this.current, closed: true, offline: false };
    await Promise.all(this.writes.values());
    // Nothing stored can land any more: keeping it would replay it on every visit.
    await this.store.clear(this.attemptId).catch(() => undefined);
    this.update();
  }

  private settleFlushes(): void {
    if (this.flushWaiters.length === 0 || this.running) return;
    let result: FlushResult | undefined;
    if (this.current.closed) result = 'closed';
    else if (this.latest.size === 0) result = 'saved';
    else if (this.current.offline) result = 'offline';
    if (result === undefined) return;
    for (const resolve of this.flushWaiters.splice(0)) resolve(result);
  }

  private update(): void {
    const pending = this.latest.size;
    if (pending !== this.current.pending) this.current = { ...this.current, pending };
    for (const listener of this.listeners) listener();
  }
}

/** The store when IndexedDB cannot be opened (and in tests): pending saves live as long as the page. */
export class MemoryPendingSaveStore implements PendingSaveStore {
  readonly saves = new Map<string, PendingSave>();

  list(attemptId: number): Promise<PendingSave[]> {
    return Promise.resolve([...this.saves.values()].filter((save) => save.attemptId === attemptId));
  }

  put(save: PendingSave): Promise<void> {
    this.saves.set(`${save.attemptId}:${save.questionId}`, save);
    return Promise.resolve();
  }

  remove(attemptId: number, questionId: number, revision: number): Promise<void> {
    const key = `${attemptId}:${questionId}`;
    const stored = this.saves.get(key);
    if (stored !== undefined && stored.revision <= revision) this.saves.delete(key);
    return Promise.resolve();
  }

  clear(attemptId: number): Promise<void> {
    for (const [key, save] of this.saves) if (save.attemptId === attemptId) this.saves.delete(key);
    return Promise.resolve();
  }
}
