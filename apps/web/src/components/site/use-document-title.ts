import { useEffect } from 'react';
import { useLocaleText } from '../../lib/use-locale-text';

/** `<page> - Cloud Classroom`, in the page's language; `page` undefined while it is unknown (a course still loading). */
export function useDocumentTitle(page: string | undefined): void {
  const { t } = useLocaleText();
  useEffect(() => {
    document.title = page === undefined || page === '' ? t('login.title') : `${page} - ${t('login.title')}`;
  }, [page, t]);
}
