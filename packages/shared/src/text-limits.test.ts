import { describe, expect, it } from 'vitest';
import { cutByPaste } from './text-limits.js';

describe('cutByPaste', () => {
  it.each([
    ['fits', '', 0, 0, 'x'.repeat(100), 100, 0],
    ['an empty field', '', 0, 0, 'x'.repeat(5000), 100, 4900],
    ['after what is there', 'abc', 3, 3, 'x'.repeat(99), 100, 2],
    ['over a selection it replaces', 'abcdef', 1, 5, 'x'.repeat(97), 100, 0],
  ])('%s', (_case, value, start, end, pasted, max, cut) => {
    expect(cutByPaste(value, start, end, pasted, max)).toBe(cut);
  });
});
