import { roleCreateSchema } from '@cloud-classroom/shared/roles';
import { passwordSchema, userCreateSchema } from '@cloud-classroom/shared/users';
import i18next from 'i18next';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { zodRule } from './zod-rule';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('./list-page-test-kit');
  await initTestI18n('zh-CN');
});
// The bundle registers on import, after i18next has started above.
await import('./list-page-messages');

type Validator = (rule: unknown, value: unknown) => Promise<void>;
const check = (rule: ReturnType<typeof zodRule>, value: unknown) =>
  ((rule as { validator: Validator }).validator({}, value) as Promise<void>).then(
    () => 'ok',
    (error: Error) => error.message,
  );

describe('zodRule', () => {
  afterAll(() => i18next.changeLanguage('en-US'));

  it('passes what the shared schema accepts', async () => {
    expect(await check(zodRule(userCreateSchema.shape.email), 'a@example.com')).toBe('ok');
    expect(await check(zodRule(userCreateSchema.shape.email), '')).toBe('ok');
  });

  it("shows the catalogue's words for the schema's messages, in the current language", async () => {
    expect(await check(zodRule(userCreateSchema.shape.email), 'nope')).toBe('请输入正确的邮箱地址');
    expect(await check(zodRule(userCreateSchema.shape.nickName), 'x')).toBe('长度为 2 到 20 个字符');
    expect(await check(zodRule(roleCreateSchema.shape.level), 1000)).toBe('不能大于 999');
    await i18next.changeLanguage('en-US');
    expect(await check(zodRule(userCreateSchema.shape.phone), '123')).toBe('please enter a correct phone number');
  });

  it('says "required" for an empty required field and marks it required', async () => {
    await i18next.changeLanguage('en-US');
    const rule = zodRule(userCreateSchema.shape.nickName);
    expect((rule as { required?: boolean }).required).toBe(true);
    expect((zodRule(userCreateSchema.shape.email) as { required?: boolean }).required).toBe(false);
    expect(await check(rule, undefined)).toBe('This field is required');
    expect(await check(rule, '   ')).toBe('This field is required');
  });

  it('prefers an override for a feature sentence', async () => {
    await i18next.changeLanguage('en-US');
    expect(await check(zodRule(passwordSchema), 'abc')).toBe('At least 8 characters');
    expect(await check(zodRule(passwordSchema, { 'must be at least 8 characters': 'too short for a password' }), 'abc')).toBe(
      'too short for a password',
    );
  });

  it('describes a filled field by its issue, not the schema-wide "is required"', async () => {
    await i18next.changeLanguage('en-US');
    expect(await check(zodRule(roleCreateSchema.shape.name), 'x'.repeat(65))).toBe('At most 64 characters');
    expect(await check(zodRule(roleCreateSchema.shape.name), '')).toBe('This field is required');
  });
});
