import { describe, expect, it } from 'vitest';
import {
  acceptCoverage,
  allowedSeconds,
  CLOCK_TOLERANCE_SECONDS,
  coveredSeconds,
  furthestFromStart,
  MAX_STORED_PIECES,
  mergeIntervals,
  percentOf,
  SKIP_TOLERANCE_SECONDS,
  startingTolerance,
  toWholeSeconds,
  uncoveredParts,
  type CoverageInput,
  type Interval,
} from './progress-rules.js';

describe('mergeIntervals', () => {
  it.each<[string, Interval[], Interval[]]>([
    ['nothing', [], []],
    ['one', [[1, 2]], [[1, 2]]],
    ['unsorted, apart', [[5, 6], [1, 2]], [[1, 2], [5, 6]]],
    ['overlapping', [[1, 4], [3, 6]], [[1, 6]]],
    ['touching', [[1, 3], [3, 5]], [[1, 5]]],
    ['one inside another', [[0, 10], [2, 3]], [[0, 10]]],
    ['empty and reversed dropped', [[2, 2], [5, 4], [6, 7]], [[6, 7]]],
    ['a chain in any order', [[8, 9], [0, 2], [1.5, 8.5]], [[0, 9]]],
  ])('%s', (_, input, merged) => {
    expect(mergeIntervals(input)).toEqual(merged);
  });

  it('leaves its input as it was', () => {
    const input: [number, number][] = [[3, 4], [0, 3.5]];
    mergeIntervals(input);
    expect(input).toEqual([[3, 4], [0, 3.5]]);
  });
});

describe('coveredSeconds', () => {
  it.each<[Interval[], number]>([
    [[], 0],
    [[[0, 10]], 10],
    [[[0, 10], [5, 15]], 15],
    [[[0, 1], [2, 3.5]], 2.5],
    [[[4, 2]], 0],
  ])('%j covers %d s', (intervals, seconds) => {
    expect(coveredSeconds(intervals)).toBe(seconds);
  });
});

describe('uncoveredParts', () => {
  it.each<[string, Interval, Interval[], Interval[]]>([
    ['nothing covered', [0, 10], [], [[0, 10]]],
    ['all covered', [2, 4], [[0, 10]], []],
    ['covered exactly', [2, 4], [[2, 4]], []],
    ['the middle covered', [0, 10], [[3, 5]], [[0, 3], [5, 10]]],
    ['the start covered', [0, 10], [[0, 4]], [[4, 10]]],
    ['the end covered', [0, 10], [[6, 12]], [[0, 6]]],
    ['holes', [0, 10], [[1, 2], [4, 5], [9, 20]], [[0, 1], [2, 4], [5, 9]]],
    ['covered elsewhere', [5, 6], [[0, 5], [6, 7]], [[5, 6]]],
  ])('%s', (_, interval, covered, parts) => {
    expect(uncoveredParts(interval, covered)).toEqual(parts);
  });
});

describe('furthestFromStart', () => {
  it.each<[string, Interval[], number]>([
    ['nothing watched', [], 0],
    ['from the start', [[0, 30]], 30],
    ['from within the tolerance of the start', [[SKIP_TOLERANCE_SECONDS, 30]], 30],
    ['not from the start', [[SKIP_TOLERANCE_SECONDS + 1, 30]], 0],
    ['the first stretch only', [[0, 10], [20, 30]], 10],
    ['unmerged input', [[5, 12], [0, 6]], 12],
  ])('%s', (_, covered, furthest) => {
    expect(furthestFromStart(covered)).toBe(furthest);
  });
});

describe('allowedSeconds', () => {
  const playback = { elapsedSeconds: 0, maxPlaybackRate: 2, tolerance: CLOCK_TOLERANCE_SECONDS, credited: 0 };
  it.each<[string, Partial<typeof playback>, number]>([
    ['a playback just started: its tolerance', {}, CLOCK_TOLERANCE_SECONDS],
    ['10 s at rate 2', { elapsedSeconds: 10 }, 20 + CLOCK_TOLERANCE_SECONDS],
    ['10 s at rate 1', { elapsedSeconds: 10, maxPlaybackRate: 1 }, 10 + CLOCK_TOLERANCE_SECONDS],
    ['7.5 s at rate 1.5', { elapsedSeconds: 7.5, maxPlaybackRate: 1.5 }, 11.25 + CLOCK_TOLERANCE_SECONDS],
    ['a clock that went back counts no time', { elapsedSeconds: -30 }, CLOCK_TOLERANCE_SECONDS],
    ['less what was credited', { elapsedSeconds: 10, credited: 15 }, 5 + CLOCK_TOLERANCE_SECONDS],
    ['the tolerance is spent once, not per report', { elapsedSeconds: 1, credited: 4 }, 0],
    ['never below nothing', { elapsedSeconds: 1, credited: 100 }, 0],
    ['a playback that started with less tolerance', { elapsedSeconds: 10, tolerance: 0.5 }, 20.5],
  ])('%s', (_, input, allowed) => {
    expect(allowedSeconds({ ...playback, ...input })).toBe(allowed);
  });

  it('300 reports sent back to back within 2.2 s are together allowed what 2.2 s allow, not 300 tolerances', () => {
    let credited = 0;
    for (let report = 1; report <= 300; report += 1) {
      const elapsedSeconds = (2.2 * report) / 300;
      const { accepted } = acceptCoverage({
        covered: [[0, credited]],
        claimed: [[credited, credited + 5]],
        durationSeconds: 600,
        allowance: allowedSeconds({ elapsedSeconds, maxPlaybackRate: 2, tolerance: CLOCK_TOLERANCE_SECONDS, credited }),
        allowSkip: false,
        furthest: credited,
      });
      credited += accepted;
    }
    expect(credited).toBeLessThanOrEqual(2.2 * 2 + CLOCK_TOLERANCE_SECONDS);
  });
});

