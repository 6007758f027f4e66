import { useId, type InputHTMLAttributes } from 'react';
import { useLocaleText } from '../../lib/use-locale-text';
import { usePasteCut } from '../../lib/use-paste-cut';

export type LimitedTextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'maxLength' | 'value' | 'onChange'> & {
  /** The limit the server checks the value against (shared/text-limits.ts). */
  max: number;
  value: string;
  onChange: (value: string) => void;
};

/**
 * The learner pages' text field with a limit: the limit shown as "12/20" beside it and, when a
 * paste ran past it and the browser dropped the rest, a notice saying how much was cut (the back
 * office's LimitedInput, without antd).
 */
export function LimitedTextField({ max, value, onChange, onPaste, onKeyDown, ...props }: LimitedTextFieldProps) {
  const { t } = useLocaleText();
  const counterId = useId();
  const { cut, handlers } = usePasteCut<HTMLInputElement>(max, { onPaste, onKeyDown });
  const describedBy = [props['aria-describedby'], counterId].filter(Boolean).join(' ');
  return (
    <span className="limited-text-field">
      <input
        {...props}
        {...handlers}
        value={value}
        maxLength={max}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
      {/* Out of the field's name (it may sit inside its label), read as its description. */}
      <span id={counterId} className="limited-text-field__count" aria-hidden="true">
        {value.length}/{max}
      </span>
      {cut > 0 && (
        <span role="status" className="limited-text-field__cut">
          {t('form.pasteCut', { max, cut })}
        </span>
      )}
    </span>
  );
}
