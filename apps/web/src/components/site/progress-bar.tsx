import { useLocaleText } from '../../lib/use-locale-text';

/** A thin bar filled to `percent` (0–100) with the figure beside it; `label` names what it measures. */
export function ProgressBar({ percent, label }: { percent: number; label?: string }) {
  const { t } = useLocaleText();
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className="site-bar">
      <div
        className="site-bar__track"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-label={label === undefined ? t('site.progress', { percent: value }) : t('site.progressOf', { name: label, percent: value })}
      >
        <div className="site-bar__fill" style={{ width: `${value}%` }} />
      </div>
      <span aria-hidden="true">{value}%</span>
    </div>
  );
}
