import { describe, it, expect } from 'vitest';
import { DEFAULT_LOCALE, LOCALES, inLocale, isLocale, pickLocale } from './locale.js';

describe('pickLocale', () => {
  it.each([
    ['en', 'en-US'],
    ['en-GB', 'en-US'],
    ['EN-us', 'en-US'],
    ['en-US,en;q=0.9', 'en-US'],
    ['zh', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['zh-CN', 'zh-CN'],
    ['zh_CN', 'zh-CN'],
    ['zh-Hant-HK', 'zh-CN'],
    ['fr-FR,en;q=0.5', 'en-US'],
    ['zh;q=0.5, en;q=0.8', 'en-US'],
    ['en;q=0, zh;q=0.1', 'zh-CN'],
    [' en-US ; q=1 , zh ; q=0.9', 'en-US'],
    ['*', DEFAULT_LOCALE],
    ['fr', DEFAULT_LOCALE],
    ['', DEFAULT_LOCALE],
    [undefined, DEFAULT_LOCALE],
    [[], DEFAULT_LOCALE],
    [['fr-FR', 'en-GB', 'zh-CN'], 'en-US'],
    [['zh-TW', 'en'], 'zh-CN'],
    [['de', ''], DEFAULT_LOCALE],
  ] as const)('%j -> %s', (candidates, expected) => {
    expect(pickLocale(candidates)).toBe(expected);
  });
});

describe('isLocale', () => {
  it.each([
    ...LOCALES.map((locale) => [locale, true] as const),
    ['zh', false],
    ['en-us', false],
    ['', false],
    [undefined, false],
    [null, false],
    [1, false],
  ] as const)('%j -> %s', (value, expected) => {
    expect(isLocale(value)).toBe(expected);
  });
});

describe('inLocale', () => {
  it.each([
    ['en-US', '用户管理', 'Users', 'Users'],
    ['zh-CN', '用户管理', 'Users', '用户管理'],
    ['en-US', '用户管理', null, '用户管理'],
    ['en-US', '用户管理', undefined, '用户管理'],
    ['en-US', '用户管理', '', '用户管理'],
    ['en-US', '用户管理', '   ', '用户管理'],
    ['zh-CN', '用户管理', null, '用户管理'],
  ] as const)('%s of %s / %j -> %s', (locale, chinese, english, expected) => {
    expect(inLocale(locale, chinese, english)).toBe(expected);
  });
});
