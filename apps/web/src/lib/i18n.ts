import type { Locale } from '@cloud-classroom/shared/locale';
import { messages } from '@cloud-classroom/shared/messages';
import i18next from 'i18next';
import { getLocale, provideCatalogues, setLocale, subscribeLocale } from './use-locale-text';

/**
 * i18next for the back office, following the one language setting (use-locale-text). Started
 * synchronously the first time a back-office module loads, since the catalogues are inline.
 */
export function ensureI18n(): typeof i18next {
  if (i18next.isInitialized) return i18next;
  // The back office carries both languages: a switch, and the light pages it shows, need no fetch.
  provideCatalogues(messages);
  void i18next.init({
    lng: getLocale(),
    fallbackLng: 'zh-CN',
    resources: {
      'zh-CN': { translation: messages['zh-CN'] },
      'en-US': { translation: messages['en-US'] },
    },
    initAsync: false,
    // The catalogues use flat keys such as 'page.notFound.title'.
    keySeparator: false,
    interpolation: { escapeValue: false },
  });
  subscribeLocale(() => void i18next.changeLanguage(getLocale()));
  return i18next;
}

/** Switches the whole app's language and remembers it. */
export async function changeLocale(locale: Locale): Promise<void> {
  await setLocale(locale);
  if (i18next.isInitialized) await i18next.changeLanguage(locale);
}

/** Tests: one call puts both the light pages and the back office in `locale`. */
export async function initI18n(locale: Locale = getLocale()): Promise<typeof i18next> {
  ensureI18n();
  await setLocale(locale, false);
  await i18next.changeLanguage(locale);
  return i18next;
}
