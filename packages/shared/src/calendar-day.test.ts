import { describe, expect, it } from 'vitest';
import { addDays, dayInZone, daysBetween, endOfValidity, isTimeZone, lastDayBefore, mondayOf, startOfDay } from './calendar-day.js';

describe('calendar days', () => {
  it('takes the day of an instant in the zone asked, not the machine’s', () => {
    // 2026-03-01 17:30 UTC is already 2 March in Shanghai (UTC+8) and still 1 March in New York.
    const instant = Date.UTC(2026, 2, 1, 17, 30);
    expect(dayInZone(instant, 'Asia/Shanghai')).toBe('2026-03-02');
    expect(dayInZone(instant, 'UTC')).toBe('2026-03-01');
    expect(dayInZone(instant, 'America/New_York')).toBe('2026-03-01');
  });

  it('knows zones by their IANA names', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('counts days across months, years and leap days', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2026-01-01', '2026-01-30')).toBe(30);
    expect(daysBetween('2026-05-05', '2026-05-05')).toBe(1);
    expect(mondayOf('2026-11-26')).toBe('2026-11-23');
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
  });

  it('finds the first instant of a day in the zone, summer time included', () => {
    expect(startOfDay('2026-03-02', 'Asia/Shanghai')).toBe(Date.UTC(2026, 2, 1, 16));
    expect(startOfDay('2026-03-02', 'UTC')).toBe(Date.UTC(2026, 2, 2));
    // Paris is UTC+2 in summer, UTC+1 in winter.
    expect(startOfDay('2026-07-01', 'Europe/Paris')).toBe(Date.UTC(2026, 5, 30, 22));
    expect(startOfDay('2026-01-01', 'Europe/Paris')).toBe(Date.UTC(2025, 11, 31, 23));
    expect(dayInZone(startOfDay('2026-03-29', 'Europe/Paris'), 'Europe/Paris')).toBe('2026-03-29');
    expect(dayInZone(startOfDay('2026-03-29', 'Europe/Paris') - 1, 'Europe/Paris')).toBe('2026-03-28');
  });

  it.each([
    ['Asia/Shanghai', Date.UTC(2028, 11, 7, 16)],
    ['UTC', Date.UTC(2028, 11, 8)],
    ['America/New_York', Date.UTC(2028, 11, 8, 5)],
    ['Europe/Paris', Date.UTC(2028, 11, 7, 23)],
  ])('ends a validity through 2028-12-07 at the next day’s start in %s, and reads that day back', (timeZone, end) => {
    expect(endOfValidity('2028-12-07', timeZone)).toBe(end);
    expect(lastDayBefore(end, timeZone)).toBe('2028-12-07');
    expect(dayInZone(end - 1, timeZone)).toBe('2028-12-07');
    expect(dayInZone(end, timeZone)).toBe('2028-12-08');
  });
});
