import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it.each(['/', '/dashboard', '/system/user?page=2&sort=id,desc', '/course/term/3#lessons', '/a//b'])('keeps the site path %s', (path) => {
    expect(safeRedirect(path)).toBe(path);
  });

  it.each([
    '//evil.example',
    '//evil.example/dashboard',
    '/\\evil.example',
    'http://evil.example',
    'https://evil.example/dashboard',
    'javascript:alert(1)',
    'dashboard',
    '',
    // Browsers drop tabs and newlines from URLs, which turns these into '//evil.example'.
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\\evil.example',
  ])('refuses %j', (target) => {
    expect(safeRedirect(target)).toBeUndefined();
  });

  it('has nothing for a missing parameter', () => {
    expect(safeRedirect(null)).toBeUndefined();
  });
});
