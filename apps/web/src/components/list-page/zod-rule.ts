import { messages, type MessageKey } from '@cloud-classroom/shared/messages';
import type { FormRule } from 'antd';
import i18next from 'i18next';

/** The part of a zod issue this helper reads (zod 4's shape), so the web app needs no zod import of its own. */
type Issue = {
  code: string;
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
};

/** Any zod schema: only `safeParse` is used. */
export type FieldSchema = {
  safeParse: (value: unknown) => { success: true } | { success: false; error: { issues: readonly Issue[] } };
};

type Translation = { key: string; params?: Record<string, unknown> };

// The shared schemas speak English; their fixed sentences get the catalogue's words in the current language.
// 'is required' is left out: `z.number('is required')` puts it on every issue of the field (too big
// included), so a filled field is better described by its issue code.
const knownMessages: Record<string, Translation> = {
  'must be 2 to 20 characters': { key: 'list.lengthBetween', params: { min: 2, max: 20 } },
  'must be at least 8 characters': { key: 'list.minLength', params: { min: 8 } },
  'the end is before the start': { key: 'list.endBeforeStart' },
  'choose at least one role': { key: 'list.minItems', params: { min: 1 } },
  'choose at least one user': { key: 'list.minItems', params: { min: 1 } },
  'list at least one role': { key: 'list.minItems', params: { min: 1 } },
  'list at least one department': { key: 'list.minItems', params: { min: 1 } },
};
for (const [key, text] of Object.entries(messages['en-US'])) {
  if (text !== 'is required') knownMessages[text] = { key: key as MessageKey };
}

function byCode(issue: Issue): Translation | undefined {
  const collection = issue.origin === 'array' || issue.origin === 'set' ? 'Items' : undefined;
  if (issue.code === 'too_small' && issue.minimum !== undefined) {
    const min = Number(issue.minimum);
    if (issue.origin === 'string') return { key: 'list.minLength', params: { min } };
    return { key: collection ? 'list.minItems' : 'list.minValue', params: { min } };
  }
  if (issue.code === 'too_big' && issue.maximum !== undefined) {
    const max = Number(issue.maximum);
    if (issue.origin === 'string') return { key: 'list.maxLength', params: { max } };
    return { key: collection ? 'list.maxItems' : 'list.maxValue', params: { max } };
  }
  if (['invalid_type', 'invalid_value', 'invalid_format', 'invalid_union'].includes(issue.code)) return { key: 'list.invalid' };
  return undefined;
}

const isEmpty = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/** The text shown for a failed value: overrides first, then the catalogue, then a generic line by issue code. */
export function zodIssueText(issue: Issue, value: unknown, overrides: Readonly<Record<string, string>> = {}): string {
  const override = overrides[issue.message];
  if (override !== undefined) return override;
  const translation = (isEmpty(value) ? { key: 'list.required' } : undefined) ?? knownMessages[issue.message] ?? byCode(issue);
  return translation === undefined ? issue.message : i18next.t(translation.key, translation.params);
}

/**
 * An antd rule checking a field with the shared contract's schema, e.g. `zodRule(userCreateSchema.shape.email)`,
 * so the form refuses exactly what the server would. Messages are translated where a key exists; pass
 * `overrides` (the schema's English message → the text to show) for a feature's own sentences.
 * The rule is `required` (antd's asterisk) when the schema refuses an empty value.
 */
export function zodRule(schema: FieldSchema, overrides?: Readonly<Record<string, string>>): FormRule {
  return {
    required: !schema.safeParse(undefined).success && !schema.safeParse('').success,
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value);
      if (result.success) return;
      const [issue] = result.error.issues;
      throw new Error(issue === undefined ? i18next.t('list.invalid') : zodIssueText(issue, value, overrides));
    },
  };
}
