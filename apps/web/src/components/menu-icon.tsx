import { createElement, type ComponentType } from 'react';
import AimOutlined from '@ant-design/icons/AimOutlined';
import AlipayOutlined from '@ant-design/icons/AlipayOutlined';
import ApartmentOutlined from '@ant-design/icons/ApartmentOutlined';
import ApiOutlined from '@ant-design/icons/ApiOutlined';
import AppstoreOutlined from '@ant-design/icons/AppstoreOutlined';
import BarChartOutlined from '@ant-design/icons/BarChartOutlined';
import BlockOutlined from '@ant-design/icons/BlockOutlined';
import BookOutlined from '@ant-design/icons/BookOutlined';
import BranchesOutlined from '@ant-design/icons/BranchesOutlined';
import BugOutlined from '@ant-design/icons/BugOutlined';
import BuildOutlined from '@ant-design/icons/BuildOutlined';
import CalendarOutlined from '@ant-design/icons/CalendarOutlined';
import CloudServerOutlined from '@ant-design/icons/CloudServerOutlined';
import CloudUploadOutlined from '@ant-design/icons/CloudUploadOutlined';
import ClusterOutlined from '@ant-design/icons/ClusterOutlined';
import CodeOutlined from '@ant-design/icons/CodeOutlined';
import CoffeeOutlined from '@ant-design/icons/CoffeeOutlined';
import CommentOutlined from '@ant-design/icons/CommentOutlined';
import CompassOutlined from '@ant-design/icons/CompassOutlined';
import ConsoleSqlOutlined from '@ant-design/icons/ConsoleSqlOutlined';
import ContactsOutlined from '@ant-design/icons/ContactsOutlined';
import ControlOutlined from '@ant-design/icons/ControlOutlined';
import DashboardOutlined from '@ant-design/icons/DashboardOutlined';
import DatabaseOutlined from '@ant-design/icons/DatabaseOutlined';
import DeploymentUnitOutlined from '@ant-design/icons/DeploymentUnitOutlined';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import EditOutlined from '@ant-design/icons/EditOutlined';
import ExperimentOutlined from '@ant-design/icons/ExperimentOutlined';
import EyeOutlined from '@ant-design/icons/EyeOutlined';
import FieldTimeOutlined from '@ant-design/icons/FieldTimeOutlined';
import FileMarkdownOutlined from '@ant-design/icons/FileMarkdownOutlined';
import FileTextOutlined from '@ant-design/icons/FileTextOutlined';
import FileWordOutlined from '@ant-design/icons/FileWordOutlined';
import FileZipOutlined from '@ant-design/icons/FileZipOutlined';
import FontSizeOutlined from '@ant-design/icons/FontSizeOutlined';
import FormOutlined from '@ant-design/icons/FormOutlined';
import FullscreenExitOutlined from '@ant-design/icons/FullscreenExitOutlined';
import FullscreenOutlined from '@ant-design/icons/FullscreenOutlined';
import FundProjectionScreenOutlined from '@ant-design/icons/FundProjectionScreenOutlined';
import GithubOutlined from '@ant-design/icons/GithubOutlined';
import GlobalOutlined from '@ant-design/icons/GlobalOutlined';
import HddOutlined from '@ant-design/icons/HddOutlined';
import HomeOutlined from '@ant-design/icons/HomeOutlined';
import IdcardOutlined from '@ant-design/icons/IdcardOutlined';
import KeyOutlined from '@ant-design/icons/KeyOutlined';
import LinkOutlined from '@ant-design/icons/LinkOutlined';
import LockOutlined from '@ant-design/icons/LockOutlined';
import LoginOutlined from '@ant-design/icons/LoginOutlined';
import MailOutlined from '@ant-design/icons/MailOutlined';
import MenuOutlined from '@ant-design/icons/MenuOutlined';
import MessageOutlined from '@ant-design/icons/MessageOutlined';
import MoneyCollectOutlined from '@ant-design/icons/MoneyCollectOutlined';
import NodeIndexOutlined from '@ant-design/icons/NodeIndexOutlined';
import NotificationOutlined from '@ant-design/icons/NotificationOutlined';
import PartitionOutlined from '@ant-design/icons/PartitionOutlined';
import PhoneOutlined from '@ant-design/icons/PhoneOutlined';
import PictureOutlined from '@ant-design/icons/PictureOutlined';
import ProfileOutlined from '@ant-design/icons/ProfileOutlined';
import QqOutlined from '@ant-design/icons/QqOutlined';
import ReadOutlined from '@ant-design/icons/ReadOutlined';
import RocketOutlined from '@ant-design/icons/RocketOutlined';
import SafetyCertificateOutlined from '@ant-design/icons/SafetyCertificateOutlined';
import SafetyOutlined from '@ant-design/icons/SafetyOutlined';
import SaveOutlined from '@ant-design/icons/SaveOutlined';
import ScheduleOutlined from '@ant-design/icons/ScheduleOutlined';
import SearchOutlined from '@ant-design/icons/SearchOutlined';
import SecurityScanOutlined from '@ant-design/icons/SecurityScanOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import ShoppingCartOutlined from '@ant-design/icons/ShoppingCartOutlined';
import SkinOutlined from '@ant-design/icons/SkinOutlined';
import SmileOutlined from '@ant-design/icons/SmileOutlined';
import StarOutlined from '@ant-design/icons/StarOutlined';
import SwitcherOutlined from '@ant-design/icons/SwitcherOutlined';
import TableOutlined from '@ant-design/icons/TableOutlined';
import TeamOutlined from '@ant-design/icons/TeamOutlined';
import ThunderboltOutlined from '@ant-design/icons/ThunderboltOutlined';
import ToolOutlined from '@ant-design/icons/ToolOutlined';
import TranslationOutlined from '@ant-design/icons/TranslationOutlined';
import UnlockOutlined from '@ant-design/icons/UnlockOutlined';
import UnorderedListOutlined from '@ant-design/icons/UnorderedListOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import WechatOutlined from '@ant-design/icons/WechatOutlined';
import WifiOutlined from '@ant-design/icons/WifiOutlined';

