import type { Locale } from './locale.js';

const enUS = {
  'validation.externalLink': 'please enter a link starting with http:, https:, mailto: or tel:',
  'validation.username': 'the user name must be admin or editor',
  'validation.usernameChars': 'please use 2 to 20 letters, digits, _, - or .',
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
  'timeAgo.minutes_one': '{{count}} minute ago',
  'timeAgo.hours': '{{count}} hours ago',
  'timeAgo.hours_one': '{{count}} hour ago',
  'timeAgo.oneDay': '1 day ago',
  'page.notFound.title': 'Page not found',
  'page.notFound.text': 'Sorry, the page you visited does not exist.',
  'page.forbidden.title': 'No permission',
  'page.forbidden.text': 'Sorry, you do not have permission to view this page.',
  'page.backHome': 'Back to home',
  'page.back': 'Go back',
  'login.title': 'Cloud Classroom',
  'login.subtitle': 'Sign in to continue learning and teaching',
  'login.pageTitle': 'login',
  'login.username': 'user name',
  'login.password': 'password',
  'login.code': 'captcha answer',
  'login.codeImage': 'captcha: click for a new one',
  'login.rememberMe': 'remember me',
  'login.submit': 'log in',
  'login.submitting': 'logging in...',
  'login.usernameRequired': 'please enter your user name',
  'login.passwordRequired': 'please enter your password',
  'login.codeRequired': 'please enter the captcha answer',
  'login.codeWrong': 'the captcha answer is wrong',
  'login.codeExpired': 'the captcha has expired, get a new one',
  'login.badCredentials': 'username or password is wrong',
  'login.accountDisabled': 'this account is disabled',
  'login.language': '中文',
  'route.dashboard': 'Dashboard',
  'route.userCenter': 'Personal center',
  'route.editLesson': 'Edit lesson',
  'route.home': 'Home',
  'route.download': 'Download',
  'home.backOffice': 'Back office',
  'home.backOfficeText': 'Courses, exams, certificates, people and the system are managed there.',
  'home.openBackOffice': 'Open the back office',
  'home.logout': 'Log out',
  'home.welcome': 'Welcome, {{name}}',
  'home.empty': 'Your courses, exams and certificates will appear here once they are assigned to you.',
  'download.title': 'Installation media',
  'download.text': 'No installation media has been published on this server yet. Ask your administrator, or sign in to use the platform in the browser.',
  'download.login': 'Go to login',
  'page.notInBuild.title': 'Page not found in this build',
  'page.notInBuild.text': 'The menu points to the page "{{component}}", which this version of the web app does not contain.',
  // What the audit log calls an action. The server stores the Chinese text; auditDescription
  // shows it in the viewer's language. Entries stay after their route is gone: old rows keep them.
  'audit.login': 'Log in',
  'audit.logout': 'Log out',
  'audit.user.export': 'Export users',
  'audit.user.add': 'Add user',
  'audit.user.edit': 'Edit user',
  'audit.user.del': 'Delete users',
  'audit.user.resetPassword': 'Reset password',
  'audit.center.profile': 'Edit own profile',
  'audit.center.password': 'Change password',
  'audit.center.avatar': 'Change avatar',
  'audit.role.export': 'Export roles',
  'audit.role.add': 'Add role',
  'audit.role.edit': 'Edit role',
  'audit.role.menus': 'Edit role menus',
  'audit.role.del': 'Delete roles',
  'audit.menu.export': 'Export menus',
  'audit.menu.add': 'Add menu',
  'audit.menu.edit': 'Edit menu',
  'audit.menu.del': 'Delete menus',
  'audit.menu.superior': 'View parent menus',
  'audit.dept.export': 'Export departments',
  'audit.dept.add': 'Add department',
  'audit.dept.edit': 'Edit department',
  'audit.dept.del': 'Delete departments',
  'audit.dept.superior': 'View parent departments',
  'audit.dict.export': 'Export dictionaries',
  'audit.dict.add': 'Add dictionary',
  'audit.dict.edit': 'Edit dictionary',
  'audit.dict.del': 'Delete dictionaries',
  'audit.dictDetail.add': 'Add dictionary entry',
  'audit.dictDetail.edit': 'Edit dictionary entry',
  'audit.dictDetail.del': 'Delete dictionary entry',
  'audit.online.kick': 'Force users out',
  'audit.online.export': 'Export online users',
  'audit.log.exportInfo': 'Export operation log',
  'audit.log.exportError': 'Export error log',
  'audit.log.clearInfo': 'Clear operation log',
  'audit.log.clearError': 'Clear error log',
  'audit.storage.export': 'Export files',
  'audit.storage.upload': 'Upload file',
  'audit.storage.picture': 'Upload picture',
  'audit.storage.edit': 'Rename file',
  'audit.storage.del': 'Delete files',
  'audit.media.upload': 'Upload media',
  'audit.media.del': 'Delete media',
  'audit.category.add': 'Add course category',
  'audit.category.edit': 'Edit course category',
  'audit.category.del': 'Delete course categories',
  'audit.course.export': 'Export courses',
  'audit.course.add': 'Add course',
  'audit.course.edit': 'Edit course',
  'audit.course.del': 'Delete courses',
  'audit.course.outline': 'Reorder course outline',
  'audit.term.export': 'Export terms',
  'audit.term.add': 'Add term',
  'audit.term.edit': 'Edit term',
  'audit.term.del': 'Delete terms',
  'audit.chapter.add': 'Add chapter',
  'audit.chapter.edit': 'Edit chapter',
  'audit.chapter.del': 'Delete chapters',
  'audit.lesson.add': 'Add lesson',
  'audit.lesson.edit': 'Edit lesson',
  'audit.lesson.del': 'Delete lessons',
  'play.title': 'Lesson',
  'play.breadcrumb': 'Where you are',
  'play.notes': 'Notes',
  'play.steps': 'Other lessons',
  'play.previous': 'Previous lesson',
  'play.next': 'Next lesson',
  'play.backToCourse': 'Back to the course',
  'play.progress': 'Progress in this lesson',
  'play.percent': '{{percent}}% done',
  'play.completed': 'Completed',
  'play.goal': 'Completed at {{percent}}%',
  'play.forbiddenTitle': 'This lesson is for enrolled learners',
  'play.forbiddenText': 'Enrol in the course to study it; some lessons can be previewed before.',
  'play.openCourse': 'See the course',
  'play.backHome': 'Back to my courses',
  'play.notFoundTitle': 'Lesson not found',
  'play.notFoundText': 'The lesson does not exist, or its course is no longer published.',
  'play.errorTitle': 'The lesson could not be loaded',
  'play.retry': 'Try again',
  'play.playerLabel': 'Video player',
  'play.speed': 'Speed',
  'play.shortcuts': 'With the player focused: Space or K play/pause · ←/→ 5 s back/forward · ↑/↓ volume · F full screen · < / > speed',
  'play.noSkip': 'This course does not allow skipping ahead: the video went back to the furthest point you watched.',
  'play.superseded': 'This lesson is playing on another device or tab, so study time counts there.',
  'play.continueHere': 'Continue here',
  'play.previousPage': 'Previous page',
  'play.nextPage': 'Next page',
  'play.pageOf': 'Page {{page}} / {{total}}',
  'play.pagesRead': '{{read}} / {{total}} pages read',
  'play.documentLabel': 'Document, page {{page}} of {{total}}',
  'play.documentError': 'The document could not be opened. Reload the page to try again.',
  'play.pageKeys': 'With the page focused: ← / PageUp previous page · → / PageDown next page',
} as const;

