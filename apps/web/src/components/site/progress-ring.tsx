import { useLocaleText } from '../../lib/use-locale-text';

/**
 * A ring filled to `percent` (0–100) with the figure inside, named for screen readers as a
 * progress bar. `label` says what it measures (a lesson's title); the figure is always read out.
 */
export function ProgressRing({ percent, size = 40, label }: { percent: number; size?: number; label?: string }) {
  const { t } = useLocaleText();
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  const radius = 15.5;
  const circumference = 2 * Math.PI * radius;
  const name = label === undefined ? t('site.progress', { percent: value }) : t('site.progressOf', { name: label, percent: value });
  return (
    <svg
      className={`site-ring${value >= 100 ? ' site-ring--done' : ''}`}
      width={size}
      height={size}
      viewBox="0 0 36 36"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-label={name}
    >
      <circle className="site-ring__track" cx="18" cy="18" r={radius} fill="none" strokeWidth="3" />
      <circle
        className="site-ring__bar"
        cx="18"
        cy="18"
        r={radius}
        fill="none"
        strokeWidth="3"
        strokeLinecap="round"
        strokeDasharray={circumference}
        strokeDashoffset={circumference * (1 - value / 100)}
        transform="rotate(-90 18 18)"
      />
      <text className="site-ring__text" x="18" y="18" textAnchor="middle" dominantBaseline="central" aria-hidden="true">
        {value >= 100 ? '✓' : `${value}%`}
      </text>
    </svg>
  );
}
