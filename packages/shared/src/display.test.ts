import { describe, it, expect } from 'vitest';
import { dictLabel, downloadFileName, formatDateTime, maskEmail, maskMobile, menuTitle, timeAgo, toDate } from './display.js';

// Built from local-time parts so the expectations hold in any TZ.
const local = new Date(2024, 0, 2, 3, 4, 5);
const localMs = local.getTime();
const localSeconds = localMs / 1000;

describe('toDate', () => {
  it.each([
    ['a Date', local, localMs],
    ['10-digit seconds', localSeconds, localMs],
    ['13-digit milliseconds', localMs, localMs],
    ['10-digit seconds as text', String(localSeconds), localMs],
    ['13-digit milliseconds as text', String(localMs), localMs],
    ['padded numeric text', `  ${String(localSeconds)}\t`, localMs],
    ['fractional seconds', 1700000000.5, 1700000000500],
    ['epoch zero', 0, 0],
    ['short number taken as milliseconds', 86400000, 86400000],
    ['yyyy-mm-dd hh:mm:ss as local time', '2024-01-02 03:04:05', localMs],
    ['unpadded yyyy-m-d h:m:s', '2024-1-2 3:4:5', localMs],
    ['yyyy-mm-dd hh:mm', '2024-01-02 03:04', new Date(2024, 0, 2, 3, 4).getTime()],
    ['yyyy-mm-dd as local midnight', '2024-01-02', new Date(2024, 0, 2).getTime()],
    ['ISO with Z', '2024-01-02T03:04:05Z', Date.UTC(2024, 0, 2, 3, 4, 5)],
    ['ISO with a negative offset', '2024-01-02T03:04:05-05:00', Date.UTC(2024, 0, 2, 8, 4, 5)],
    ['yyyy/mm/dd', '2024/01/02 03:04:05', localMs],
  ] as const)('%s', (_label, input, expected) => {
    expect(toDate(input).getTime()).toBe(expected);
  });

  it.each(['', 'not a date', '2024-13-45 99:99:99'])('gives an invalid Date for %j', (input) => {
    expect(Number.isNaN(toDate(input).getTime())).toBe(true);
  });

  it('returns a copy, not the Date it was given', () => {
    expect(toDate(local)).not.toBe(local);
  });
});

describe('formatDateTime', () => {
  it.each([
    [local, undefined, undefined, '2024-01-02 03:04:05'],
    [localSeconds, undefined, undefined, '2024-01-02 03:04:05'],
    ['2024-01-02 03:04:05', '{y}/{m}/{d}', undefined, '2024/01/02'],
    [new Date(2024, 11, 31, 23, 59, 9), '{h}:{i}:{s}', undefined, '23:59:09'],
    [local, '{y}{m}{d}{h}{i}{s}', undefined, '20240102030405'],
    [new Date(2024, 0, 1), '{y}-{m}-{d} {a}', 'zh-CN', '2024-01-01 周一'],
    [new Date(2024, 0, 1), '{a}', 'en-US', 'Mon'],
    [local, '{x} {y}', undefined, '{x} 2024'],
    [local, 'no tokens', undefined, 'no tokens'],
    ['garbage', undefined, undefined, ''],
  ] as const)('%j with %j (%s) -> %j', (time, pattern, locale, expected) => {
    expect(formatDateTime(time, pattern, locale)).toBe(expected);
  });
});

describe('maskEmail', () => {
  it.each([
    ['zhangsan@example.com', 'zha*****@example.com'],
    ['abcd@x.com', 'abc*@x.com'],
    ['abc@x.com', 'ab*@x.com'],
    ['ab@x.com', 'a*@x.com'],
    ['a@x.com', '*@x.com'],
    ['张三丰李四@例子.cn', '张三丰**@例子.cn'],
    ['', ''],
    ['no-at-sign', 'no-at-sign'],
    ['@x.com', '@x.com'],
    ['abc@', 'abc@'],
    ['a@b@c.com', 'a@b@c.com'],
  ])('%j -> %j', (input, expected) => {
    expect(maskEmail(input)).toBe(expected);
  });
});

describe('maskMobile', () => {
  it.each([
    ['13812345678', '138****5678'],
    ['12345678', '123****8'],
    ['1234567', '1234567'],
    ['', ''],
    ['8613812345678', '861****345678'],
  ])('%j -> %j', (input, expected) => {
    expect(maskMobile(input)).toBe(expected);
  });
});

describe('timeAgo', () => {
  const now = localMs;
  const ago = (seconds: number) => now - seconds * 1000;

  it.each([
    [ago(0), 'en-US', 'just now'],
    [ago(29), 'zh-CN', '刚刚'],
    [ago(-600), 'en-US', 'just now'],
    [ago(30), 'en-US', '1 minute ago'],
    [ago(30), 'zh-CN', '1分钟前'],
    [ago(61), 'zh-CN', '2分钟前'],
    [ago(3599), 'en-US', '60 minutes ago'],
    [ago(3600), 'en-US', '1 hour ago'],
    [ago(3601), 'zh-CN', '2小时前'],
    [ago(86399), 'en-US', '24 hours ago'],
    [ago(86400), 'en-US', '1 day ago'],
    [ago(172799), 'zh-CN', '1天前'],
    [ago(172800), 'en-US', '2023-12-31 03:04'],
    [localSeconds - 120, 'en-US', '2 minutes ago'],
    [String(localSeconds - 7200), 'zh-CN', '2小时前'],
    [new Date(ago(300)), 'en-US', '5 minutes ago'],
    ['2023-12-01 08:09:10', 'zh-CN', '2023-12-01 08:09'],
  ] as const)('%j in %s -> %j', (time, locale, expected) => {
    expect(timeAgo(time, locale, now)).toBe(expected);
  });
});

describe('downloadFileName', () => {
  it.each([
    ['report', 'xlsx', '20240102030405-report.xlsx'],
    ['report', '.xlsx', '20240102030405-report.xlsx'],
    ['用户列表', 'csv', '20240102030405-用户列表.csv'],
    ['archive', 'tar.gz', '20240102030405-archive.tar.gz'],
  ])('%j + %j -> %j', (name, extension, expected) => {
    const fileName = downloadFileName(name, extension, local);
    expect(fileName).toBe(expected);
    expect(fileName).not.toMatch(/[: ]/);
  });
});

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

describe('dictLabel', () => {
  it.each([
    [{ label: '激活', labelEn: 'Active' }, 'en-US', 'Active'],
    [{ label: '激活', labelEn: 'Active' }, 'zh-CN', '激活'],
    [{ label: '未知', labelEn: null }, 'en-US', '未知'],
    [{ label: '未知' }, 'en-US', '未知'],
  ] as const)('%j in %s -> %s', (detail, locale, expected) => {
    expect(dictLabel(detail, locale)).toBe(expected);
  });
});
