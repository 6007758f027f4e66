import type { Locale } from './locale.js';
import type { MessageCatalogue, MessageKey } from './messages-en-us.js';

/**
 * The catalogue's rules without the catalogue: a page that has loaded one language formats with
 * it, and the server and the back office through messages.ts with both.
 */

const pluralRules = new Map<Locale, Intl.PluralRules>();

/**
 * i18next's plural convention, so both catalogues' users agree: with a numeric `count`, `key_one`
 * is used where Intl.PluralRules says 'one' (English 1, never Chinese), the key itself otherwise.
 * Every locale carries the same keys, so Chinese repeats its one form under `_one`.
 */
function pluralOf(locale: Locale, catalogue: MessageCatalogue, key: MessageKey, count: string | number | undefined): MessageKey {
  const number = typeof count === 'string' && count.trim() !== '' ? Number(count) : count;
  if (typeof number !== 'number' || !Number.isFinite(number)) return key;
  let rules = pluralRules.get(locale);
  if (rules === undefined) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  const plural = `${key}_${rules.select(number)}`;
  return plural in catalogue ? (plural as MessageKey) : key;
}

/** `key` of `catalogue` (in `locale`) with its `{{placeholders}}` filled; one without a matching param stays visible, so a missing value shows up in review instead of vanishing. */
export function formatMessage(
  locale: Locale,
  catalogue: MessageCatalogue,
  key: MessageKey,
  params?: Readonly<Record<string, string | number>>,
): string {
  return catalogue[pluralOf(locale, catalogue, key, params?.count)].replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => {
    const value = params?.[name];
    return value === undefined ? placeholder : String(value);
  });
}

const englishKeys = new WeakMap<MessageCatalogue, Map<string, MessageKey>>();

/**
 * A server message in the reader's language. The API answers in English (its clients include
 * scripts); where that English is an entry of `english`, the pages show the same entry of
 * `catalogue`, and anything else as it came.
 */
export function localizeWith(english: MessageCatalogue, catalogue: MessageCatalogue, text: string): string {
  let keys = englishKeys.get(english);
  if (keys === undefined) englishKeys.set(english, (keys = new Map(Object.entries(english).map(([key, value]) => [value, key as MessageKey]))));
  const key = keys.get(text);
  return key === undefined ? text : catalogue[key];
}

/**
 * The field a 400 or 409 answer is about: the server starts such messages with it
 * (`email: must be an e-mail`, `body.roles.0: …`); `field` is the top-level one, `text` the rest.
 */
export function fieldOfMessage(message: string): { field: string | undefined; text: string } {
  const match = /^([\w.]+): (.+)$/s.exec(message);
  if (match === null) return { field: undefined, text: message };
  const [field = ''] = (match[1] ?? '').replace(/^body\./, '').split('.');
  return { field, text: match[2] ?? message };
}
