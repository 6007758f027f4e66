export const LOCALES = ['zh-CN', 'en-US'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE = 'zh-CN' satisfies Locale;

export function isLocale(x: unknown): x is Locale {
  return typeof x === 'string' && (LOCALES as readonly string[]).includes(x);
}

// Accept-Language lists preferences with q-weights ("en-US,en;q=0.9"); q=0 means "not this one".
function parseAcceptLanguage(header: string): string[] {
  return header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => p.startsWith('q='));
      return { tag, weight: q === undefined ? 1 : Number(q.slice(2)) };
    })
    .filter(({ tag, weight }) => tag !== '' && weight > 0)
    .sort((a, b) => b.weight - a.weight)
    .map(({ tag }) => tag);
}

// We ship one locale per language, so the primary subtag decides: 'zh-TW' still reads best as zh-CN.
export function pickLocale(candidates: readonly string[] | string | undefined): Locale {
  const tags = typeof candidates === 'string' ? parseAcceptLanguage(candidates) : (candidates ?? []);
  for (const tag of tags) {
    const language = tag.trim().toLowerCase().split(/[-_]/)[0];
    const match = LOCALES.find((locale) => locale.toLowerCase().split('-')[0] === language);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}

/**
 * What to show in `locale` of a name staff keep in both languages (a menu's title, a dictionary
 * entry's label): the English one in English when there is one, else the Chinese one, which
 * every record has.
 */
export function inLocale(locale: Locale, chinese: string, english: string | null | undefined): string {
  return locale === 'en-US' && english !== null && english !== undefined && english.trim() !== '' ? english : chinese;
}
