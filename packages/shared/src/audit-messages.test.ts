import { describe, expect, it } from 'vitest';
import { auditDescription, auditKeyOfDescription, auditMessages } from './audit-messages.js';

describe('auditDescription', () => {
  it.each([
    ['en-US', '新增用户', 'Add user'],
    ['en-US', '用户登录', 'Log in'],
    ['zh-CN', '新增用户', '新增用户'],
    // Unknown or older text is shown as it was stored.
    ['en-US', '导入考卷', '导入考卷'],
    ['en-US', 'POST /api/questions', 'POST /api/questions'],
    ['zh-CN', 'create department', 'create department'],
    ['en-US', '', ''],
  ] as const)('%s %j -> %j', (locale, stored, expected) => {
    expect(auditDescription(locale, stored)).toBe(expected);
  });

  it('gives every audit text one key, so a stored description is never ambiguous', () => {
    const texts = Object.values(auditMessages['zh-CN']);
    expect(new Set(texts).size).toBe(texts.length);
    for (const text of texts) expect(auditKeyOfDescription(text)).toMatch(/^audit\./);
  });
});
