import { describe, expect, it } from 'vitest';
import {
  acceptsAnswersAt,
  attemptDeadline,
  attemptScore,
  attemptsLeft,
  clientChangeNote,
  countingAttempt,
  displayedLabel,
  eventRoom,
  keyAtLabel,
  latestClose,
  MAX_CLIENT_VALUES,
  MAX_EVENTS_PER_ATTEMPT,
  passes,
  reviewOpensAt,
  reviewShowsKey,
  scoreReleased,
  type CountsRule,
  type ReviewRule,
} from './attempt-rules.js';

const MINUTE = 60_000;
const T = 1_700_000_000_000;

describe('attemptDeadline', () => {
  it.each([
    ['no limit, no close', null, 0, null, null],
    ['limit only', 30, 0, null, T + 30 * MINUTE],
    ['limit and extra minutes', 30, 15, null, T + 45 * MINUTE],
    ['close only', null, 10, T + 5 * MINUTE, T + 5 * MINUTE],
    ['close earlier than the limit', 30, 0, T + 10 * MINUTE, T + 10 * MINUTE],
    ['limit earlier than the close', 30, 0, T + 60 * MINUTE, T + 30 * MINUTE],
    ['extra minutes never pass the close', 30, 60, T + 60 * MINUTE, T + 60 * MINUTE],
  ] as const)('%s', (_, limitMinutes, extraMinutes, closeAt, expected) => {
    expect(attemptDeadline({ startedAt: T, limitMinutes, extraMinutes, closeAt })).toBe(expected);
  });
});

describe('acceptsAnswersAt', () => {
  it.each([
    [null, T, true],
    [T + 1, T, true],
    [T, T, false],
    [T - 1, T, false],
  ] as const)('deadline %s at %s: %s', (deadline, now, expected) => {
    expect(acceptsAnswersAt(deadline, now)).toBe(expected);
  });
});

describe('countingAttempt', () => {
  const a = { id: 1, startedAt: T, score: 60 };
  const b = { id: 2, startedAt: T + 1, score: 80 };
  const c = { id: 3, startedAt: T + 2, score: 80 };
  const marking = { id: 4, startedAt: T + 3, score: null };
  it.each([
    ['best', [a, b, c], 2],
    ['best, given out of order', [c, a, b], 2],
    ['best, ungraded left out', [a, marking], 1],
    ['best, none graded: the last', [marking, { id: 5, startedAt: T - 1, score: null }], 4],
    ['last', [a, b, marking], 4],
    ['first', [b, a, c], 1],
  ] as const)('%s', (_, attempts, expected) => {
    const counts = _.split(',')[0] as CountsRule;
    expect(countingAttempt(attempts, counts)?.id).toBe(expected);
  });
  it('none of none', () => {
    expect(countingAttempt([], 'best')).toBeUndefined();
  });
});

describe('reviewOpensAt', () => {
  it.each([
    ['never', T, T + MINUTE, null],
    ['after_submit', null, null, null],
    ['after_submit', T, T + MINUTE, T],
    ['after_close', T, T + MINUTE, T + MINUTE],
    ['after_close', T + 2 * MINUTE, T + MINUTE, T + 2 * MINUTE],
    ['after_close', T, null, T],
  ] as const)('%s, submitted %s, closing %s: %s', (review, submittedAt, closeAt, expected) => {
    expect(reviewOpensAt(review as ReviewRule, submittedAt, closeAt)).toBe(expected);
  });
});

describe('attemptsLeft', () => {
  it.each([
    ['none used, window open', 2, 0, false, T + MINUTE, 2],
    ['one of two used', 2, 1, false, T + MINUTE, 1],
    ['all used', 2, 2, false, T + MINUTE, 0],
    ['more used than allowed (allowance lowered)', 1, 3, false, null, 0],
    ['the last one still running', 2, 2, true, T + MINUTE, 1],
    ['window closed with attempts unused', 2, 1, false, T, 0],
    ['no close', 3, 1, false, null, 2],
  ] as const)('%s', (_, allowed, used, running, closeAt, expected) => {
    expect(attemptsLeft({ allowed, used, running, closeAt, now: T })).toBe(expected);
  });
});

describe('latestClose', () => {
  it.each([
    ['the exam never closes', null, [T + MINUTE], null],
    ['no personal windows', T, [], T],
    ['a personal window a day longer', T, [T + 24 * 60 * MINUTE, T - MINUTE], T + 24 * 60 * MINUTE],
    ['personal windows all shorter', T, [T - MINUTE], T],
  ] as const)('%s', (_, examClose, personal, expected) => {
    expect(latestClose(examClose, personal)).toBe(expected);
  });
});

