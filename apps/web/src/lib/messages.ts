import type { Locale } from '@cloud-classroom/shared/locale';
import type { MessageKey } from '@cloud-classroom/shared/messages';
import { setI18n, useTranslation } from 'react-i18next';
import { ensureI18n } from './i18n';

// react-i18next joins with the back office (every back-office module registers messages); the
// pages before it use useLocaleText, because the login page's 130 KiB budget has no room for it.
const i18next = ensureI18n();
setI18n(i18next);

/**
 * Keys a bundle gives another text than the catalogue already holds. All bundles share one
 * catalogue and the first to load keeps a key, so a page would show another feature's text
 * depending on which page was opened first; a test keeps this empty.
 */
const conflicts: string[] = [];
export const conflictingMessageKeys = (): readonly string[] => conflicts;

export type MessageBundle<Key extends string = string> = Record<Locale, Record<Key, string>>;
export type Translate<Key extends string> = (key: Key | MessageKey, options?: Record<string, unknown>) => string;

/**
 * A feature's own strings, in both languages, joined to the catalogue when its module loads.
 * The shared catalogue stays small because the login page carries all of it; back-office pages
 * bring theirs in their own chunk. Returns a hook whose `t` only accepts the bundle's keys and
 * the shared ones, and re-renders on a language switch.
 */
export function registerMessages<Key extends string>(bundle: MessageBundle<Key>): () => Translate<Key> {
  for (const [locale, catalogue] of Object.entries(bundle) as [Locale, Record<string, string>][]) {
    for (const [key, text] of Object.entries(catalogue)) {
      const known: unknown = i18next.getResource(locale, 'translation', key);
      if (known !== undefined && known !== text) conflicts.push(`${locale} ${key}`);
    }
    i18next.addResourceBundle(locale, 'translation', catalogue, true, false);
  }
  return function useMessages() {
    const { t } = useTranslation();
    return t as unknown as Translate<Key>;
  };
}
