import type { MyStudy } from '@cloud-classroom/shared/progress';
import { useId } from 'react';
import { useLocaleText, type LocaleText } from '../../../lib/use-locale-text';

/** "1 h 5 min" / "25 min": study time as people say it. */
export function studyTime(t: LocaleText, seconds: number): string {
  const total = Math.round(seconds / 60);
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  return hours > 0 ? t('userCenter.hoursMinutes', { hours, minutes }) : t('userCenter.minutesOnly', { minutes });
}

const WIDTH = 560;
const HEIGHT = 160;

/**
 * Study time per day as bars, drawn as plain SVG (a chart library would outweigh the page). The
 * figures are in a list beside it for screen readers, and in each bar's tooltip.
 */
export function StudyChart({ days }: { days: MyStudy['days'] }) {
  const { t } = useLocaleText();
  const titleId = useId();
  const most = Math.max(60, ...days.map((day) => day.seconds));
  const slot = WIDTH / Math.max(1, days.length);
  const barWidth = Math.min(28, slot * 0.6);
  return (
    <figure className="study-chart">
      {/* Stretched to the column's width: the day labels are HTML below it, or they would be stretched too. */}
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} preserveAspectRatio="none" className="study-chart__svg">
        <title id={titleId}>{t('userCenter.dayChart')}</title>
        <line x1="0" x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="study-chart__axis" />
        {days.map((day, index) => {
          const height = day.seconds === 0 ? 0 : Math.max(3, (day.seconds / most) * (HEIGHT - 8));
          const x = index * slot + (slot - barWidth) / 2;
          return (
            <rect key={day.date} x={x} y={HEIGHT - height} width={barWidth} height={height} rx="3" className="study-chart__bar">
              <title>{`${day.date}: ${studyTime(t, day.seconds)}`}</title>
            </rect>
          );
        })}
      </svg>
      <ol className="study-chart__labels" aria-hidden="true">
        {days.map((day) => (
          <li key={day.date}>{day.date.slice(8, 10)}</li>
        ))}
      </ol>
      <ul className="site-visually-hidden">
        {days.map((day) => (
          <li key={day.date}>{`${day.date}: ${studyTime(t, day.seconds)}`}</li>
        ))}
      </ul>
    </figure>
  );
}
