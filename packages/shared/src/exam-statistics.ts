// The arithmetic of an exam's report (DESIGN §7, `/edu/report-exam`): pure and zod-free, so the
// server computes the report with it and the report page can explain a figure the same way.
// Inputs are plain numbers; nothing here rounds except `roundTo`, which the caller applies last.

/** Rounded half up to `digits` decimals from the value's 12 significant digits (0.1 + 0.2 is 0.3). */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(Number((value * factor).toPrecision(12))) / factor;
}

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The population standard deviation: the candidates are the whole group reported on, not a sample of it. */
export function stdDev(values: readonly number[]): number | null {
  const average = mean(values);
  if (average === null) return null;
  let squares = 0;
  for (const value of values) squares += (value - average) ** 2;
  return Math.sqrt(squares / values.length);
}

export const HISTOGRAM_BANDS = 10;

export type Band = { from: number; to: number; count: number };

/**
 * Scores in ten bands of a tenth of the total each, `[from, to)`, the last one closed so the full
 * score has a band. A score outside 0…total (a total lowered after marking) goes to the nearest
 * band. A total of 0 leaves one band, 0…0, holding every score.
 */
export function histogram(scores: readonly number[], total: number): Band[] {
  if (!(total > 0)) return [{ from: 0, to: 0, count: scores.length }];
  const bands: Band[] = Array.from({ length: HISTOGRAM_BANDS }, (_, index) => ({
    from: roundTo((total * index) / HISTOGRAM_BANDS, 2),
    to: roundTo((total * (index + 1)) / HISTOGRAM_BANDS, 2),
    count: 0,
  }));
  for (const score of scores) {
    // Through 12 significant digits: 0.7 of a total of 10 is band 7, not 6.9999….
    const place = Math.floor(Number(((score * HISTOGRAM_BANDS) / total).toPrecision(12)));
    (bands[Math.max(0, Math.min(HISTOGRAM_BANDS - 1, place))] as Band).count += 1;
  }
  return bands;
}

/** Mean score ÷ the question's maximum (0…1): how easy the question was. Null with no answer or no maximum. */
export function facility(scores: readonly number[], maxScore: number): number | null {
  const average = mean(scores);
  return average === null || !(maxScore > 0) ? null : average / maxScore;
}

/** The share of candidates in each of the discrimination's upper and lower groups. */
export const DISCRIMINATION_GROUP = 0.27;

/** One candidate's part in a question's discrimination: their total on the exam and their score on the question. */
export type ScoredCandidate = { total: number; score: number };

/**
 * The facility of the upper 27 % of candidates (by total score) less that of the lower 27 %
 * (−1…1): whether those who did well overall did well on this question. The group size is 27 % of
 * the candidates rounded, at least one; ties at a group's edge are taken in the order given (the
 * caller passes a stable order). Null with fewer than two candidates (the groups would be one
 * person) or with no maximum.
 */
export function discrimination(candidates: readonly ScoredCandidate[], maxScore: number): number | null {
  if (candidates.length < 2 || !(maxScore > 0)) return null;
  const size = Math.max(1, Math.round(candidates.length * DISCRIMINATION_GROUP));
  const ranked = candidates.map((candidate, order) => ({ ...candidate, order })).sort((a, b) => b.total - a.total || a.order - b.order);
  const upper = facility(ranked.slice(0, size).map((candidate) => candidate.score), maxScore) as number;
  const lower = facility(ranked.slice(-size).map((candidate) => candidate.score), maxScore) as number;
  return upper - lower;
}

/**
 * How often each option was picked, as a share of those who answered (an answer naming no option
 * does not count as answered). A response is the picked key (single, judge) or keys (multiple).
 */
export function optionRates(keys: readonly string[], responses: readonly (string | readonly string[] | null)[]): Map<string, number> {
  const picks = new Map<string, number>(keys.map((key) => [key, 0]));
  let answered = 0;
  for (const response of responses) {
    const picked = response === null ? [] : typeof response === 'string' ? [response] : response;
    const known = new Set(picked.filter((key) => picks.has(key)));
    if (known.size === 0) continue;
    answered += 1;
    for (const key of known) picks.set(key, (picks.get(key) as number) + 1);
  }
  return new Map(keys.map((key) => [key, answered === 0 ? 0 : (picks.get(key) as number) / answered]));
}
