import { describe, expect, it } from 'vitest';
import { drawQuestions, shuffled, type DrawDemand, type DrawOutcome } from './exam-draw.js';

/** A seeded generator (mulberry32), so a draw can be repeated. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

/** Checks a successful draw: each rule got `count` of its own candidates, none twice in the paper, none fixed. */
function expectValidDraw(outcome: DrawOutcome, demands: readonly DrawDemand[], fixed: readonly number[] = []): number[][] {
  expect(outcome.ok).toBe(true);
  if (!outcome.ok) return [];
  expect(outcome.drawn).toHaveLength(demands.length);
  outcome.drawn.forEach((ids, rule) => {
    expect(ids).toHaveLength(demands[rule]!.count);
    for (const id of ids) expect(demands[rule]!.candidates).toContain(id);
  });
  const all = outcome.drawn.flat();
  expect(new Set(all).size).toBe(all.length);
  for (const id of fixed) expect(all).not.toContain(id);
  return outcome.drawn;
}

describe('drawQuestions', () => {
  it.each<[string, DrawDemand[], number[]]>([
    ['no rule', [], []],
    ['one rule taking all it matches', [{ count: 3, candidates: [1, 2, 3] }], []],
    ['one rule taking some', [{ count: 2, candidates: range(1, 10) }], []],
    ['disjoint rules', [{ count: 2, candidates: [1, 2] }, { count: 2, candidates: [3, 4] }], []],
    // Greedy rule by rule, the first could take 3 and starve the second, which has only 3.
    ['overlapping rules met only together', [{ count: 1, candidates: [1, 2, 3] }, { count: 1, candidates: [3] }], []],
    ['nested rules exactly filling the bank', [{ count: 2, candidates: [1, 2, 3, 4] }, { count: 2, candidates: [3, 4] }], []],
    ['a chain of overlaps', [{ count: 1, candidates: [1, 2] }, { count: 1, candidates: [2, 3] }, { count: 1, candidates: [3, 1] }], []],
    ['fixed questions left out, the rest enough', [{ count: 2, candidates: [1, 2, 3, 4] }], [1, 2]],
    ['a candidate listed twice counts once', [{ count: 2, candidates: [5, 5, 6] }], []],
  ])('draws %s', (_, demands, fixed) => {
    for (let seed = 1; seed <= 20; seed += 1) expectValidDraw(drawQuestions(demands, fixed, seeded(seed)), demands, fixed);
  });

  it.each<[string, DrawDemand[], number[], DrawOutcome]>([
    ['a rule the bank cannot meet', [{ count: 10, candidates: range(1, 6) }], [], { ok: false, rule: 0, matching: 6, available: 6, sharedShortfall: false }],
    ['a rule with no candidate', [{ count: 1, candidates: [] }], [], { ok: false, rule: 0, matching: 0, available: 0, sharedShortfall: false }],
    [
      'a rule short because fixed questions take its matches',
      [{ count: 3, candidates: [1, 2, 3, 4] }],
      [1, 2],
      { ok: false, rule: 0, matching: 4, available: 2, sharedShortfall: false },
    ],
    [
      'the later of two rules sharing too few questions, each enough alone',
      [{ count: 2, candidates: [1, 2, 3] }, { count: 2, candidates: [2, 3] }],
      [],
      { ok: false, rule: 1, matching: 2, available: 2, sharedShortfall: true },
    ],
    [
      'the first rule short on its own, before any sharing',
      [{ count: 4, candidates: [1, 2, 3] }, { count: 1, candidates: [9] }],
      [],
      { ok: false, rule: 0, matching: 3, available: 3, sharedShortfall: false },
    ],
    [
      'a third rule squeezed out by two others',
      [{ count: 1, candidates: [1] }, { count: 1, candidates: [2] }, { count: 1, candidates: [1, 2] }],
      [],
      { ok: false, rule: 2, matching: 2, available: 2, sharedShortfall: true },
    ],
    [
      'a shortfall both shared and fixed',
      [{ count: 1, candidates: [1, 2] }, { count: 2, candidates: [1, 2, 3] }],
      [3],
      { ok: false, rule: 1, matching: 3, available: 2, sharedShortfall: true },
    ],
  ])('refuses %s', (_, demands, fixed, outcome) => {
    for (let seed = 1; seed <= 5; seed += 1) expect(drawQuestions(demands, fixed, seeded(seed))).toEqual(outcome);
  });

  it('draws the same paper from the same sequence, and other papers from others', () => {
    const demands: DrawDemand[] = [
      { count: 5, candidates: range(1, 40) },
      { count: 5, candidates: range(30, 60) },
    ];
    const first = drawQuestions(demands, [], seeded(7));
    expect(drawQuestions(demands, [], seeded(7))).toEqual(first);
    const papers = new Set(range(1, 10).map((seed) => JSON.stringify(drawQuestions(demands, [], seeded(seed)))));
    expect(papers.size).toBeGreaterThan(1);
    for (const seed of range(1, 10)) expectValidDraw(drawQuestions(demands, [], seeded(seed)), demands);
  });

  it('gives every matching question a chance', () => {
    const seen = new Set<number>();
    for (let seed = 1; seed <= 200; seed += 1) {
      const outcome = drawQuestions([{ count: 1, candidates: range(1, 5) }], [], seeded(seed));
      if (outcome.ok) seen.add(outcome.drawn[0]![0]!);
    }
    expect([...seen].sort()).toEqual(range(1, 5));
  });

  it('leaves its inputs as they were', () => {
    const candidates = [3, 1, 2];
    const fixed = [9];
    drawQuestions([{ count: 2, candidates }], fixed, seeded(1));
    expect(candidates).toEqual([3, 1, 2]);
    expect(fixed).toEqual([9]);
  });
});

describe('shuffled', () => {
  it('keeps every item once, leaving the input alone', () => {
    const items = range(1, 20);
    const copy = shuffled(items, seeded(3));
    expect([...copy].sort((a, b) => a - b)).toEqual(items);
    expect(items).toEqual(range(1, 20));
    expect(copy).not.toEqual(items);
  });

  it('repeats with the same sequence', () => {
    expect(shuffled(range(1, 10), seeded(11))).toEqual(shuffled(range(1, 10), seeded(11)));
  });

  it.each<[string, number[]]>([
    ['nothing', []],
    ['one item', [4]],
  ])('shuffles %s to itself', (_, items) => {
    expect(shuffled(items, seeded(1))).toEqual(items);
  });
});
