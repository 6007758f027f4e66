import { Breadcrumb } from 'antd';
import { Link, useLocation } from 'react-router';
import { useLanguage } from '../../lib/use-menu-title';
import { breadcrumbOf, type ViewRoute } from './view-routes';

export function BreadcrumbTrail({ routes }: { routes: readonly ViewRoute[] }) {
  const language = useLanguage();
  const { pathname } = useLocation();
  const items = breadcrumbOf(routes, pathname, language).map((item) => ({
    key: item.path,
    title: item.link ? <Link to={item.path}>{item.title}</Link> : <span className="no-redirect">{item.title}</span>,
  }));
  return <Breadcrumb className="app-breadcrumb" items={items} />;
}
