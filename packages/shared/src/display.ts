import { DEFAULT_LOCALE, inLocale, type Locale } from './locale.js';
import { translate } from './messages.js';

export type TimeInput = Date | number | string;

// Some sources give Unix seconds; read as milliseconds, a 10-digit value would land in January 1970.
function fromEpoch(value: number): Date {
  return new Date(String(Math.trunc(value)).length === 10 ? value * 1000 : value);
}

export function toDate(time: TimeInput): Date {
  if (time instanceof Date) return new Date(time.getTime());
  if (typeof time === 'number') return fromEpoch(time);
  const text = time.trim();
  if (/^\d+$/.test(text)) return fromEpoch(Number(text));
  // Safari cannot parse 'yyyy-mm-dd hh:mm:ss'; slashes make every engine read it as local time.
  // ISO strings are left alone because their '-' may be a UTC offset.
  if (/^\d{4}-\d{1,2}-\d{1,2}(?: \d{1,2}:\d{1,2}(?::\d{1,2})?)?$/.test(text)) {
    return new Date(text.replace(/-/g, '/'));
  }
  return new Date(text);
}

const pad = (n: number) => String(n).padStart(2, '0');

// An unparseable time renders as '' rather than 'NaN-NaN-NaN'.
export function formatDateTime(
  time: TimeInput,
  pattern = '{y}-{m}-{d} {h}:{i}:{s}',
  locale: Locale = DEFAULT_LOCALE,
): string {
  const date = toDate(time);
  if (Number.isNaN(date.getTime())) return '';
  const parts: Record<string, string> = {
    y: String(date.getFullYear()),
    m: pad(date.getMonth() + 1),
    d: pad(date.getDate()),
    h: pad(date.getHours()),
    i: pad(date.getMinutes()),
    s: pad(date.getSeconds()),
  };
  // Weekday names are built only when asked for: Intl formatting is the one costly part.
  return pattern.replace(/\{([ymdhisa])\}/g, (token, key: string) =>
    key === 'a' ? date.toLocaleDateString(locale, { weekday: 'short' }) : (parts[key] ?? token),
  );
}

// Short local parts still lose at least one character, so the mask never reveals a whole name.
export function maskEmail(email: string): string {
  const match = /^([^@]+)(@[^@]+)$/.exec(email);
  if (!match) return email;
  const [, local = '', domain = ''] = match;
  const shown = Math.min(3, local.length - 1);
  return local.slice(0, shown) + '*'.repeat(local.length - shown) + domain;
}

export function maskMobile(mobile: string): string {
  if (mobile.length < 8) return mobile;
  return `${mobile.slice(0, 3)}****${mobile.slice(7)}`;
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

export function timeAgo(time: TimeInput, locale: Locale, now: number = Date.now()): string {
  const seconds = (now - toDate(time).getTime()) / 1000;
  if (seconds < 30) return translate(locale, 'timeAgo.justNow');
  if (seconds < HOUR) return translate(locale, 'timeAgo.minutes', { count: Math.ceil(seconds / MINUTE) });
  if (seconds < DAY) return translate(locale, 'timeAgo.hours', { count: Math.ceil(seconds / HOUR) });
  if (seconds < 2 * DAY) return translate(locale, 'timeAgo.oneDay');
  return formatDateTime(time, '{y}-{m}-{d} {h}:{i}', locale);
}

// Compact timestamp: ':' is illegal in Windows file names, and a name without spaces survives shells and URLs.
export function downloadFileName(name: string, extension: string, now: Date = new Date()): string {
  return `${formatDateTime(now, '{y}{m}{d}{h}{i}{s}')}-${name}.${extension.replace(/^\./, '')}`;
}

/** A menu's titles as the API and the web's routes carry them; `titleEn` null or absent when there is none. */
export type MenuTitles = { title: string; titleEn?: string | null };

/**
 * The title a menu shows in `locale`: its English one in English, else its Chinese one. Every
 * place that shows a menu (sidebar, tabs, breadcrumb, browser title, search, trees) asks here.
 */
export function menuTitle(menu: MenuTitles, locale: Locale): string {
  return inLocale(locale, menu.title, menu.titleEn);
}

/** The label a dictionary entry shows in `locale`: its English one in English, else its Chinese one. */
export function dictLabel(detail: { label: string; labelEn?: string | null }, locale: Locale): string {
  return inLocale(locale, detail.label, detail.labelEn);
}

/** The description a role shows in `locale`: its English one in English, else its Chinese one. */
export function roleDescription(role: { description: string | null; descriptionEn?: string | null }, locale: Locale): string {
  return role.description === null ? (role.descriptionEn ?? '') : inLocale(locale, role.description, role.descriptionEn);
}
