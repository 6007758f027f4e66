import { Input, Typography } from 'antd';
import type { GetProps, InputProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePasteCut } from '../../lib/use-paste-cut';

/**
 * The longest text a shared schema accepts: zod 4's `maxLength` of the string inside any
 * optional, nullable, default or pipe wrappers. Read from the schema the server checks with, so
 * the form can never hold a limit of its own that drifts from it.
 */
export function maxLengthOf(schema: unknown): number | undefined {
  let current = schema as { maxLength?: unknown; _zod?: { def?: { innerType?: unknown; in?: unknown } } } | undefined;
  for (let depth = 0; current !== undefined && depth < 8; depth += 1) {
    if (typeof current.maxLength === 'number') return current.maxLength;
    const def = current._zod?.def;
    current = (def?.innerType ?? def?.in) as typeof current;
  }
  return undefined;
}

function requireMax(schema: unknown): number {
  const max = maxLengthOf(schema);
  // A limited field without a limit is a programming slip, shown at once rather than as a field that takes anything.
  if (max === undefined) throw new Error('LimitedInput: the schema has no maximum length');
  return max;
}

/** The shared paste-cut state with its notice in the back office's words. */
function usePasteNotice<Field extends HTMLInputElement | HTMLTextAreaElement>(max: number, own: Parameters<typeof usePasteCut<Field>>[1]) {
  const { t } = useTranslation();
  const { cut, handlers } = usePasteCut<Field>(max, own);
  const notice =
    cut > 0 ? (
      <Typography.Text type="warning" role="status" style={{ display: 'block', fontSize: 12 }}>
        {t('form.pasteCut', { max, cut })}
      </Typography.Text>
    ) : null;
  return { notice, handlers };
}

export type LimitedInputProps = Omit<InputProps, 'maxLength' | 'showCount'> & {
  /** The field's shared schema (`courseCreateSchema.shape.title`): its maximum length is the input's. */
  schema: unknown;
};

/**
 * A one-line text field with its limit shown as a counter ("12 / 100") and, when a paste ran past
 * the limit and the browser dropped the rest, a notice saying how much was cut: never a silent
 * truncation. Every limited text field of the back office is one of these or `LimitedTextArea`.
 */
export function LimitedInput({ schema, onPaste, onKeyDown, ...props }: LimitedInputProps) {
  const max = requireMax(schema);
  const paste = usePasteNotice(max, { onPaste, onKeyDown });
  return (
    <>
      <Input {...props} maxLength={max} showCount {...paste.handlers} />
      {paste.notice}
    </>
  );
}

export type LimitedTextAreaProps = Omit<GetProps<typeof Input.TextArea>, 'maxLength' | 'showCount'> & { schema: unknown };

/** `LimitedInput` for several lines. */
export function LimitedTextArea({ schema, onPaste, onKeyDown, ...props }: LimitedTextAreaProps) {
  const max = requireMax(schema);
  const paste = usePasteNotice(max, { onPaste, onKeyDown });
  return (
    <>
      <Input.TextArea {...props} maxLength={max} showCount {...paste.handlers} />
      {paste.notice}
    </>
  );
}
