import { describe, it, expect } from 'vitest';
import { LOCALES } from './locale.js';
import { fieldOfMessage } from './message-format.js';
import { localizeMessage, messages, translate, type MessageKey } from './messages.js';

describe('messages', () => {
  it('has the same keys in every locale', () => {
    const [first, ...rest] = LOCALES.map((locale) => Object.keys(messages[locale]).sort());
    for (const keys of rest) expect(keys).toEqual(first);
  });

  it.each(LOCALES.flatMap((locale) => Object.entries(messages[locale]).map(([key, value]) => [locale, key, value])))(
    '%s %s is not empty',
    (_locale, _key, value) => {
      expect(value.trim()).not.toBe('');
    },
  );

  it.each([
    ['zh-CN', 'validation.ip', '请输入正确的IP地址'],
    ['en-US', 'validation.ip', 'please enter a correct IP address'],
    ['en-US', 'screenfull.unsupported', 'you browser can not work'],
    ['zh-CN', 'logout.confirmText', '确定注销并退出系统吗？'],
    ['en-US', 'error.forbidden', 'access denied: you do not have permission for this resource'],
  ] as const)('%s %s is the spec text', (locale, key, text) => {
    expect(messages[locale][key]).toBe(text);
  });
});

describe('translate', () => {
  it.each([
    ['en-US', 'timeAgo.minutes', { count: 5 }, '5 minutes ago'],
    ['zh-CN', 'timeAgo.minutes', { count: 5 }, '5分钟前'],
    ['zh-CN', 'timeAgo.hours', { count: '2' }, '2小时前'],
    ['en-US', 'timeAgo.hours', { count: 0 }, '0 hours ago'],
    ['en-US', 'timeAgo.hours', undefined, '{{count}} hours ago'],
    ['en-US', 'timeAgo.hours', { other: 1 }, '{{count}} hours ago'],
    ['en-US', 'common.confirm', { count: 1 }, 'confirm'],
    // Plural forms as i18next picks them: `key_one` where Intl.PluralRules says 'one', the key itself otherwise.
    ['en-US', 'timeAgo.minutes', { count: 1 }, '1 minute ago'],
    ['en-US', 'timeAgo.hours', { count: 1 }, '1 hour ago'],
    ['en-US', 'timeAgo.hours', { count: '1' }, '1 hour ago'],
    ['en-US', 'timeAgo.hours', { count: 21 }, '21 hours ago'],
    ['zh-CN', 'timeAgo.minutes', { count: 1 }, '1分钟前'],
    ['zh-CN', 'error.timeout', undefined, '网络请求超时'],
  ] as const)('%s %s %j -> %s', (locale, key, params, expected) => {
    expect(translate(locale, key, params)).toBe(expected);
  });

  it('rejects unknown keys at compile time', () => {
    // @ts-expect-error -- not a catalogue key
    const key: MessageKey = 'error.unknown';
    expect(messages['en-US']).not.toHaveProperty(key);
  });
});

describe('localizeMessage', () => {
  it.each([
    ['zh-CN', 'the captcha answer is wrong', '验证码错误'],
    ['en-US', 'the captcha answer is wrong', 'the captcha answer is wrong'],
    ['zh-CN', 'username or password is wrong', '用户名或密码错误'],
    ['zh-CN', 'a message the catalogue does not hold', 'a message the catalogue does not hold'],
    ['zh-CN', '', ''],
  ] as const)('%s %j -> %j', (locale, text, expected) => {
    expect(localizeMessage(locale, text)).toBe(expected);
  });
});

describe('fieldOfMessage', () => {
  it.each([
    ['code: the captcha answer is wrong', { field: 'code', text: 'the captcha answer is wrong' }],
    ['body.email: must be an e-mail', { field: 'email', text: 'must be an e-mail' }],
    ['roles.0.id: is required', { field: 'roles', text: 'is required' }],
    ['username or password is wrong', { field: undefined, text: 'username or password is wrong' }],
    ['note: two lines\nof text', { field: 'note', text: 'two lines\nof text' }],
    ['body: is not valid JSON', { field: 'body', text: 'is not valid JSON' }],
  ] as const)('%j -> %j', (message, expected) => {
    expect(fieldOfMessage(message)).toEqual(expected);
  });
});
