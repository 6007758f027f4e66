import { mergeIntervals, type Interval } from '@cloud-classroom/shared/progress-rules';

/**
 * The largest step between two `timeupdate`s that still counts as playing on. Browsers fire the
 * event every 15–250 ms, so even at 4× a step stays under a second; anything longer is a seek
 * (or a stall the browser skipped over), and what lies in between was not watched.
 */
export const MAX_CONTINUOUS_STEP_SECONDS = 1.5;

/**
 * What of a video was actually watched, from the playhead's positions while it played. Only
 * continuous playing counts: a jump starts a new interval, and a pause or a seek ends the
 * current one, so the server is never told about the stretch a seek passed over.
 */
export class IntervalRecorder {
  private closed: Interval[] = [];
  /** The interval being watched now: [where it started, the last position seen]. */
  private open: [number, number] | undefined;

  /** A `timeupdate` while the video plays (not paused, not seeking). */
  playedTo(time: number): void {
    if (!Number.isFinite(time) || time < 0) return;
    if (this.open !== undefined && time >= this.open[1] && time - this.open[1] <= MAX_CONTINUOUS_STEP_SECONDS) {
      this.open[1] = time;
      return;
    }
    this.interrupt();
    this.open = [time, time];
  }

  /** A pause, a seek, a stall or the end: the next position starts a new interval. */
  interrupt(): void {
    if (this.open !== undefined && this.open[1] > this.open[0]) this.closed.push([this.open[0], this.open[1]]);
    this.open = undefined;
  }

  /** Whether anything was watched since the last `take()`. */
  hasWatched(): boolean {
    return this.closed.length > 0 || (this.open !== undefined && this.open[1] > this.open[0]);
  }

  /**
   * Everything watched since the last call, merged. The interval being watched carries on from
   * where it was taken, so playing on joins it without counting a second twice.
   */
  take(): Interval[] {
    const open: Interval[] = this.open === undefined ? [] : [[this.open[0], this.open[1]]];
    const taken = mergeIntervals([...this.closed, ...open]);
    this.closed = [];
    if (this.open !== undefined) this.open = [this.open[1], this.open[1]];
    return taken;
  }
}
