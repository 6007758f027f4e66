import { describe, expect, it } from 'vitest';
import { menuCreateBodySchema, menuUpdateBodySchema } from './menus.js';

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

describe('the menu bodies keep only the fields of their type', () => {
  const everything = {
    title: 'x',
    path: 'exams',
    component: 'exams/index',
    componentName: 'Exams',
    icon: 'edit',
    permission: 'exam:list',
    iFrame: false,
    cache: true,
    hidden: true,
  };
  const kept = (type: 0 | 1 | 2, extra: object = {}) => {
    const { path, component, componentName, icon, permission, iFrame, cache, hidden } = menuCreateBodySchema.parse({ ...everything, ...extra, type });
    return { path, component, componentName, icon, permission, iFrame, cache, hidden };
  };

  it.each([
    [
      'a directory: no component, no permission, no cache',
      0,
      {},
      { path: 'exams', component: null, componentName: null, icon: 'edit', permission: null, iFrame: false, cache: false, hidden: true },
    ],
    [
      'a page: everything',
      1,
      {},
      { path: 'exams', component: 'exams/index', componentName: 'Exams', icon: 'edit', permission: 'exam:list', iFrame: false, cache: true, hidden: true },
    ],
    [
      'an external page: no component',
      1,
      { iFrame: true, path: 'https://example.com' },
      { path: 'https://example.com', component: null, componentName: null, icon: 'edit', permission: 'exam:list', iFrame: true, cache: true, hidden: true },
    ],
    [
      'a button: its permission alone',
      2,
      { iFrame: true },
      { path: null, component: null, componentName: null, icon: null, permission: 'exam:list', iFrame: false, cache: false, hidden: false },
    ],
  ] as const)('%s', (_label, type, extra, expected) => {
    expect(kept(type, extra)).toEqual(expected);
  });

  it('tidies an update the same way', () => {
    const body = menuUpdateBodySchema.parse({ ...everything, id: 7, type: 2 });
    expect(body).toMatchObject({ id: 7, path: null, component: null, componentName: null, icon: null, permission: 'exam:list' });
  });
});