describe('startingTolerance', () => {
  it.each<[string, number | null, number, number]>([
    ['a first playback ever', null, 2, CLOCK_TOLERANCE_SECONDS],
    ['another playback reported long ago', 3600, 2, CLOCK_TOLERANCE_SECONDS],
    ['another playback reported just now', 0, 2, 0],
    ['another playback reported half a second ago, at rate 2', 0.5, 2, 1],
    ['a clock that went back', -10, 2, 0],
  ])('%s', (_, since, rate, tolerance) => {
    expect(startingTolerance(since, rate)).toBe(tolerance);
  });
});

describe('toWholeSeconds', () => {
  it.each<[string, Interval[], Interval[]]>([
    ['whole already', [[0, 10]], [[0, 10]]],
    ['ends rounded to the nearest second', [[0.4, 9.6]], [[0, 10]]],
    ['reports that end and start mid-second join', [[0, 9.7], [9.7, 19.6]], [[0, 20]]],
    ['a microsecond is nothing', [[41, 41.000001]], []],
    ['200 microsecond slivers are nothing', Array.from({ length: 200 }, (_, i): Interval => [i * 3 + 0.1, i * 3 + 0.100001]), []],
  ])('%s', (_, input, output) => {
    expect(toWholeSeconds(input)).toEqual(output);
  });
});

describe('percentOf', () => {
  it.each<[number, number, number]>([
    [0, 100, 0],
    [50, 100, 50],
    [99.99, 100, 99],
    [7.2, 8, 90],
    [0.9, 1, 90],
    [2, 3, 66],
    [8, 8, 100],
    [9, 8, 100],
    [5, 0, 0],
    [5, -1, 0],
  ])('%d of %d is %d%%', (part, whole, percent) => {
    expect(percentOf(part, whole)).toBe(percent);
  });
});