describe('reviewShowsKey', () => {
  it.each([
    ['never', 0, T - MINUTE, false],
    ['after_submit', 1, null, false],
    ['after_submit', 1, T + MINUTE, false],
    ['after_submit', 1, T, true],
    ['after_submit', 0, T + MINUTE, true],
    ['after_submit', 0, null, true],
    ['after_close', 0, T + MINUTE, false],
    ['after_close', 1, T, true],
    ['after_close', 0, null, true],
    ['after_close', 1, null, false],
  ] as const)('%s with %s left, latest close %s: %s', (review, left, close, expected) => {
    expect(reviewShowsKey({ review: review as ReviewRule, attemptsLeft: left, now: T, latestClose: close })).toBe(expected);
  });
});

describe('the integrity timeline', () => {
  it.each([
    [0, false, MAX_EVENTS_PER_ATTEMPT - 1],
    [MAX_EVENTS_PER_ATTEMPT - 2, false, 1],
    [MAX_EVENTS_PER_ATTEMPT - 1, false, 0],
    [MAX_EVENTS_PER_ATTEMPT - 1, true, 1],
    [MAX_EVENTS_PER_ATTEMPT, true, 0],
    [MAX_EVENTS_PER_ATTEMPT + 5, false, 0],
  ] as const)('room with %s stored (closing: %s): %s', (stored, closing, expected) => {
    expect(eventRoom(stored, closing)).toBe(expected);
  });

  const values = (n: number) => Array.from({ length: n }, (_, i) => `agent ${i}`);
  it.each([
    ['the start\'s own', 'start', values(0), false, 'none'],
    ['already noted', 'agent 3', values(5), false, 'none'],
    ['a new one', 'new', values(MAX_CLIENT_VALUES - 1), false, 'value'],
    ['one too many', 'new', values(MAX_CLIENT_VALUES), false, 'too_many'],
    ['past the bound', 'new', values(MAX_CLIENT_VALUES), true, 'none'],
  ] as const)('%s: %s', (_, value, noted, capped, expected) => {
    expect(clientChangeNote({ value, started: 'start', noted, capped })).toBe(expected);
  });
});

describe('scores', () => {
  it.each([
    ['in_progress', false],
    ['marking', false],
    ['graded', true],
  ] as const)('released when %s: %s', (state, expected) => {
    expect(scoreReleased(state)).toBe(expected);
  });
  it.each([
    [[], 0],
    [[1, 2.5, 0], 3.5],
    [[0.1, 0.2], 0.3],
    [[1.005, 0], 1.01],
    [[2, null, 3], null],
  ] as const)('attemptScore(%j) = %s', (scores, expected) => {
    expect(attemptScore(scores)).toBe(expected);
  });
  it.each([
    [60, 60, true],
    [59.99, 60, false],
    [0, 0, true],
  ] as const)('passes(%s, %s) = %s', (score, passScore, expected) => {
    expect(passes(score, passScore)).toBe(expected);
  });
});

describe('option labels', () => {
  // The paper of an attempt keeps each question's option order as the candidate saw it (their keys).
  it.each([
    { order: ['A', 'B', 'C', 'D'], key: 'C', label: 'C' },
    { order: ['D', 'C', 'A', 'B'], key: 'D', label: 'A' },
    { order: ['D', 'C', 'A', 'B'], key: 'C', label: 'B' },
    { order: ['D', 'C', 'A', 'B'], key: 'A', label: 'C' },
    { order: ['D', 'C', 'A', 'B'], key: 'B', label: 'D' },
    { order: ['J', 'I', 'H', 'G', 'F', 'E', 'D', 'C', 'B', 'A'], key: 'A', label: 'J' },
    // An option the paper does not hold (removed from the bank since) keeps its own key.
    { order: ['B', 'A'], key: 'C', label: 'C' },
    // A paper frozen without an order (a true-or-false question) leaves the keys as they are.
    { order: [], key: 'T', label: 'T' },
  ])('in the order $order, option $key is shown as $label', ({ order, key, label }) => {
    expect(displayedLabel(order, key)).toBe(label);
  });

  it.each([
    { order: ['D', 'C', 'A', 'B'], label: 'A', key: 'D' },
    { order: ['D', 'C', 'A', 'B'], label: 'D', key: 'B' },
    { order: ['D', 'C', 'A', 'B'], label: 'E', key: undefined },
    { order: ['B', 'A'], label: 'b', key: undefined },
    { order: ['B', 'A'], label: 'AB', key: undefined },
    { order: [], label: 'A', key: undefined },
  ])('in the order $order, the option shown as $label is $key', ({ order, label, key }) => {
    expect(keyAtLabel(order, label)).toBe(key);
  });
});