export type MessageKey = keyof typeof enUS;
export type MessageCatalogue = Readonly<Record<MessageKey, string>>;

// `satisfies` on the literal rejects both missing and extra keys, so the languages cannot drift apart.
const zhCN = {
  'validation.externalLink': '请输入以 http:、https:、mailto: 或 tel: 开头的链接',
  'validation.username': '用户名只能是 admin 或 editor',
  'validation.usernameChars': '用户名为 2 到 20 位字母、数字、_、- 或 .',
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
  'timeAgo.minutes_one': '{{count}}分钟前',
  'timeAgo.hours': '{{count}}小时前',
  'timeAgo.hours_one': '{{count}}小时前',
  'timeAgo.oneDay': '1天前',
  'page.notFound.title': '页面不存在',
  'page.notFound.text': '抱歉，您访问的页面不存在。',
  'page.forbidden.title': '没有权限',
  'page.forbidden.text': '抱歉，您没有权限访问该页面。',
  'page.backHome': '返回首页',
  'page.back': '返回',
  'login.title': '云课堂',
  'login.subtitle': '登录后继续学习与教学',
  'login.pageTitle': '登录',
  'login.username': '账号',
  'login.password': '密码',
  'login.code': '验证码',
  'login.codeImage': '验证码：点击换一张',
  'login.rememberMe': '记住我',
  'login.submit': '登 录',
  'login.submitting': '登 录 中...',
  'login.usernameRequired': '用户名不能为空',
  'login.passwordRequired': '密码不能为空',
  'login.codeRequired': '验证码不能为空',
  'login.codeWrong': '验证码错误',
  'login.codeExpired': '验证码已过期，请重新输入',
  'login.badCredentials': '用户名或密码错误',
  'login.accountDisabled': '账号已停用',
  'login.language': 'English',
  'route.dashboard': '首页',
  'route.userCenter': '个人中心',
  'route.editLesson': '编辑课时',
  'route.home': '首页',
  'route.download': '下载',
  'home.backOffice': '后台管理',
  'home.backOfficeText': '在这里管理课程、考试、证书、人员和系统。',
  'home.openBackOffice': '进入后台管理',
  'home.logout': '退出登录',
  'home.welcome': '欢迎，{{name}}',
  'home.empty': '为你分配的课程、考试和证书将显示在这里。',
  'download.title': '安装介质',
  'download.text': '本服务器尚未发布安装介质。请联系管理员，或登录后直接在浏览器中使用平台。',
  'download.login': '去登录',
  'page.notInBuild.title': '页面未包含在此版本中',
  'page.notInBuild.text': '菜单指向页面“{{component}}”，但当前版本的前端没有这个页面。',
  'audit.login': '用户登录',
  'audit.logout': '退出登录',
  'audit.user.export': '导出用户数据',
  'audit.user.add': '新增用户',
  'audit.user.edit': '修改用户',
  'audit.user.del': '删除用户',
  'audit.user.resetPassword': '重置密码',
  'audit.center.profile': '修改个人资料',
  'audit.center.password': '修改密码',
  'audit.center.avatar': '修改头像',
  'audit.role.export': '导出角色数据',
  'audit.role.add': '新增角色',
  'audit.role.edit': '修改角色',
  'audit.role.menus': '修改角色菜单',
  'audit.role.del': '删除角色',
  'audit.menu.export': '导出菜单数据',
  'audit.menu.add': '新增菜单',
  'audit.menu.edit': '修改菜单',
  'audit.menu.del': '删除菜单',
  'audit.menu.superior': '查询上级菜单',
  'audit.dept.export': '导出部门数据',
  'audit.dept.add': '新增部门',
  'audit.dept.edit': '修改部门',
  'audit.dept.del': '删除部门',
  'audit.dept.superior': '查询上级部门',
  'audit.dict.export': '导出字典数据',
  'audit.dict.add': '新增字典',
  'audit.dict.edit': '修改字典',
  'audit.dict.del': '删除字典',
  'audit.dictDetail.add': '新增字典详情',
  'audit.dictDetail.edit': '修改字典详情',
  'audit.dictDetail.del': '删除字典详情',
  'audit.online.kick': '强制退出用户',
  'audit.online.export': '导出在线用户',
  'audit.log.exportInfo': '导出操作日志',
  'audit.log.exportError': '导出异常日志',
  'audit.log.clearInfo': '清空操作日志',
  'audit.log.clearError': '清空异常日志',
  'audit.storage.export': '导出文件数据',
  'audit.storage.upload': '上传文件',
  'audit.storage.picture': '上传图片',
  'audit.storage.edit': '修改文件',
  'audit.storage.del': '删除文件',
  'audit.media.upload': '上传媒体',
  'audit.media.del': '删除媒体',
  'audit.category.add': '新增课程分类',
  'audit.category.edit': '修改课程分类',
  'audit.category.del': '删除课程分类',
  'audit.course.export': '导出课程数据',
  'audit.course.add': '新增课程',
  'audit.course.edit': '修改课程',
  'audit.course.del': '删除课程',
  'audit.course.outline': '调整课程大纲',
  'audit.term.export': '导出开课计划',
  'audit.term.add': '新增开课计划',
  'audit.term.edit': '修改开课计划',
  'audit.term.del': '删除开课计划',
  'audit.chapter.add': '新增章节',
  'audit.chapter.edit': '修改章节',
  'audit.chapter.del': '删除章节',
  'audit.lesson.add': '新增课时',
  'audit.lesson.edit': '修改课时',
  'audit.lesson.del': '删除课时',
  'play.title': '课时',
  'play.breadcrumb': '当前位置',
  'play.notes': '说明',
  'play.steps': '其他课时',
  'play.previous': '上一课时',
  'play.next': '下一课时',
  'play.backToCourse': '返回课程',
  'play.progress': '本课时进度',
  'play.percent': '进度 {{percent}}%',
  'play.completed': '已完成',
  'play.goal': '达到 {{percent}}% 即完成',
  'play.forbiddenTitle': '本课时仅对已报名的学员开放',
  'play.forbiddenText': '报名该课程后即可学习；部分课时可在报名前试看。',
  'play.openCourse': '查看课程',
  'play.backHome': '返回我的课程',
  'play.notFoundTitle': '课时不存在',
  'play.notFoundText': '该课时不存在，或其课程已不再发布。',
  'play.errorTitle': '课时加载失败',
  'play.retry': '重试',
  'play.playerLabel': '视频播放器',
  'play.speed': '倍速',
  'play.shortcuts': '播放器获得焦点时：空格或 K 播放/暂停 · ←/→ 后退/前进 5 秒 · ↑/↓ 音量 · F 全屏 · < / > 倍速',
  'play.noSkip': '本课程不允许跳过未观看的内容，已回到你看到的最远位置。',
  'play.superseded': '该课时正在其他设备或标签页播放，学习时长将记在那里。',
  'play.continueHere': '在此继续学习',
  'play.previousPage': '上一页',
  'play.nextPage': '下一页',
  'play.pageOf': '第 {{page}} / {{total}} 页',
  'play.pagesRead': '已读 {{read}} / {{total}} 页',
  'play.documentLabel': '文档，第 {{page}} / {{total}} 页',
  'play.documentError': '文档无法打开，请刷新页面重试。',
  'play.pageKeys': '文档获得焦点时：← / PageUp 上一页 · → / PageDown 下一页',
} as const satisfies MessageCatalogue;

