// The arithmetic of trusted progress (DESIGN §7, lms-landscape §5.1), pure so the player and the
// server agree on it and a table test pins it. No zod here: learner pages import this file.

/** A stretch of a video watched, in seconds: [from, to]. */
export type Interval = readonly [number, number];

/** Seconds of slack on the wall clock per playback (network delay, timer jitter). */
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
/**
 * The most separate pieces of coverage kept of one lesson. Watching straight through makes one;
 * a learner who skips about makes a few dozen at most.
 */
export const MAX_STORED_PIECES = 500;

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
  /** What was covered before this report. */
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
 * Intervals in whole seconds, each end rounded to the nearest, merged. A report's fractions of a
 * second would otherwise be stored as pieces of their own, as many as a learner cares to send,
 * and every later report would pay for them.
 */
export function toWholeSeconds(intervals: readonly Interval[]): Interval[] {
  return mergeIntervals(intervals.map(([from, to]) => [Math.round(from), Math.round(to)] as const));
}

/**
 * The new coverage a report earns: the claimed intervals in whole seconds, clipped to the video,
 * less what was already covered, cut in playing order to what the clock allows. Without skipping,
 * an interval that starts beyond the furthest point watched (plus a tolerance) earns nothing,
 * while one that starts within reach is continuous watching and moves the reach along as far as
 * it is accepted. A part that would stand apart from all coverage once the coverage has
 * `MAX_STORED_PIECES` pieces earns nothing (parts joining coverage still do), so what is stored
 * of a lesson stays small. One pass over both sorted lists: a report costs what it claims plus
 * what is stored, which is bounded.
 * Returns the new merged coverage and how much was added.
 */
export function acceptCoverage(input: CoverageInput): { covered: Interval[]; accepted: number } {
  let budget = Math.floor(Math.max(0, input.allowance));
  let reach = input.furthest;
  const covered = toWholeSeconds(input.covered);
  const end = Math.ceil(Math.max(0, input.durationSeconds));
  // Reaching the end of a video a fraction of a second longer than whole seconds reaches `end`,
  // or rounding would leave its last fraction forever unwatched.
  const claimed = toWholeSeconds(input.claimed.map(([from, to]) => [Math.max(0, from), to >= input.durationSeconds ? end : to] as const));
  const added: Interval[] = [];
  let pieces = covered.length;
  let accepted = 0;
  /** The first covered piece not wholly before the interval at hand. */
  let next = 0;
  for (const [from, to] of claimed) {
    if (budget <= 0) break;
    if (!input.allowSkip && from > reach + SKIP_TOLERANCE_SECONDS) continue;
    while (next < covered.length && covered[next]![1] < from) next += 1;
    // Walk [from, to]: over covered pieces, and through the gaps between them taking what the
    // budget allows. `stretch` is the end of the coverage that runs unbroken from `from`.
    let cursor = from;
    let stretch: number | null = null;
    let index = next;
    while (cursor < to && budget > 0) {
      const piece = covered[index];
      if (piece !== undefined && piece[0] <= cursor) {
        if (piece[0] <= from || stretch === cursor) stretch = piece[1];
        cursor = Math.max(cursor, piece[1]);
        index += 1;
        continue;
      }
      const gapEnd = Math.min(to, piece === undefined ? to : piece[0]);
      const take = Math.min(gapEnd - cursor, budget);
      // Claimed intervals are merged, so a gap's part can only join covered pieces.
      const joinsLeft = covered[index - 1]?.[1] === cursor;
      const joinsRight = take === gapEnd - cursor && piece?.[0] === gapEnd;
      if (!joinsLeft && !joinsRight && pieces >= MAX_STORED_PIECES) {
        cursor = gapEnd;
        continue;
      }
      pieces += 1 - (joinsLeft ? 1 : 0) - (joinsRight ? 1 : 0);
      added.push([cursor, cursor + take]);
      if (cursor === from || stretch === cursor) stretch = cursor + take;
      budget -= take;
      accepted += take;
      cursor += take;
    }
    // Coverage that went on past the interval's end (a piece it ran into) belongs to the stretch.
    const after = covered[index];
    if (stretch !== null && after !== undefined && after[0] <= stretch) stretch = Math.max(stretch, after[1]);
    if (stretch !== null) reach = Math.max(reach, stretch);
  }
  return { covered: added.length === 0 ? covered : mergeIntervals([...covered, ...added]), accepted };
}

/** The furthest point of continuous coverage from the start (0 when the start is not covered). */
export function furthestFromStart(covered: readonly Interval[]): number {
  const first = mergeIntervals(covered)[0];
  return first && first[0] <= SKIP_TOLERANCE_SECONDS ? first[1] : 0;
}

/**
 * New coverage the wall clock still allows one playback: the seconds since it started × the
 * course's rate, plus the tolerance it started with, less what it was already credited. Counted
 * over the whole playback rather than per report, so that reports sent back to back cannot each
 * claim a tolerance of their own.
 */
export function allowedSeconds(playback: { elapsedSeconds: number; maxPlaybackRate: number; tolerance: number; credited: number }): number {
  return Math.max(0, Math.max(0, playback.elapsedSeconds) * playback.maxPlaybackRate + playback.tolerance - playback.credited);
}

/**
 * The tolerance a new playback starts with: the full one, unless another playback of the learner's
 * reported moments ago, when only what the clock has allowed since. A playback per report would
 * otherwise be a tolerance per report.
 */
export function startingTolerance(secondsSinceLastReport: number | null, maxPlaybackRate: number): number {
  if (secondsSinceLastReport === null) return CLOCK_TOLERANCE_SECONDS;
  return Math.min(CLOCK_TOLERANCE_SECONDS, Math.max(0, secondsSinceLastReport) * maxPlaybackRate);
}

/** Percent of the whole, rounded down, at most 100. */
export function percentOf(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.min(100, Math.floor((part / whole) * 100 + 1e-9));
}
