import FullscreenExitOutlined from '@ant-design/icons/FullscreenExitOutlined';
import FullscreenOutlined from '@ant-design/icons/FullscreenOutlined';
import FontSizeOutlined from '@ant-design/icons/FontSizeOutlined';
import GlobalOutlined from '@ant-design/icons/GlobalOutlined';
import MenuFoldOutlined from '@ant-design/icons/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/MenuUnfoldOutlined';
import QuestionCircleOutlined from '@ant-design/icons/QuestionCircleOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import { SIZES } from '@cloud-classroom/shared/constants';
import { App, Avatar, Dropdown } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import screenfull from 'screenfull';
import { avatarUrl, useUserStore } from '../auth/user-store';
import { NotificationBell } from '../notifications/notification-bell';
import { apiUrl } from '../../lib/http-client';
import { changeLocale } from '../../lib/i18n';
import { useAppStore } from './app-store';
import { BreadcrumbTrail } from './breadcrumb-trail';
import { HeaderSearch } from './header-search';
import { useLayoutMessages } from './layout-messages';
import { useSettingsStore } from './settings-store';
import type { ViewRoute } from './view-routes';

const DOCS_URL = import.meta.env.VITE_DOCS_URL ?? apiUrl('swagger-ui.html');

function FullscreenToggle() {
  const m = useLayoutMessages();
  const { message } = App.useApp();
  const [full, setFull] = useState(false);
  useEffect(() => {
    if (!screenfull.isEnabled) return;
    const update = () => setFull(screenfull.isFullscreen);
    screenfull.on('change', update);
    return () => screenfull.off('change', update);
  }, []);
  return (
    <button
      type="button"
      className="navbar-icon"
      aria-label={m('navbar.fullscreen')}
      title={m('navbar.fullscreen')}
      onClick={() => {
        if (!screenfull.isEnabled) {
          void message.warning(m('screenfull.unsupported'));
          return;
        }
        void screenfull.toggle();
      }}
    >
      {full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
    </button>
  );
}

/** SPEC §2: choosing a size confirms it and refreshes the current view. */
function SizeSelect() {
  const m = useLayoutMessages();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const size = useAppStore((state) => state.size);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZES.map((key) => ({ key, label: m(`size.${key}`) })),
        onClick: ({ key }) => {
          const chosen = SIZES.find((option) => option === key);
          if (chosen === undefined) return;
          useAppStore.getState().setSize(chosen);
          void message.success(m('size.changed'));
          navigate(`/redirect${pathname}${search}`, { replace: true });
        },
      }}
    >
      <button type="button" className="navbar-icon" aria-label={m('navbar.size')} title={m('navbar.size')}>
        <FontSizeOutlined />
      </button>
    </Dropdown>
  );
}

function LanguageSelect() {
  const m = useLayoutMessages();
  const { i18n } = useTranslation();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [i18n.language],
        items: [
          { key: 'zh-CN', label: '简体中文' },
          { key: 'en-US', label: 'English' },
        ],
        onClick: ({ key }) => void changeLocale(key === 'en-US' ? 'en-US' : 'zh-CN'),
      }}
    >
      <button type="button" className="navbar-icon" aria-label={m('navbar.language')} title={m('navbar.language')}>
        <GlobalOutlined />
      </button>
    </Dropdown>
  );
}

function AvatarMenu() {
  const m = useLayoutMessages();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const user = useUserStore((state) => state.user);

  const confirmLogout = () =>
    modal.confirm({
      title: m('logout.confirmTitle'),
      content: m('logout.confirmText'),
      okText: m('common.confirm'),
      cancelText: m('common.cancel'),
      onOk: async () => {
        await useUserStore.getState().logout();
        // A reload drops every cached page, query and tab of the session that ended.
        window.location.reload();
      },
    });

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'settings', label: m('navbar.layoutSettings') },
          { key: 'center', label: m('navbar.userCenter') },
          { type: 'divider' },
          { key: 'logout', label: m('navbar.logout') },
        ],
        onClick: ({ key }) => {
          if (key === 'settings') useSettingsStore.getState().setDrawerOpen(true);
          else if (key === 'center') navigate('/user/center');
          else confirmLogout();
        },
      }}
    >
      <button type="button" className="avatar-button" aria-label={user?.nickName ?? user?.username}>
        <Avatar shape="square" size={36} src={avatarUrl(user)} icon={<UserOutlined />} />
        <span className="avatar-button__name">{user?.nickName ?? user?.username}</span>
      </button>
    </Dropdown>
  );
}

export function Navbar({ routes }: { routes: readonly ViewRoute[] }) {
  const m = useLayoutMessages();
  const opened = useAppStore((state) => state.sidebar.opened);
  const device = useAppStore((state) => state.device);
  return (
    <div className="navbar">
      <button
        type="button"
        className="navbar-icon hamburger"
        aria-label={m('navbar.toggleSidebar')}
        aria-expanded={opened}
        onClick={() => useAppStore.getState().toggleSidebar()}
      >
        {opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
      </button>
      <BreadcrumbTrail routes={routes} />
      <div className="navbar-right">
        {device !== 'mobile' && (
          <>
            <HeaderSearch routes={routes} />
            <a className="navbar-icon" href={DOCS_URL} target="_blank" rel="noreferrer" aria-label={m('navbar.docs')} title={m('navbar.docs')}>
              <QuestionCircleOutlined />
            </a>
            <FullscreenToggle />
            <SizeSelect />
          </>
        )}
        <NotificationBell />
        <LanguageSelect />
        <AvatarMenu />
      </div>
    </div>
  );
}
