import { menuTitle, type MenuTitles } from '@cloud-classroom/shared/display';
import { DEFAULT_LOCALE, isLocale, type Locale } from '@cloud-classroom/shared/locale';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The back office's language, as i18next has it: a component using it re-renders when it changes. */
export function useLanguage(): Locale {
  const { i18n } = useTranslation();
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/**
 * Menu titles in the back office's language (menus are data, with a Chinese title and maybe an
 * English one); a language switch shows the other title at once.
 */
export function useMenuTitle(): (menu: MenuTitles) => string {
  const language = useLanguage();
  return useCallback((menu: MenuTitles) => menuTitle(menu, language), [language]);
}
