import { useLocaleText } from '../../lib/use-locale-text';

/** Grey lines where content is on its way; announced once as "loading". */
export function LoadingSkeleton({ lines = 4 }: { lines?: number }) {
  const { t } = useLocaleText();
  return (
    <div className="site-skeleton" role="status" aria-busy="true">
      <span className="site-visually-hidden">{t('site.loading')}</span>
      {Array.from({ length: lines }, (_, index) => (
        <div key={index} className="site-skeleton__line" />
      ))}
    </div>
  );
}
