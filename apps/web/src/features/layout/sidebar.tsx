import { Menu, type MenuProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { MenuIcon } from '../../components/menu-icon';
import { useMenuTitle } from '../../lib/use-menu-title';
import { useAppStore } from './app-store';
import { useSettingsStore } from './settings-store';
import { isExternalPath, isPage, routeTrail, type ViewMeta, type ViewRoute } from './view-routes';

type MenuItem = Required<MenuProps>['items'][number];

function visibleChildren(route: ViewRoute): ViewRoute[] {
  return route.children.filter((child) => !child.hidden);
}

/** eladmin's rule: a container with one visible child shows that child in its place, unless alwaysShow. */
function toMenuItems(routes: readonly ViewRoute[], titleOf: (meta: ViewMeta) => string): MenuItem[] {
  return routes
    .filter((route) => !route.hidden)
    .map((route): MenuItem => {
      const children = visibleChildren(route);
      const only = children.length === 1 && !route.alwaysShow && !isPage(route) ? children[0] : undefined;
      const shown = only !== undefined && only.children.every((child) => child.hidden) ? only : route;
      const label = shown.meta ? titleOf(shown.meta) : shown.path;
      const icon = <MenuIcon name={shown.meta?.icon ?? route.meta?.icon} />;
      const below = shown === route ? children : visibleChildren(shown);
      if (below.length > 0 && !isPage(shown)) {
        return { key: shown.path, icon, label, children: toMenuItems(below, titleOf) };
      }
      return { key: shown.path, icon, label };
    });
}

function rootKeyOf(routes: readonly ViewRoute[], key: string): string | undefined {
  return routes.find((route) => key === route.path || key.startsWith(`${route.path}/`))?.path;
}

export function Sidebar({ routes }: { routes: readonly ViewRoute[] }) {
  const { t } = useTranslation();
  const titleOf = useMenuTitle();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const opened = useAppStore((state) => state.sidebar.opened);
  const device = useAppStore((state) => state.device);
  const showLogo = useSettingsStore((state) => state.sidebarLogo);
  const uniqueOpened = useSettingsStore((state) => state.uniqueOpened);

  const items = useMemo(() => toMenuItems(routes, titleOf), [routes, titleOf]);
  const trail = routeTrail(routes, pathname);
  const active = trail.at(-1)?.meta?.activeMenu ?? pathname;
  const trailKeys = trail.slice(0, -1).map((route) => route.path);
  const [openKeys, setOpenKeys] = useState<string[]>(trailKeys);
  // However a page was reached (search, tab, link), its section opens, as in eladmin; with
  // unique-opened the other top-level sections close, as when the user opens one by hand.
  // Adjusted during render, keyed on the path.
  const [openedFor, setOpenedFor] = useState(pathname);
  if (openedFor !== pathname) {
    setOpenedFor(pathname);
    const root = trailKeys[0];
    // An updater, so a section of this page's root opened by a click while the route was loading is kept.
    setOpenKeys((keys) => {
      const kept = uniqueOpened && root !== undefined ? keys.filter((key) => rootKeyOf(routes, key) === root) : keys;
      const next = [...new Set([...kept, ...trailKeys])];
      return next.length === keys.length && next.every((key) => keys.includes(key)) ? keys : next;
    });
  }
  const collapsed = !opened && device !== 'mobile';

  const onOpenChange = (keys: string[]) => {
    if (!uniqueOpened) return setOpenKeys(keys);
    // Opening a second top-level directory closes the first.
    const added = keys.find((key) => !openKeys.includes(key));
    if (added === undefined) return setOpenKeys(keys);
    const root = rootKeyOf(routes, added);
    setOpenKeys(keys.filter((key) => rootKeyOf(routes, key) === root));
  };

  return (
    <aside className="sidebar-container">
      {showLogo && (
        <Link className="sidebar-logo" to="/dashboard">
          <img src="/favicon.svg" alt="" className="sidebar-logo__image" />
          {!collapsed && <h1 className="sidebar-logo__title">{t('app.title')}</h1>}
        </Link>
      )}
      <Menu
        mode="inline"
        theme="dark"
        inlineCollapsed={collapsed}
        items={items}
        selectedKeys={[active]}
        {...(collapsed ? {} : { openKeys, onOpenChange })}
        onClick={({ key }) => {
          if (isExternalPath(key)) window.open(key, '_blank', 'noopener');
          else navigate(key);
        }}
      />
    </aside>
  );
}
