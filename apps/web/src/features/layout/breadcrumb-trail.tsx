import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { breadcrumbOf, type ViewRoute } from './view-routes';

export function BreadcrumbTrail({ routes }: { routes: readonly ViewRoute[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const items = breadcrumbOf(routes, pathname).map((item) => ({
    key: item.path,
    title: item.link ? <Link to={item.path}>{t(item.title)}</Link> : <span className="no-redirect">{t(item.title)}</span>,
  }));
  return <Breadcrumb className="app-breadcrumb" items={items} />;
}
