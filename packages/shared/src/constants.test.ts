import { describe, it, expect } from 'vitest';
import {
  DEFAULT_SIZE,
  DEFAULT_THEME,
  FUSE_OPTIONS,
  SEARCH_MAX_PATTERN_LENGTH,
  SIZES,
  THEME_PRESETS,
  TOKEN_COOKIE,
  clampSearchPattern,
  isMobileWidth,
  tokenCookieExpiryDays,
} from './constants.js';

describe('tokenCookieExpiryDays', () => {
  it.each([
    [true, 1],
    [false, undefined],
  ])('remember me %s -> %s', (rememberMe, expected) => {
    expect(tokenCookieExpiryDays(rememberMe)).toBe(expected);
  });
});

describe('isMobileWidth', () => {
  it.each([
    [0, true],
    [375, true],
    [991, true],
    [991.5, true],
    [992, false],
    [1920, false],
  ])('%s px -> %s', (width, expected) => {
    expect(isMobileWidth(width)).toBe(expected);
  });
});

describe('clampSearchPattern', () => {
  it.each([
    ['', ''],
    ['dashboard', 'dashboard'],
    ['a'.repeat(32), 'a'.repeat(32)],
    ['a'.repeat(33), 'a'.repeat(32)],
    ['b'.repeat(100), 'b'.repeat(32)],
  ])('%j -> %j', (pattern, expected) => {
    expect(clampSearchPattern(pattern)).toBe(expected);
    expect(clampSearchPattern(pattern).length).toBeLessThanOrEqual(SEARCH_MAX_PATTERN_LENGTH);
  });
});

describe('presets', () => {
  it('has 8 theme presets including the default theme', () => {
    expect(THEME_PRESETS).toHaveLength(8);
    expect(THEME_PRESETS).toContain(DEFAULT_THEME);
  });

  it('has the default size among the sizes', () => {
    expect(SIZES).toContain(DEFAULT_SIZE);
  });

  it('keeps the spec cookie name, typo included', () => {
    expect(TOKEN_COOKIE).toBe('TW-PLATFORM-TOEKN');
  });

  it('weights the search keys to a total of 1 and cannot be mutated', () => {
    expect(FUSE_OPTIONS.keys.reduce((sum, key) => sum + key.weight, 0)).toBeCloseTo(1);
    expect(Object.isFrozen(FUSE_OPTIONS)).toBe(true);
  });
});