describe('acceptCoverage', () => {
  const base: CoverageInput = { covered: [], claimed: [], durationSeconds: 600, allowance: 1000, allowSkip: false, furthest: 0 };
  const accept = (input: Partial<CoverageInput>) => acceptCoverage({ ...base, ...input });

  it.each<[string, Partial<CoverageInput>, Interval[], number]>([
    ['nothing claimed', {}, [], 0],
    ['watching from the start', { claimed: [[0, 10]] }, [[0, 10]], 10],
    ['watching on', { covered: [[0, 10]], furthest: 10, claimed: [[10, 20]] }, [[0, 20]], 10],
    ['watching again earns nothing', { covered: [[0, 10]], furthest: 10, claimed: [[2, 8]] }, [[0, 10]], 0],
    ['partly again: only the new part', { covered: [[0, 10]], furthest: 10, claimed: [[5, 15]] }, [[0, 15]], 5],
    ['a small seek forward counts', { covered: [[0, 10]], furthest: 10, claimed: [[10 + SKIP_TOLERANCE_SECONDS, 20]] }, [[0, 10], [15, 20]], 5],
    ['a seek beyond the tolerance earns nothing', { covered: [[0, 10]], furthest: 10, claimed: [[16, 26]] }, [[0, 10]], 0],
    ['a seek to the end earns nothing', { claimed: [[595, 600]] }, [], 0],
    ['a seek past the furthest point earns nothing, even behind other coverage', { covered: [[0, 10], [40, 50]], furthest: 10, claimed: [[20, 25]] }, [[0, 10], [40, 50]], 0],
    ['one long stretch from the start counts whole', { claimed: [[0, 120]] }, [[0, 120]], 120],
    [
      'reach moves within one report: stretches chained by small seeks',
      { claimed: [[0, 10], [14, 30], [34, 40]] },
      [[0, 10], [14, 30], [34, 40]],
      32,
    ],
    [
      'reach moves over what was covered before',
      { covered: [[0, 10], [20, 100]], furthest: 10, claimed: [[10, 20], [100, 110]] },
      [[0, 110]],
      20,
    ],
    ['clipped to the video', { durationSeconds: 8, claimed: [[0, 30]] }, [[0, 8]], 8],
    ['past the end earns nothing', { durationSeconds: 8, claimed: [[9, 12]] }, [], 0],
  ])('without skipping: %s', (_, input, covered, accepted) => {
    expect(accept(input)).toEqual({ covered, accepted });
  });

  it.each<[string, Partial<CoverageInput>, Interval[], number]>([
    ['a seek to the end counts what is watched there', { claimed: [[595, 600]] }, [[595, 600]], 5],
    ['anywhere, in pieces', { claimed: [[100, 110], [300, 305]] }, [[100, 110], [300, 305]], 15],
    ['less what was covered', { covered: [[100, 105]], claimed: [[100, 110]] }, [[100, 110]], 5],
  ])('with skipping: %s', (_, input, covered, accepted) => {
    expect(accept({ ...input, allowSkip: true })).toEqual({ covered, accepted });
  });

  it.each<[string, Partial<CoverageInput>, Interval[], number]>([
    [
      'an hour claimed after 10 s at rate 2',
      { claimed: [[0, 3600]], durationSeconds: 7200, allowance: allowedSeconds({ elapsedSeconds: 10, maxPlaybackRate: 2, tolerance: CLOCK_TOLERANCE_SECONDS, credited: 0 }) },
      [[0, 22]],
      22,
    ],
    ['a fraction of a second of budget is kept for later', { claimed: [[0, 10]], allowance: 3.9 }, [[0, 3]], 3],
    ['no allowance, nothing', { claimed: [[0, 10]], allowance: 0 }, [], 0],
    ['a negative allowance is none', { claimed: [[0, 10]], allowance: -5 }, [], 0],
    ['cut in playing order, whatever order they were sent in', { claimed: [[20, 30], [0, 10]], allowance: 15, allowSkip: true }, [[0, 10], [20, 25]], 15],
    ['what was covered costs nothing', { covered: [[0, 10]], furthest: 10, claimed: [[0, 30]], allowance: 5 }, [[0, 15]], 5],
    ['the budget runs out mid-stretch', { claimed: [[0, 10], [14, 20]], allowance: 8 }, [[0, 8]], 8],
  ])('the clock’s budget: %s', (_, input, covered, accepted) => {
    expect(accept(input)).toEqual({ covered, accepted });
  });

  it.each<[string, Partial<CoverageInput>, Interval[], number]>([
    ['fractions of a second are rounded', { claimed: [[0.2, 9.8]] }, [[0, 10]], 10],
    ['a video of a fraction over whole seconds can be covered to its end', { durationSeconds: 8.4, claimed: [[0, 8.4]] }, [[0, 9]], 9],
    ['stored coverage in fractions is made whole', { covered: [[0, 4.6]], furthest: 4.6, claimed: [[4.6, 10]] }, [[0, 10]], 5],
  ])('whole seconds: %s', (_, input, covered, accepted) => {
    expect(accept(input)).toEqual({ covered, accepted });
  });

  describe('the pieces kept of a lesson are bounded', () => {
    const full: Interval[] = Array.from({ length: MAX_STORED_PIECES }, (_, i): Interval => [i * 3, i * 3 + 1]);

    it('a piece apart from the rest earns nothing once the lesson has the most pieces', () => {
      const result = accept({ allowSkip: true, covered: full, claimed: [[MAX_STORED_PIECES * 3 + 10, MAX_STORED_PIECES * 3 + 20]], durationSeconds: 10_000 });
      expect(result).toEqual({ covered: full, accepted: 0 });
    });

    it('a part joining coverage still counts, and one filling a gap joins two pieces', () => {
      const result = accept({ allowSkip: true, covered: full, claimed: [[1, 3], [7, 7.4]], durationSeconds: 10_000 });
      expect(result.accepted).toBe(2);
      expect(result.covered).toHaveLength(MAX_STORED_PIECES - 1);
      expect(result.covered[0]).toEqual([0, 4]);
    });

    it('a report of 200 slivers a second apart makes no more pieces than the bound', () => {
      let covered: Interval[] = [];
      for (let report = 0; report < 10; report += 1) {
        const claimed = Array.from({ length: 200 }, (_, i): Interval => [(report * 200 + i) * 2, (report * 200 + i) * 2 + 0.6]);
        covered = accept({ allowSkip: true, covered, claimed, durationSeconds: 100_000, allowance: 10_000 }).covered;
      }
      expect(covered.length).toBeLessThanOrEqual(MAX_STORED_PIECES);
    });
  });

  it('leaves the coverage it was given as it was', () => {
    const covered: [number, number][] = [[0, 10]];
    accept({ covered, furthest: 10, claimed: [[10, 20]] });
    expect(covered).toEqual([[0, 10]]);
  });
});
