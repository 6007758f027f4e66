import {
  DEFAULT_THEME,
  LAYOUT_DEFAULTS,
  THEME_COOKIE,
  THEME_COOKIE_DAYS,
  type LayoutSettings,
} from '@cloud-classroom/shared/constants';
import Cookies from 'js-cookie';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

type SettingsState = LayoutSettings & {
  theme: string;
  /** The settings drawer is UI state, never remembered. */
  drawerOpen: boolean;
  setTheme: (theme: string) => void;
  change: <Key extends keyof LayoutSettings>(key: Key, value: LayoutSettings[Key]) => void;
  setDrawerOpen: (open: boolean) => void;
};

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/** SPEC §4: the theme comes back from its cookie when the layout mounts. */
export function storedTheme(): string {
  const theme = Cookies.get(THEME_COOKIE);
  return theme !== undefined && HEX_COLOUR.test(theme) ? theme : DEFAULT_THEME;
}

export const useSettingsStore = create<SettingsState>()(
  persist(
    (set) => ({
      ...LAYOUT_DEFAULTS,
      theme: storedTheme(),
      drawerOpen: false,
      setTheme(theme) {
        if (!HEX_COLOUR.test(theme)) return;
        Cookies.set(THEME_COOKIE, theme, { expires: THEME_COOKIE_DAYS, sameSite: 'lax' });
        set({ theme });
      },
      change(key, value) {
        set({ [key]: value });
      },
      setDrawerOpen(drawerOpen) {
        set({ drawerOpen });
      },
    }),
    {
      // The other layout choices are remembered in this browser; the theme has its own cookie (§9).
      name: 'layout-settings',
      partialize: ({ tagsView, fixedHeader, sidebarLogo, uniqueOpened }) => ({ tagsView, fixedHeader, sidebarLogo, uniqueOpened }),
    },
  ),
);
