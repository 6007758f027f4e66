import { LANGUAGE_COOKIE } from '@cloud-classroom/shared/constants';
import { isLocale, pickLocale, type Locale } from '@cloud-classroom/shared/locale';
import { formatMessage, localizeWith } from '@cloud-classroom/shared/message-format';
import type { MessageCatalogue, MessageKey } from '@cloud-classroom/shared/messages';
import Cookies from 'js-cookie';
import { use, useCallback, useSyncExternalStore } from 'react';

/**
 * The language, and the shared catalogue's strings in it, for the pages outside the back office.
 * i18next and react-i18next (about 20 KiB gzipped) come with the back office only: the login
 * page's budget is 130 KiB and React with the router already take about 80 of it. Only the language
 * shown is loaded (about 5.5 KiB gzipped each); the other comes when the person switches, and
 * English also before a server's message is shown in Chinese (the API answers in English, and
 * the English text is how its catalogue entry is found).
 */

const loaders: Record<Locale, () => Promise<MessageCatalogue>> = {
  'zh-CN': async () => (await import('@cloud-classroom/shared/messages-zh-cn')).zhCN,
  'en-US': async () => (await import('@cloud-classroom/shared/messages-en-us')).enUS,
};
const catalogues: Partial<Record<Locale, MessageCatalogue>> = {};
const loading = new Map<Locale, Promise<MessageCatalogue>>();

/**
 * Marks a catalogue's promise as settled the way React marks a promise it has seen settle
 * (status and value): use() then reads it in the render at hand. A promise React has not seen
 * before would suspend that render once, and a language switch would show the placeholder.
 */
function markArrived(promise: Promise<MessageCatalogue>, catalogue: MessageCatalogue): Promise<MessageCatalogue> {
  return Object.assign(promise, { status: 'fulfilled', value: catalogue });
}

/**
 * `locale`'s catalogue, fetched once; a failed fetch may be tried again. The same promise is
 * handed out every time: React replays a suspended render with the promise it suspended on.
 */
export function loadCatalogue(locale: Locale): Promise<MessageCatalogue> {
  let pending = loading.get(locale);
  if (pending === undefined) {
    const fetched: Promise<MessageCatalogue> = loaders[locale]().then(
      (catalogue) => {
        catalogues[locale] = catalogue;
        markArrived(fetched, catalogue);
        return catalogue;
      },
      (error: unknown) => {
        loading.delete(locale);
        throw error;
      },
    );
    pending = fetched;
    loading.set(locale, pending);
  }
  return pending;
}

/** Catalogues a module already holds (the back office has both, tests too): no fetch for them. */
export function provideCatalogues(given: Readonly<Partial<Record<Locale, MessageCatalogue>>>): void {
  for (const [locale, catalogue] of Object.entries(given) as Array<[Locale, MessageCatalogue]>) {
    catalogues[locale] = catalogue;
    loading.set(locale, markArrived(Promise.resolve(catalogue), catalogue));
  }
}

/** The language the person chose before (cookie), else the browser's, else zh-CN. */
function initialLocale(): Locale {
  const chosen = Cookies.get(LANGUAGE_COOKIE);
  return chosen !== undefined && isLocale(chosen) ? chosen : pickLocale(navigator.languages);
}

let current: Locale = initialLocale();
/** The language last asked for, which a slower earlier switch must not override. */
let wanted: Locale = current;
const listeners = new Set<() => void>();

export function getLocale(): Locale {
  return current;
}

function apply(locale: Locale, remember: boolean): void {
  if (remember) Cookies.set(LANGUAGE_COOKIE, locale, { expires: 365, sameSite: 'lax' });
  document.documentElement.setAttribute('lang', locale);
  if (locale === current) return;
  current = locale;
  for (const listener of listeners) listener();
}

/**
 * Switches the language once its catalogue is here (at once when it is), so the page never
 * shows a language it cannot write. The promise settles then, or when the catalogue could not
 * be fetched, the language left as it was (it never rejects).
 */
export function setLocale(locale: Locale, remember = true): Promise<void> {
  wanted = locale;
  if (catalogues[locale] !== undefined) {
    apply(locale, remember);
    return Promise.resolve();
  }
  return loadCatalogue(locale).then(
    () => {
      if (wanted === locale) apply(locale, remember);
    },
    () => {},
  );
}

export function subscribeLocale(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A catalogue string outside React (the HTTP client's own messages): the key itself until the catalogue has come. */
export function textOf(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  const catalogue = catalogues[current];
  return catalogue === undefined ? key : formatMessage(current, catalogue, key, params);
}

/**
 * A server message (English) in `locale` where it is a catalogue entry, anything else as it came.
 * The HTTP client loads English before it rejects with a message to show (main.tsx), so the
 * entry is found whatever the page's language.
 */
export function localizeMessage(locale: Locale, text: string): string {
  const english = catalogues['en-US'];
  const catalogue = catalogues[locale];
  return english === undefined || catalogue === undefined ? text : localizeWith(english, catalogue, text);
}

export type LocaleText = (key: MessageKey, params?: Readonly<Record<string, string | number>>) => string;

/** The page's language and its text; suspends on a first visit until that language's catalogue has come. */
export function useLocaleText(): { t: LocaleText; language: Locale } {
  const language = useSyncExternalStore(subscribeLocale, getLocale);
  // use() on every render, not only while the catalogue is missing: when the catalogue comes
  // while React waits on a suspended first render, React replays that render, and a replay
  // that skips use() runs the hooks after it as updates of a component never mounted ("Update
  // hook called on initial render", React error #520 in the built app).
  const catalogue = use(loadCatalogue(language));
  const t = useCallback<LocaleText>((key, params) => formatMessage(language, catalogue, key, params), [language, catalogue]);
  return { t, language };
}
