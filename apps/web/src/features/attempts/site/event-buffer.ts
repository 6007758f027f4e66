import type { AttemptEventsBody, CLIENT_EVENT_TYPES } from '@cloud-classroom/shared/attempts';
import { HttpError } from '../../../lib/http-client';

/**
 * The integrity signals of an attempt (the page hidden, the window left, full screen left, a
 * paste, the network lost), buffered and sent in batches: markers read them as a timeline, never a
 * verdict. Like answers, they are stored until the server has them, so a signal recorded offline
 * arrives later.
 */

export type ClientEventType = (typeof CLIENT_EVENT_TYPES)[number];

export type BufferedEvent = {
  /** The store's key (undefined until stored). */
  key?: number;
  attemptId: number;
  type: ClientEventType;
  questionId: number | null;
  detail: string;
  /** This page's monotonic clock when it happened… */
  at: number;
  /** …and the device's clock, for an event a previous visit left behind (its monotonic clock is gone). */
  wallAt: number;
  /** Which visit of the page recorded it. */
  visit: string;
};

export interface EventStore {
  add(event: BufferedEvent): Promise<number>;
  list(attemptId: number): Promise<BufferedEvent[]>;
  remove(keys: readonly number[]): Promise<void>;
}

export type EventSender = (attemptId: number, events: AttemptEventsBody['events']) => Promise<void>;

export type EventClock = { monotonic: () => number; wall: () => number };

const browserClock: EventClock = { monotonic: () => performance.now(), wall: () => Date.now() };

/** The batch limit of `attemptEventsSchema`. */
export const EVENT_BATCH = 100;
const MAX_AGO_MS = 86_400_000;

export class EventBuffer {
  private readonly visit = Math.random().toString(36).slice(2);
  private stored: Promise<unknown> = Promise.resolve();
  private sending: Promise<boolean> | undefined;

  constructor(
    private readonly attemptId: number,
    private readonly store: EventStore,
    private readonly send: EventSender,
    private readonly clock: EventClock = browserClock,
  ) {}

  record(type: ClientEventType, questionId: number | null, detail = ''): void {
    const event: BufferedEvent = {
      attemptId: this.attemptId,
      type,
      questionId,
      detail: detail.slice(0, 200),
      at: this.clock.monotonic(),
      wallAt: this.clock.wall(),
      visit: this.visit,
    };
    this.stored = this.stored.then(() => this.store.add(event)).catch(() => undefined);
  }

  /**
   * Sends what is stored, oldest first, in batches. True when nothing is left; false when a
   * batch found no network (the events stay for the next try).
   */
  flush(): Promise<boolean> {
    this.sending ??= this.sendAll().finally(() => {
      this.sending = undefined;
    });
    return this.sending;
  }

  private async sendAll(): Promise<boolean> {
    await this.stored;
    const events = (await this.store.list(this.attemptId)).sort((a, b) => (a.key ?? 0) - (b.key ?? 0));
    for (let start = 0; start < events.length; start += EVENT_BATCH) {
      const batch = events.slice(start, start + EVENT_BATCH);
      const nowMonotonic = this.clock.monotonic();
      const nowWall = this.clock.wall();
      const body = batch.map((event) => ({
        type: event.type,
        agoMs: Math.round(Math.min(MAX_AGO_MS, Math.max(0, event.visit === this.visit ? nowMonotonic - event.at : nowWall - event.wallAt))),
        questionId: event.questionId,
        detail: event.detail,
      }));
      try {
        await this.send(this.attemptId, body);
      } catch (error) {
        const status = error instanceof HttpError ? error.status : 0;
        // A refusal (a closed attempt, a malformed batch) will not change on retry: drop the batch.
        if (status === 0 || status >= 500 || status === 429 || status === 401) return false;
      }
      await this.store.remove(batch.flatMap((event) => (event.key === undefined ? [] : [event.key])));
    }
    return true;
  }
}

export class MemoryEventStore implements EventStore {
  private next = 1;
  readonly events = new Map<number, BufferedEvent>();

  add(event: BufferedEvent): Promise<number> {
    const key = this.next++;
    this.events.set(key, { ...event, key });
    return Promise.resolve(key);
  }

  list(attemptId: number): Promise<BufferedEvent[]> {
    return Promise.resolve([...this.events.values()].filter((event) => event.attemptId === attemptId));
  }

  remove(keys: readonly number[]): Promise<void> {
    for (const key of keys) this.events.delete(key);
    return Promise.resolve();
  }
}
