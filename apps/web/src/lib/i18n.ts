import { LANGUAGE_COOKIE } from '@cloud-classroom/shared/constants';
import { isLocale, pickLocale, type Locale } from '@cloud-classroom/shared/locale';
import { messages } from '@cloud-classroom/shared/messages';
import i18next from 'i18next';
import Cookies from 'js-cookie';
import { initReactI18next } from 'react-i18next';

/** The language the person chose before (cookie), else the browser's, else zh-CN. */
export function initialLocale(): Locale {
  const chosen = Cookies.get(LANGUAGE_COOKIE);
  return chosen !== undefined && isLocale(chosen) ? chosen : pickLocale(navigator.languages);
}

export async function initI18n(locale: Locale = initialLocale()): Promise<typeof i18next> {
  if (i18next.isInitialized) {
    await i18next.changeLanguage(locale);
    return i18next;
  }
  i18next.on('languageChanged', (language) => document.documentElement.setAttribute('lang', language));
  await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: 'zh-CN',
    resources: {
      'zh-CN': { translation: messages['zh-CN'] },
      'en-US': { translation: messages['en-US'] },
    },
    // The shared catalogue uses flat keys such as 'page.notFound.title'.
    keySeparator: false,
    interpolation: { escapeValue: false },
  });
  document.documentElement.setAttribute('lang', locale);
  return i18next;
}

export async function changeLocale(locale: Locale): Promise<void> {
  Cookies.set(LANGUAGE_COOKIE, locale, { expires: 365, sameSite: 'lax' });
  await i18next.changeLanguage(locale);
}
