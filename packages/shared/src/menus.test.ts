import { describe, expect, it } from 'vitest';
import { menuCreateBodySchema } from './menus.js';

describe('menuCreateBodySchema', () => {
  const base = { title: '考试', type: 0 } as const;

  it.each([
    [undefined, null],
    [null, null],
    ['', null],
    ['  ', null],
    [' Exams ', 'Exams'],
  ])('stores the English title %j as %j', (titleEn, expected) => {
    expect(menuCreateBodySchema.parse({ ...base, titleEn }).titleEn).toBe(expected);
  });

  it('refuses an English title over 100 characters', () => {
    const result = menuCreateBodySchema.safeParse({ ...base, titleEn: 'x'.repeat(101) });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['titleEn']);
  });
});
