export const REQUEST_TIMEOUT_MS = 10000 as const;
export const NOTIFICATION_DURATION_MS = 5000 as const;

// Misspelled on purpose: the spec fixes this name, and correcting it would orphan cookies already set.
export const TOKEN_COOKIE = 'TW-PLATFORM-TOEKN' as const;

// undefined leaves out Expires, which makes it a session cookie that dies with the browser.
export function tokenCookieExpiryDays(rememberMe: boolean): number | undefined {
  return rememberMe ? 1 : undefined;
}

export const POINT_COOKIE = 'point' as const;
export const THEME_COOKIE = 'theme' as const;
export const THEME_COOKIE_DAYS = 365 as const;
export const SIZE_COOKIE = 'size' as const;
export const SIDEBAR_STATUS_COOKIE = 'sidebarStatus' as const;
export const LANGUAGE_COOKIE = 'language' as const;

export const THEME_PRESETS = [
  '#409EFF',
  '#1890ff',
  '#304156',
  '#212121',
  '#11a983',
  '#13c2c2',
  '#6959CD',
  '#f5222d',
] as const;
export const DEFAULT_THEME = '#1890ff' as const satisfies (typeof THEME_PRESETS)[number];

export const SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type Size = (typeof SIZES)[number];
export const DEFAULT_SIZE = 'small' as const satisfies Size;

export const MOBILE_BREAKPOINT_PX = 992 as const;
export const SIDEBAR_WIDTH_PX = 205 as const;
export const CONTEXT_MENU_WIDTH_PX = 105 as const;
export const TAGS_SCROLL_PADDING_PX = 4 as const;

export function isMobileWidth(widthPx: number): boolean {
  return widthPx < MOBILE_BREAKPOINT_PX;
}

// Deliberately not `as const`: Fuse's option types take a mutable `keys` array and would reject a readonly tuple.
export const FUSE_OPTIONS = Object.freeze({
  shouldSort: true,
  threshold: 0.4,
  location: 0,
  distance: 100,
  minMatchCharLength: 1,
  keys: [
    { name: 'title', weight: 0.7 },
    { name: 'path', weight: 0.3 },
  ],
});

// fuse.js 7 dropped maxPatternLength, so the cap that kept searches fast is applied before searching.
export const SEARCH_MAX_PATTERN_LENGTH = 32 as const;

export function clampSearchPattern(pattern: string): string {
  return pattern.slice(0, SEARCH_MAX_PATTERN_LENGTH);
}

// One request fetches a whole dictionary; the back end caps page size at 9999.
export const DICT_PAGE = { page: 0, size: 9999 } as const;

/** Breadcrumbs render a directory with this redirect as plain text (eladmin's lower-case spelling). */
export const NO_REDIRECT = 'noredirect' as const;

export const ROLE_SYSTEM_DEFAULT = 'ROLE_SYSTEM_DEFAULT' as const;
export const ADMIN_PERMISSION = 'admin' as const;

export interface LayoutSettings {
  showSettings: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  uniqueOpened: boolean;
  showFooter: boolean;
  footerTxt: string;
  caseNumber: string;
  caseNumberUrl: string;
}

export const LAYOUT_DEFAULTS = {
  showSettings: true,
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  uniqueOpened: true,
  showFooter: true,
  footerTxt: '© 2016-2021 Cloud Classroom',
  // Each operator has its own filing number; the footer shows the link only once one is set.
  caseNumber: '',
  caseNumberUrl: 'https://beian.miit.gov.cn/',
} as const satisfies LayoutSettings;
