// Calendar days (`yyyy-MM-dd`) in the organisation's time zone, the server's `TZ` setting: study
// time is bucketed into them and the census counts by them, so "today" is the organisation's
// today whatever zone the machine runs in. Zod-free, for any page.

/** The zone a server without a `TZ` setting counts days in. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

// Building an Intl formatter costs far more than formatting with one; a progress report asks for
// its day on every call.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    // en-CA writes dates as yyyy-MM-dd.
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether the runtime knows the zone (an IANA name such as Asia/Shanghai, or UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The calendar day of the instant `ms` (epoch milliseconds) in `timeZone`. */
export function dayInZone(ms: number, timeZone: string): string {
  const parts = formatterOf(timeZone).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((one) => one.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The day `count` days after `day` (before, when negative). */
export function addDays(day: string, count: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + count * 86_400_000).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both counted. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Monday of the week holding `day`. */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/** What a wall clock in a zone reads at an instant. */
export type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** What `timeZone`'s wall clock reads at the instant `ms` (epoch milliseconds). */
export function wallClockOf(ms: number, timeZone: string): WallClock {
  let clock = clocks.get(timeZone);
  if (clock === undefined) {
    clock = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    clocks.set(timeZone, clock);
  }
  const parts = Object.fromEntries(clock.formatToParts(ms).map((part) => [part.type, Number(part.value)]));
  return { year: parts.year ?? 0, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0 };
}

const two = (value: number) => String(value).padStart(2, '0');

/** The wall clock at `ms` in `timeZone` as `yyyy-MM-dd HH:mm`, or compact as `yyyyMMdd-HHmmss` for file names people read. */
export function formatInZone(ms: number, timeZone: string, style: 'minutes' | 'file-name' = 'minutes'): string {
  const c = wallClockOf(ms, timeZone);
  return style === 'minutes'
    ? `${c.year}-${two(c.month)}-${two(c.day)} ${two(c.hour)}:${two(c.minute)}`
    : `${c.year}${two(c.month)}${two(c.day)}-${two(c.hour)}${two(c.minute)}${two(c.second)}`;
}

/** How far `timeZone`'s wall clock is ahead of UTC at the instant `ms`, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const c = wallClockOf(ms, timeZone);
  const wall = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The first instant (epoch milliseconds) of the calendar day in `timeZone`. */
export function startOfDay(day: string, timeZone: string): number {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  const guess = midnightUtc - offsetAt(midnightUtc, timeZone);
  // A change of offset (summer time) between the guess and the day's start moves it once more.
  return midnightUtc - offsetAt(guess, timeZone);
}

/**
 * The instant something valid through the calendar day `lastDay` (a certificate's "valid until")
 * stops being valid: the start of the next day in `timeZone`.
 */
export function endOfValidity(lastDay: string, timeZone: string): number {
  return startOfDay(addDays(lastDay, 1), timeZone);
}

/** The last calendar day in `timeZone` before the instant `ms`: the printed "valid until" of `endOfValidity`. */
export function lastDayBefore(ms: number, timeZone: string): string {
  return dayInZone(ms - 1, timeZone);
}
