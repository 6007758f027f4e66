import { describe, expect, it } from 'vitest';
import { discrimination, facility, histogram, mean, median, optionRates, roundTo, stdDev, type ScoredCandidate } from './exam-statistics.js';

describe('mean, median, stdDev', () => {
  it.each<[string, number[], number | null, number | null, number | null]>([
    ['nothing', [], null, null, null],
    ['one', [7], 7, 7, 0],
    ['odd count, unsorted', [9, 1, 5], 5, 5, Math.sqrt(32 / 3)],
    ['even count', [2, 4, 4, 4, 5, 5, 7, 9], 5, 4.5, 2],
    ['all alike', [3, 3, 3, 3], 3, 3, 0],
    ['fractions', [0.5, 1.5], 1, 1, 0.5],
  ])('%s', (_, values, expectedMean, expectedMedian, expectedStdDev) => {
    const copy = [...values];
    expect(mean(values)).toBe(expectedMean);
    expect(median(values)).toBe(expectedMedian);
    if (expectedStdDev === null) expect(stdDev(values)).toBeNull();
    else expect(stdDev(values)).toBeCloseTo(expectedStdDev, 12);
    expect(values).toEqual(copy);
  });
});

describe('roundTo', () => {
  it.each<[number, number, number]>([
    [0.1 + 0.2, 2, 0.3],
    [1.005, 2, 1.01],
    [2 / 3, 4, 0.6667],
    [-0.125, 2, -0.12],
    [5, 0, 5],
  ])('%s to %s decimals is %s', (value, digits, rounded) => {
    expect(roundTo(value, digits)).toBe(rounded);
  });
});

describe('histogram', () => {
  const counts = (scores: number[], total: number) => histogram(scores, total).map((band) => band.count);

  it('has ten bands of a tenth of the total, the last one closed', () => {
    expect(histogram([], 50)).toEqual(Array.from({ length: 10 }, (_, index) => ({ from: index * 5, to: index * 5 + 5, count: 0 })));
    expect(counts([0, 4.99, 5, 49.99, 50], 50)).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 0, 2]);
  });

  it.each<[string, number[], number, number[]]>([
    ['band edges that floating point misses', [0.7, 0.3, 0.6], 1, [0, 0, 0, 1, 0, 0, 1, 1, 0, 0]],
    ['a total that is not a multiple of ten', [1, 2, 3], 3, [0, 0, 0, 1, 0, 0, 1, 0, 0, 1]],
    ['scores outside the total go to the nearest band', [-1, 12], 10, [1, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
  ])('%s', (_, scores, total, expected) => {
    expect(counts(scores, total)).toEqual(expected);
  });

  it('rounds the band edges of an odd total', () => {
    expect(histogram([], 1 / 3)[1]).toEqual({ from: 0.03, to: 0.07, count: 0 });
  });

  it('puts everything in one band when the total is 0', () => {
    expect(histogram([0, 0], 0)).toEqual([{ from: 0, to: 0, count: 2 }]);
  });
});

describe('facility', () => {
  it.each<[number[], number, number | null]>([
    [[], 5, null],
    [[5, 0, 5, 0], 5, 0.5],
    [[2, 3], 4, 0.625],
    [[1], 0, null],
  ])('%j of %s is %s', (scores, max, expected) => {
    expect(facility(scores, max)).toBe(expected);
  });
});

describe('discrimination', () => {
  const candidates = (pairs: [total: number, score: number][]): ScoredCandidate[] => pairs.map(([total, score]) => ({ total, score }));

  it.each<[string, [number, number][], number, number | null]>([
    ['no one', [], 1, null],
    ['one candidate', [[10, 1]], 1, null],
    ['two: the better one right, the other wrong', [[10, 1], [2, 0]], 1, 1],
    ['two: the weaker one right', [[10, 0], [2, 1]], 1, -1],
    // 10 candidates: 27 % is 2.7, groups of 3. Upper (100, 90, 80) scored 2, 2, 1 of 2; lower (30, 20, 10) 1, 0, 0.
    [
      'ten candidates, groups of three',
      [[100, 2], [90, 2], [80, 1], [70, 2], [60, 0], [50, 2], [40, 2], [30, 1], [20, 0], [10, 0]],
      2,
      5 / 6 - 1 / 6,
    ],
    // 5 candidates: 1.35 → groups of 1, given out of order.
    ['five candidates, unsorted', [[3, 1], [5, 1], [1, 0], [4, 0], [2, 1]], 1, 1],
    ['everyone alike', [[5, 1], [5, 1], [5, 1]], 1, 0],
    ['no maximum', [[5, 0], [4, 0]], 0, null],
  ])('%s', (_, pairs, max, expected) => {
    const result = discrimination(candidates(pairs), max);
    if (expected === null) expect(result).toBeNull();
    else expect(result).toBeCloseTo(expected, 12);
  });

  it('takes ties at a group edge in the order given', () => {
    // Groups of 1: the first of the two tied at the top is the upper group.
    expect(discrimination(candidates([[9, 1], [9, 0], [1, 0]]), 1)).toBe(1);
    expect(discrimination(candidates([[9, 0], [9, 1], [1, 0]]), 1)).toBe(0);
  });
});

describe('optionRates', () => {
  it.each<[string, string[], (string | string[] | null)[], Record<string, number>]>([
    ['nobody answered', ['A', 'B'], [null, null], { A: 0, B: 0 }],
    ['single choice', ['A', 'B', 'C'], ['A', 'B', 'A', null], { A: 2 / 3, B: 1 / 3, C: 0 }],
    ['multiple choice, shares of those who answered', ['A', 'B', 'C'], [['A', 'B'], ['A'], [], ['B', 'C']], { A: 2 / 3, B: 2 / 3, C: 1 / 3 }],
    ['unknown keys and repeats count for nothing', ['A', 'B'], [['A', 'A'], ['Z'], 'B'], { A: 0.5, B: 0.5 }],
  ])('%s', (_, keys, responses, expected) => {
    expect(Object.fromEntries(optionRates(keys, responses))).toEqual(expected);
  });
});
