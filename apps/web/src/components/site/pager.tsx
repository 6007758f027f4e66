import { useLocaleText } from '../../lib/use-locale-text';

/** Previous / next through a 0-based paged list, with where one is; nothing when it fits on one page. */
export function Pager({ page, size, total, onChange }: { page: number; size: number; total: number; onChange: (page: number) => void }) {
  const { t } = useLocaleText();
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages <= 1) return null;
  return (
    <nav className="site-pager" aria-label={t('site.pager')}>
      <button type="button" className="button button--small" disabled={page <= 0} onClick={() => onChange(page - 1)}>
        {t('site.previous')}
      </button>
      <span aria-current="page">{t('site.pageOf', { page: page + 1, pages })}</span>
      <button type="button" className="button button--small" disabled={page >= pages - 1} onClick={() => onChange(page + 1)}>
        {t('site.next')}
      </button>
    </nav>
  );
}
