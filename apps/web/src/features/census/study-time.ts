import type { CensusTranslate } from './census-messages';

/** Study time as people say it: minutes, or hours and minutes from an hour on. */
export function studyTime(seconds: number, t: CensusTranslate): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('census.minutes', { minutes });
  return t('census.hoursMinutes', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}
