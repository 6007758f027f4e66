import type { Locale } from './locale.js';

const enUS = {
  'validation.externalLink': 'please enter a link starting with http:, https:, mailto: or tel:',
  'validation.username': 'the user name must be admin or editor',
  'validation.url': 'please enter a correct URL',
  'validation.lowerCase': 'please enter lower-case letters only',
  'validation.upperCase': 'please enter upper-case letters only',
  'validation.alphabets': 'please enter letters only',
  'validation.email': 'please enter a correct e-mail address',
  'validation.mainlandMobile': 'please enter a correct 11-digit mainland China mobile number',
  'validation.ip': 'please enter a correct IP address',
  'validation.phoneOrLandline': 'please enter a correct phone or landline number',
  'validation.landline': 'please enter a correct landline number',
  'validation.mobile': 'please enter a correct phone number',
  'validation.idCard': 'please enter a correct ID number',
  'error.timeout': 'request timed out',
  'error.noStatus': 'API request failed',
  'error.sessionExpired': 'your session has expired, please log in again',
  'error.forbidden': 'access denied: you do not have permission for this resource',
  'error.notFound': 'not found',
  'error.internal': 'internal server error',
  'logout.confirmTitle': 'tip',
  'logout.confirmText': 'Are you sure you want to log out and exit the system?',
  'common.confirm': 'confirm',
  'common.cancel': 'cancel',
  // The typo is in the product spec; keep it until the spec changes.
  'screenfull.unsupported': 'you browser can not work',
  'size.changed': 'layout setting succeeded',
  'app.title': 'cloud classroom admin management',
  'settings.title': 'system layout settings',
  'timeAgo.justNow': 'just now',
  'timeAgo.minutes': '{{count}} minutes ago',
  'timeAgo.hours': '{{count}} hours ago',
  'timeAgo.oneDay': '1 day ago',
  'page.notFound.title': 'Page not found',
  'page.notFound.text': 'Sorry, the page you visited does not exist.',
  'page.forbidden.title': 'No permission',
  'page.forbidden.text': 'Sorry, you do not have permission to view this page.',
  'page.backHome': 'Back to home',
  'page.back': 'Go back',
} as const;

export type MessageKey = keyof typeof enUS;
export type MessageCatalogue = Readonly<Record<MessageKey, string>>;

// `satisfies` on the literal rejects both missing and extra keys, so the languages cannot drift apart.
const zhCN = {
  'validation.externalLink': '请输入以 http:、https:、mailto: 或 tel: 开头的链接',
  'validation.username': '用户名只能是 admin 或 editor',
  'validation.url': '请输入正确的URL地址',
  'validation.lowerCase': '请输入小写字母',
  'validation.upperCase': '请输入大写字母',
  'validation.alphabets': '请输入英文字母',
  'validation.email': '请输入正确的邮箱地址',
  'validation.mainlandMobile': '请输入正确的11位中国大陆手机号码',
  'validation.ip': '请输入正确的IP地址',
  'validation.phoneOrLandline': '请输入正确的电话号码或者固话号码',
  'validation.landline': '请输入正确的座机号码',
  'validation.mobile': '请输入正确的11位手机号码',
  'validation.idCard': '请输入正确的身份证号码',
  'error.timeout': '网络请求超时',
  'error.noStatus': '接口请求失败',
  'error.sessionExpired': '登录状态已过期，请重新登录',
  'error.forbidden': '禁止访问，您没有权限访问此资源',
  'error.notFound': '资源不存在',
  'error.internal': '服务器内部错误',
  'logout.confirmTitle': '提示',
  'logout.confirmText': '确定注销并退出系统吗？',
  'common.confirm': '确定',
  'common.cancel': '取消',
  'screenfull.unsupported': '你的浏览器不支持全屏',
  'size.changed': '布局设置成功',
  'app.title': '云课堂后台管理',
  'settings.title': '系统布局设置',
  'timeAgo.justNow': '刚刚',
  'timeAgo.minutes': '{{count}}分钟前',
  'timeAgo.hours': '{{count}}小时前',
  'timeAgo.oneDay': '1天前',
  'page.notFound.title': '页面不存在',
  'page.notFound.text': '抱歉，您访问的页面不存在。',
  'page.forbidden.title': '没有权限',
  'page.forbidden.text': '抱歉，您没有权限访问该页面。',
  'page.backHome': '返回首页',
  'page.back': '返回',
} as const satisfies MessageCatalogue;

export const messages = { 'zh-CN': zhCN, 'en-US': enUS } as const satisfies Record<Locale, MessageCatalogue>;

// Placeholders without a matching param stay visible, so a missing value shows up in review instead of vanishing.
export function translate(
  locale: Locale,
  key: MessageKey,
  params?: Readonly<Record<string, string | number>>,
): string {
  return messages[locale][key].replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => {
    const value = params?.[name];
    return value === undefined ? placeholder : String(value);
  });
}
