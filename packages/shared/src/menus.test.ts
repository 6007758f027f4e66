import { describe, expect, it } from 'vitest';
import { menuCreateBodySchema, menuTitle } from './menus.js';

describe('menuTitle', () => {
  it.each([
    [{ title: '用户管理', titleEn: 'Users' }, 'en-US', 'Users'],
    [{ title: '用户管理', titleEn: 'Users' }, 'zh-CN', '用户管理'],
    // A menu staff created without an English title.
    [{ title: '考试管理', titleEn: null }, 'en-US', '考试管理'],
    [{ title: '考试管理' }, 'en-US', '考试管理'],
    [{ title: '考试管理', titleEn: '  ' }, 'en-US', '考试管理'],
    [{ title: '考试管理', titleEn: null }, 'zh-CN', '考试管理'],
  ] as const)('%j in %s -> %s', (menu, locale, expected) => {
    expect(menuTitle(menu, locale)).toBe(expected);
  });
});

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
