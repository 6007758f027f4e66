import { cutByPaste } from '@cloud-classroom/shared/text-limits';
import { useState, type ClipboardEvent, type ClipboardEventHandler, type KeyboardEvent, type KeyboardEventHandler } from 'react';

/**
 * How much of the last paste a field of `max` characters cut (0: nothing, or the person typed on
 * since), and the field's paste and key handlers that keep it, calling the field's own too. The
 * back office's LimitedInput and the learner pages' LimitedTextField each word it themselves.
 */
export function usePasteCut<Field extends HTMLInputElement | HTMLTextAreaElement>(
  max: number,
  own: { onPaste?: ClipboardEventHandler<Field>; onKeyDown?: KeyboardEventHandler<Field> } = {},
) {
  const [cut, setCut] = useState(0);
  const handlers = {
    onPaste: (event: ClipboardEvent<Field>) => {
      const field = event.currentTarget;
      setCut(cutByPaste(field.value, field.selectionStart ?? field.value.length, field.selectionEnd ?? field.value.length, event.clipboardData.getData('text'), max));
      own.onPaste?.(event);
    },
    // Typing again means the person has seen it and moved on.
    onKeyDown: (event: KeyboardEvent<Field>) => {
      if (cut > 0) setCut(0);
      own.onKeyDown?.(event);
    },
  };
  return { cut, handlers };
}
