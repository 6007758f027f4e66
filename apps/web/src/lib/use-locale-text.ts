import { LANGUAGE_COOKIE } from '@cloud-classroom/shared/constants';
import { isLocale, pickLocale, type Locale } from '@cloud-classroom/shared/locale';
import { translate, type MessageKey } from '@cloud-classroom/shared/messages';
import Cookies from 'js-cookie';
import { useCallback, useSyncExternalStore } from 'react';

/**
 * The language, and the shared catalogue's strings in it, for the pages outside the back office.
 * i18next and react-i18next (about 20 KiB gzipped) come with the back office only: the login
 * page's budget is 130 KiB and React with the router already take 95 of it.
 */

/** The language the person chose before (cookie), else the browser's, else zh-CN. */
function initialLocale(): Locale {
  const chosen = Cookies.get(LANGUAGE_COOKIE);
  return chosen !== undefined && isLocale(chosen) ? chosen : pickLocale(navigator.languages);
}

let current: Locale = initialLocale();
const listeners = new Set<() => void>();

export function getLocale(): Locale {
  return current;
}

export function setLocale(locale: Locale, remember = true): void {
  if (remember) Cookies.set(LANGUAGE_COOKIE, locale, { expires: 365, sameSite: 'lax' });
  document.documentElement.setAttribute('lang', locale);
  if (locale === current) return;
  current = locale;
  for (const listener of listeners) listener();
}

export function subscribeLocale(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export type LocaleText = (key: MessageKey, params?: Readonly<Record<string, string | number>>) => string;

export function useLocaleText(): { t: LocaleText; language: Locale } {
  const language = useSyncExternalStore(subscribeLocale, getLocale);
  const t = useCallback<LocaleText>((key, params) => translate(language, key, params), [language]);
  return { t, language };
}
