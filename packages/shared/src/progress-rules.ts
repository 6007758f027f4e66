// The arithmetic of trusted progress (DESIGN §7, lms-landscape §5.1), pure so the player and the
// server agree on it and a table test pins it. No zod here: learner pages import this file.

/** A stretch of a video watched, in seconds: [from, to]. */
export type Interval = readonly [number, number];

/** Seconds of slack on the wall clock per report (network delay, timer jitter). */
export const CLOCK_TOLERANCE_SECONDS = 2;
/** How far past the furthest point watched a seek may land and still count, when skipping is not allowed. */
export const SKIP_TOLERANCE_SECONDS = 5;
/** The seconds a document page must stay on screen to count as read. */
export const PAGE_DWELL_SECONDS = 5;
/** How often the player reports while playing (or while a page is open). */
export const REPORT_EVERY_SECONDS = 10;
/** The most study time one report can add: a report after a long silence (a sleeping laptop) is not an hour of study. */
export const MAX_STUDY_SECONDS_PER_REPORT = 60;
/** The most intervals one report may carry. */
export const MAX_INTERVALS_PER_REPORT = 200;

/** Sorted, overlapping or touching intervals joined, empty ones dropped. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter(([from, to]) => to > from).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** Total seconds the (merged) intervals cover. */
export function coveredSeconds(intervals: readonly Interval[]): number {
  return mergeIntervals(intervals).reduce((sum, [from, to]) => sum + (to - from), 0);
}

/** The parts of `interval` not yet in `covered` (merged). */
export function uncoveredParts(interval: Interval, covered: readonly Interval[]): Interval[] {
  let parts: Interval[] = [interval];
  for (const [from, to] of covered) {
    parts = parts.flatMap(([a, b]): Interval[] => {
      if (to <= a || from >= b) return [[a, b]];
      const left: Interval[] = from > a ? [[a, from]] : [];
      const right: Interval[] = to < b ? [[to, b]] : [];
      return [...left, ...right];
    });
  }
  return parts.filter(([a, b]) => b > a);
}

export type CoverageInput = {
  /** What was covered before this report (merged). */
  covered: readonly Interval[];
  /** What the report claims. */
  claimed: readonly Interval[];
  /** The video's length: nothing past it counts. */
  durationSeconds: number;
  /** Seconds of new coverage the clock allows (see `allowedSeconds`). */
  allowance: number;
  /** Skipping not allowed: an interval starting beyond `furthest + SKIP_TOLERANCE_SECONDS` earns nothing. */
  allowSkip: boolean;
  /** The furthest point reached by continuous watching from the start. */
  furthest: number;
};

/**
 * The new coverage a report earns: the claimed intervals clipped to the video, less what was
 * already covered, cut in playing order to what the clock allows. Without skipping, an interval
 * that starts beyond the furthest point watched (plus a tolerance) earns nothing, while one that
 * starts within reach is continuous watching and moves the reach along as far as it is accepted.
 * Returns the new merged coverage and how much was added.
 */
export function acceptCoverage(input: CoverageInput): { covered: Interval[]; accepted: number } {
  let budget = Math.max(0, input.allowance);
  let reach = input.furthest;
  let covered = mergeIntervals(input.covered);
  let accepted = 0;
  const claimed = mergeIntervals(input.claimed.map(([from, to]) => [Math.max(0, from), Math.min(to, input.durationSeconds)] as const));
  for (const interval of claimed) {
    if (budget <= 0) break;
    if (!input.allowSkip && interval[0] > reach + SKIP_TOLERANCE_SECONDS) continue;
    const added: Interval[] = [];
    for (const [from, to] of uncoveredParts(interval, covered)) {
      if (budget <= 0) break;
      const take = Math.min(to - from, budget);
      added.push([from, from + take]);
      budget -= take;
      accepted += take;
    }
    covered = mergeIntervals([...covered, ...added]);
    // The stretch of coverage the interval started in now ends where watching on from it stopped.
    const stretch = covered.find(([from, to]) => from <= interval[0] && interval[0] < to);
    if (stretch) reach = Math.max(reach, stretch[1]);
  }
  return { covered, accepted };
}

/** The furthest point of continuous coverage from the start (0 when the start is not covered). */
export function furthestFromStart(covered: readonly Interval[]): number {
  const first = mergeIntervals(covered)[0];
  return first && first[0] <= SKIP_TOLERANCE_SECONDS ? first[1] : 0;
}

/** New coverage the wall clock allows: seconds since the session's previous report × the course's rate, plus tolerance. */
export function allowedSeconds(elapsedSeconds: number, maxPlaybackRate: number): number {
  return Math.max(0, elapsedSeconds) * maxPlaybackRate + CLOCK_TOLERANCE_SECONDS;
}

/** Percent of the whole, rounded down, at most 100. */
export function percentOf(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.min(100, Math.floor((part / whole) * 100 + 1e-9));
}
