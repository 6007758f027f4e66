import FontSizeOutlined from '@ant-design/icons/FontSizeOutlined';
import FullscreenExitOutlined from '@ant-design/icons/FullscreenExitOutlined';
import FullscreenOutlined from '@ant-design/icons/FullscreenOutlined';
import GlobalOutlined from '@ant-design/icons/GlobalOutlined';
import SearchOutlined from '@ant-design/icons/SearchOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import { createElement, lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';

type IconModule = { default: ComponentType };

// These six are in the admin shell's first chunk already (its navbar and antd's inputs import
// them), so a dynamic import could not move them out of it (Vite's INEFFECTIVE_DYNAMIC_IMPORT):
// the sidebar, which is in that chunk too, takes them as they are, at no cost.
const inShell = (icon: ComponentType) => async (): Promise<IconModule> => ({ default: icon });

/**
 * eladmin stores a menu's icon as the name of one of its bundled SVGs. Each name is mapped to the
 * closest @ant-design/icons glyph, loaded on first use: the sidebar needs a handful, the picker
 * all of them, and all of them up front cost the admin shell's first screen about 12 KiB.
 * The order is the one the menu page's icon picker offers: the names the server seeds first.
 */
const LOADERS: [string, () => Promise<IconModule>][] = [
  ['index', () => import('@ant-design/icons/HomeOutlined')],
  ['dashboard', () => import('@ant-design/icons/DashboardOutlined')],
  ['system', () => import('@ant-design/icons/SettingOutlined')],
  ['peoples', () => import('@ant-design/icons/TeamOutlined')],
  ['people', () => import('@ant-design/icons/ContactsOutlined')],
  ['user', inShell(UserOutlined)],
  ['role', () => import('@ant-design/icons/IdcardOutlined')],
  ['menu', () => import('@ant-design/icons/MenuOutlined')],
  ['dept', () => import('@ant-design/icons/ApartmentOutlined')],
  ['dictionary', () => import('@ant-design/icons/BookOutlined')],
  ['permission', () => import('@ant-design/icons/SafetyOutlined')],
  ['monitor', () => import('@ant-design/icons/FundProjectionScreenOutlined')],
  ['online', () => import('@ant-design/icons/WifiOutlined')],
  ['log', () => import('@ant-design/icons/FileTextOutlined')],
  ['error', () => import('@ant-design/icons/BugOutlined')],
  ['server', () => import('@ant-design/icons/CloudServerOutlined')],
  ['sqlMonitor', () => import('@ant-design/icons/ConsoleSqlOutlined')],
  ['redis', () => import('@ant-design/icons/HddOutlined')],
  ['database', () => import('@ant-design/icons/DatabaseOutlined')],
  ['codeConsole', () => import('@ant-design/icons/CodeOutlined')],
  ['sys-tools', () => import('@ant-design/icons/ToolOutlined')],
  ['tools', () => import('@ant-design/icons/BuildOutlined')],
  ['qiniu', () => import('@ant-design/icons/CloudUploadOutlined')],
  ['swagger', () => import('@ant-design/icons/ApiOutlined')],
  ['job', () => import('@ant-design/icons/ScheduleOutlined')],
  ['timing', () => import('@ant-design/icons/FieldTimeOutlined')],
  ['app', () => import('@ant-design/icons/AppstoreOutlined')],
  ['chart', () => import('@ant-design/icons/BarChartOutlined')],
  ['component', () => import('@ant-design/icons/BlockOutlined')],
  ['date', () => import('@ant-design/icons/CalendarOutlined')],
  ['dev', () => import('@ant-design/icons/ExperimentOutlined')],
  ['develop', () => import('@ant-design/icons/DeploymentUnitOutlined')],
  ['deploy', () => import('@ant-design/icons/RocketOutlined')],
  ['documentation', () => import('@ant-design/icons/ProfileOutlined')],
  ['doc', () => import('@ant-design/icons/FileWordOutlined')],
  ['markdown', () => import('@ant-design/icons/FileMarkdownOutlined')],
  ['education', () => import('@ant-design/icons/ReadOutlined')],
  ['edit', () => import('@ant-design/icons/EditOutlined')],
  ['email', () => import('@ant-design/icons/MailOutlined')],
  ['message', () => import('@ant-design/icons/MessageOutlined')],
  ['sms', () => import('@ant-design/icons/CommentOutlined')],
  ['gonggao', () => import('@ant-design/icons/NotificationOutlined')],
  ['exit-fullscreen', inShell(FullscreenExitOutlined)],
  ['fullscreen', inShell(FullscreenOutlined)],
  ['guide', () => import('@ant-design/icons/CompassOutlined')],
  ['icon', () => import('@ant-design/icons/SmileOutlined')],
  ['international', () => import('@ant-design/icons/TranslationOutlined')],
  ['link', () => import('@ant-design/icons/LinkOutlined')],
  ['chain', () => import('@ant-design/icons/BranchesOutlined')],
  ['list', () => import('@ant-design/icons/UnorderedListOutlined')],
  ['lock', () => import('@ant-design/icons/LockOutlined')],
  ['unlock', () => import('@ant-design/icons/UnlockOutlined')],
  ['password', () => import('@ant-design/icons/KeyOutlined')],
  ['validCode', () => import('@ant-design/icons/SafetyCertificateOutlined')],
  ['anq', () => import('@ant-design/icons/SecurityScanOutlined')],
  ['login', () => import('@ant-design/icons/LoginOutlined')],
  ['nested', () => import('@ant-design/icons/PartitionOutlined')],
  ['search', inShell(SearchOutlined)],
  ['skill', () => import('@ant-design/icons/ThunderboltOutlined')],
  ['star', () => import('@ant-design/icons/StarOutlined')],
  ['table', () => import('@ant-design/icons/TableOutlined')],
  ['tab', () => import('@ant-design/icons/SwitcherOutlined')],
  ['theme', () => import('@ant-design/icons/SkinOutlined')],
  ['size', inShell(FontSizeOutlined)],
  ['fwb', () => import('@ant-design/icons/FormOutlined')],
  ['tree', () => import('@ant-design/icons/ClusterOutlined')],
  ['tree-table', () => import('@ant-design/icons/NodeIndexOutlined')],
  ['zip', () => import('@ant-design/icons/FileZipOutlined')],
  ['image', () => import('@ant-design/icons/PictureOutlined')],
  ['download', () => import('@ant-design/icons/DownloadOutlined')],
  ['backup', () => import('@ant-design/icons/SaveOutlined')],
  ['web', inShell(GlobalOutlined)],
  ['visits', () => import('@ant-design/icons/EyeOutlined')],
  ['ipvisits', () => import('@ant-design/icons/AimOutlined')],
  ['phone', () => import('@ant-design/icons/PhoneOutlined')],
  ['github', () => import('@ant-design/icons/GithubOutlined')],
  ['wechat', () => import('@ant-design/icons/WechatOutlined')],
  ['qq', () => import('@ant-design/icons/QqOutlined')],
  ['alipay', () => import('@ant-design/icons/AlipayOutlined')],
  ['money', () => import('@ant-design/icons/MoneyCollectOutlined')],
  ['shopping', () => import('@ant-design/icons/ShoppingCartOutlined')],
  ['java', () => import('@ant-design/icons/CoffeeOutlined')],
  ['mnt', () => import('@ant-design/icons/ControlOutlined')],
];

// lazy() loads nothing until an icon first renders.
const ICONS: ReadonlyMap<string, LazyExoticComponent<ComponentType>> = new Map(LOADERS.map(([name, load]) => [name, lazy(load)]));

export const MENU_ICON_NAMES: readonly string[] = [...ICONS.keys()];

/** Renders nothing for an unknown or empty name, so a typo in a menu never breaks the sidebar. */
export function MenuIcon({ name }: { name: string | null | undefined }) {
  const Icon = name ? ICONS.get(name) : undefined;
  if (Icon === undefined) return null;
  // The placeholder keeps the icon's width, so the menu text does not jump when it arrives.
  return (
    <Suspense fallback={<span className="anticon" style={{ width: '1em' }} />}>
      {createElement(Icon)}
    </Suspense>
  );
}
