import type { Size } from '@cloud-classroom/shared/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, Spin, type ConfigProviderProps, type ThemeConfig } from 'antd';
import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../features/layout/app-store';
import { AppFooter } from '../features/layout/app-footer';
import { AppMain } from '../features/layout/app-main';
import { useLayoutMessages } from '../features/layout/layout-messages';
import { Navbar } from '../features/layout/navbar';
import { useSettingsStore } from '../features/layout/settings-store';
import { Sidebar } from '../features/layout/sidebar';
import { useResizeHandler } from '../features/layout/use-resize-handler';
import { useViewRoutes } from '../features/layout/use-view-routes';
import { TagsView } from '../features/tags-view/tags-view';
import { useTabsFollowRoutes } from '../features/tags-view/use-tabs-follow-routes';
import { NOTIFICATION_DURATION_MS } from '@cloud-classroom/shared/constants';
import { configureHttpClient } from '../lib/http-client';
import { applyThemeColour } from '../lib/theme-colour';
import { showToast } from '../lib/toast';
import { antdLocaleFor } from './antd-locale';
import { loadPage } from './page-registry';
import './admin-layout.css';

// Element's four sizes onto antd's three; mini is small with tighter controls.
const COMPONENT_SIZE: Record<Size, ConfigProviderProps['componentSize']> = {
  default: 'large',
  medium: 'middle',
  small: 'small',
  mini: 'small',
};
// The drawer, its colour picker and palette load the first time someone opens the settings.
const SettingsDrawer = lazy(async () => ({ default: (await import('../features/layout/settings-drawer')).SettingsDrawer }));

const MINI_TOKENS: ThemeConfig['token'] = { fontSize: 12, controlHeightSM: 20 };

function Shell() {
  const m = useLayoutMessages();
  const { notification } = AntApp.useApp();
  const { routes, loading } = useViewRoutes();
  const sidebar = useAppStore((state) => state.sidebar);
  const device = useAppStore((state) => state.device);
  const tagsView = useSettingsStore((state) => state.tagsView);
  const fixedHeader = useSettingsStore((state) => state.fixedHeader);
  const showFooter = useSettingsStore((state) => state.showFooter);
  const drawerOpen = useSettingsStore((state) => state.drawerOpen);
  const [drawerWanted, setDrawerWanted] = useState(false);
  if (drawerOpen && !drawerWanted) setDrawerWanted(true);
  useResizeHandler();
  useTabsFollowRoutes(routes, loading);

  useEffect(() => {
    configureHttpClient({
      notifyError: (message) => notification.error({ title: message, duration: NOTIFICATION_DURATION_MS / 1000 }),
    });
    return () => configureHttpClient({ notifyError: (message) => showToast(message) });
  }, [notification]);

  const classes = [
    'app-wrapper',
    sidebar.opened ? 'open-sidebar' : 'hide-sidebar',
    sidebar.withoutAnimation ? 'without-animation' : '',
    device === 'mobile' ? 'mobile' : '',
  ].join(' ');

  if (loading) return <Spin fullscreen tip={m('layout.loading')} />;
  return (
    <div className={classes}>
      {device === 'mobile' && sidebar.opened && (
        <div className="drawer-bg" onClick={() => useAppStore.getState().closeSidebar(false)} />
      )}
      <Sidebar routes={routes} />
      <div className={`main-container${tagsView ? ' has-tags-view' : ''}${fixedHeader ? ' has-fixed-header' : ''}`}>
        <div className={fixedHeader ? 'fixed-header' : ''}>
          <Navbar routes={routes} />
          {tagsView && <TagsView />}
        </div>
        <AppMain routes={routes} loadPage={loadPage} />
        {showFooter && <AppFooter />}
      </div>
      {drawerWanted && (
        <Suspense fallback={null}>
          <SettingsDrawer />
        </Suspense>
      )}
    </div>
  );
}

export function AdminLayout() {
  const { i18n } = useTranslation();
  const theme = useSettingsStore((state) => state.theme);
  const size = useAppStore((state) => state.size);
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );

  // Own CSS (sidebar, tabs, login) follows the same colour as antd's tokens.
  useLayoutEffect(() => {
    applyThemeColour(theme);
  }, [theme]);

  return (
    <ConfigProvider
      locale={antdLocaleFor(i18n.language)}
      componentSize={COMPONENT_SIZE[size]}
      // antd derives links (colorLink) and default progress bars from colorInfo, not colorPrimary;
      // left alone they stayed antd's blue under any chosen theme.
      theme={{ token: { colorPrimary: theme, colorInfo: theme, ...(size === 'mini' ? MINI_TOKENS : {}) } }}
    >
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <Shell />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
