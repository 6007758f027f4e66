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

/** The layout choices this browser remembers; the theme has its own cookie (§9), the drawer none. */
const REMEMBERED_SWITCHES = ['tagsView', 'fixedHeader', 'sidebarLogo', 'uniqueOpened'] as const;
type RememberedSwitches = Pick<LayoutSettings, (typeof REMEMBERED_SWITCHES)[number]>;

/**
 * Only the remembered switches, and only booleans, come back from local storage: whatever else
 * an older build or a hand edit left there must not override the theme cookie or open the drawer.
 */
function rememberedSwitchesOf(stored: unknown): Partial<RememberedSwitches> {
  if (typeof stored !== 'object' || stored === null) return {};
  const switches: Partial<RememberedSwitches> = {};
  for (const key of REMEMBERED_SWITCHES) {
    const value: unknown = (stored as Record<string, unknown>)[key];
    if (typeof value === 'boolean') switches[key] = value;
  }
  return switches;
}

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
      name: 'layout-settings',
      partialize: ({ tagsView, fixedHeader, sidebarLogo, uniqueOpened }) => ({ tagsView, fixedHeader, sidebarLogo, uniqueOpened }),
      merge: (stored, current) => ({ ...current, ...rememberedSwitchesOf(stored) }),
    },
  ),
);
