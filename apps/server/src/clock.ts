/**
 * Where services take the time from (epoch milliseconds), so a test can set the time a deadline,
 * a lock or an expiry depends on instead of sleeping or rewriting rows.
 */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that stands still until told otherwise; starts at the real time unless given one. */
export class SettableClock implements Clock {
  constructor(private time: number = Date.now()) {}

  now(): number {
    return this.time;
  }

  set(time: number): void {
    this.time = time;
  }

  advance(ms: number): void {
    this.time += ms;
  }
}