/**
 * eladmin stores a menu's icon as the name of one of its bundled SVGs. Each name is mapped to the
 * closest @ant-design/icons glyph; icons are imported one by one so the bundle carries only these.
 * The order is the one the menu page's icon picker offers: the names the server seeds first.
 */
const ICONS: ReadonlyMap<string, ComponentType> = new Map<string, ComponentType>([
  ['index', HomeOutlined],
  ['dashboard', DashboardOutlined],
  ['system', SettingOutlined],
  ['peoples', TeamOutlined],
  ['people', ContactsOutlined],
  ['user', UserOutlined],
  ['role', IdcardOutlined],
  ['menu', MenuOutlined],
  ['dept', ApartmentOutlined],
  ['dictionary', BookOutlined],
  ['permission', SafetyOutlined],
  ['monitor', FundProjectionScreenOutlined],
  ['online', WifiOutlined],
  ['log', FileTextOutlined],
  ['error', BugOutlined],
  ['server', CloudServerOutlined],
  ['sqlMonitor', ConsoleSqlOutlined],
  ['redis', HddOutlined],
  ['database', DatabaseOutlined],
  ['codeConsole', CodeOutlined],
  ['sys-tools', ToolOutlined],
  ['tools', BuildOutlined],
  ['qiniu', CloudUploadOutlined],
  ['swagger', ApiOutlined],
  ['job', ScheduleOutlined],
  ['timing', FieldTimeOutlined],
  ['app', AppstoreOutlined],
  ['chart', BarChartOutlined],
  ['component', BlockOutlined],
  ['date', CalendarOutlined],
  ['dev', ExperimentOutlined],
  ['develop', DeploymentUnitOutlined],
  ['deploy', RocketOutlined],
  ['documentation', ProfileOutlined],
  ['doc', FileWordOutlined],
  ['markdown', FileMarkdownOutlined],
  ['education', ReadOutlined],
  ['edit', EditOutlined],
  ['email', MailOutlined],
  ['message', MessageOutlined],
  ['sms', CommentOutlined],
  ['gonggao', NotificationOutlined],
  ['exit-fullscreen', FullscreenExitOutlined],
  ['fullscreen', FullscreenOutlined],
  ['guide', CompassOutlined],
  ['icon', SmileOutlined],
  ['international', TranslationOutlined],
  ['link', LinkOutlined],
  ['chain', BranchesOutlined],
  ['list', UnorderedListOutlined],
  ['lock', LockOutlined],
  ['unlock', UnlockOutlined],
  ['password', KeyOutlined],
  ['validCode', SafetyCertificateOutlined],
  ['anq', SecurityScanOutlined],
  ['login', LoginOutlined],
  ['nested', PartitionOutlined],
  ['search', SearchOutlined],
  ['skill', ThunderboltOutlined],
  ['star', StarOutlined],
  ['table', TableOutlined],
  ['tab', SwitcherOutlined],
  ['theme', SkinOutlined],
  ['size', FontSizeOutlined],
  ['fwb', FormOutlined],
  ['tree', ClusterOutlined],
  ['tree-table', NodeIndexOutlined],
  ['zip', FileZipOutlined],
  ['image', PictureOutlined],
  ['download', DownloadOutlined],
  ['backup', SaveOutlined],
  ['web', GlobalOutlined],
  ['visits', EyeOutlined],
  ['ipvisits', AimOutlined],
  ['phone', PhoneOutlined],
  ['github', GithubOutlined],
  ['wechat', WechatOutlined],
  ['qq', QqOutlined],
  ['alipay', AlipayOutlined],
  ['money', MoneyCollectOutlined],
  ['shopping', ShoppingCartOutlined],
  ['java', CoffeeOutlined],
  ['mnt', ControlOutlined],
]);

export const MENU_ICON_NAMES: readonly string[] = [...ICONS.keys()];

/** Renders nothing for an empty or unknown name: menus created elsewhere may name icons we lack. */
export function MenuIcon({ name }: { name: string | null | undefined }) {
  const Icon = name ? ICONS.get(name) : undefined;
  return Icon ? createElement(Icon) : null;
}