export const messages = { 'zh-CN': zhCN, 'en-US': enUS } as const satisfies Record<Locale, MessageCatalogue>;

const pluralRules = new Map<Locale, Intl.PluralRules>();

/**
 * i18next's plural convention, so both catalogues' users agree: with a numeric `count`, `key_one`
 * is used where Intl.PluralRules says 'one' (English 1, never Chinese), the key itself otherwise.
 * Every locale carries the same keys, so Chinese repeats its one form under `_one`.
 */
function pluralOf(locale: Locale, key: MessageKey, count: string | number | undefined): MessageKey {
  const number = typeof count === 'string' && count.trim() !== '' ? Number(count) : count;
  if (typeof number !== 'number' || !Number.isFinite(number)) return key;
  let rules = pluralRules.get(locale);
  if (rules === undefined) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  const plural = `${key}_${rules.select(number)}`;
  return plural in messages[locale] ? (plural as MessageKey) : key;
}

// Placeholders without a matching param stay visible, so a missing value shows up in review instead of vanishing.
export function translate(
  locale: Locale,
  key: MessageKey,
  params?: Readonly<Record<string, string | number>>,
): string {
  return messages[locale][pluralOf(locale, key, params?.count)].replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => {
    const value = params?.[name];
    return value === undefined ? placeholder : String(value);
  });
}

