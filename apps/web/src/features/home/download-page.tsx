
import { Link } from 'react-router';
import { useLocaleText } from '../../lib/use-locale-text';

/** Public (SPEC §2): where installation media would be offered; none is published yet. */
export function DownloadPage() {
  const { t } = useLocaleText();
  return (
    <main className="status-page">
      <h1 className="status-page__title">{t('download.title')}</h1>
      <p className="status-page__text">{t('download.text')}</p>
      <Link className="button button--primary" to="/login">
        {t('download.login')}
      </Link>
    </main>
  );
}
