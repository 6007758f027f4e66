import { describe, expect, it } from 'vitest';
import { formatDuration } from './media-format';

describe('formatDuration', () => {
  it.each([
    [0, '00:00'],
    [9.6, '00:10'],
    [754, '12:34'],
    [3599, '59:59'],
    [3600, '1:00:00'],
    [7384, '2:03:04'],
  ])('%s s is %s', (seconds, shown) => expect(formatDuration(seconds)).toBe(shown));
});