let englishKeys: Map<string, MessageKey> | undefined;

/**
 * A server message in the reader's language. The API answers in English (its clients include
 * scripts); where that English is a catalogue entry, the pages show the same entry in their own
 * language, and anything else as it came.
 */
export function localizeMessage(locale: Locale, text: string): string {
  englishKeys ??= new Map(Object.entries(messages['en-US']).map(([key, english]) => [english, key as MessageKey]));
  const key = englishKeys.get(text);
  return key === undefined ? text : messages[locale][key];
}

/**
 * The field a 400 or 409 answer is about: the server starts such messages with it
 * (`email: must be an e-mail`, `body.roles.0: …`); `field` is the top-level one, `text` the rest.
 */
export function fieldOfMessage(message: string): { field: string | undefined; text: string } {
  const match = /^([\w.]+): (.+)$/s.exec(message);
  if (match === null) return { field: undefined, text: message };
  const [field = ''] = (match[1] ?? '').replace(/^body\./, '').split('.');
  return { field, text: match[2] ?? message };
}

export type AuditKey = Extract<MessageKey, `audit.${string}`>;

// The server stores an action's Chinese text (one language in the database, as the operators
// who read the log directly are Chinese); this finds its key again.
const auditKeyOf: ReadonlyMap<string, AuditKey> = new Map(
  (Object.entries(zhCN) as Array<[MessageKey, string]>)
    .filter((entry): entry is [AuditKey, string] => entry[0].startsWith('audit.'))
    .map(([key, text]) => [text, key]),
);

/** The catalogue key of a stored audit description, if it is one the catalogue knows. */
export function auditKeyOfDescription(description: string): AuditKey | undefined {
  return auditKeyOf.get(description);
}

/**
 * A stored audit description in the viewer's language. Text the catalogue does not know (an
 * action of a later version, a `METHOD /path` fallback) is shown as it was stored.
 */
export function auditDescription(locale: Locale, description: string): string {
  const key = auditKeyOf.get(description);
  return key === undefined ? description : messages[locale][key];
}
