import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot } from './browser.js';
import {
  addTokenCookie,
  baseUrl,
  chooseMenuItem,
  collectErrors,
  expectPath,
  openDialog,
  openFromSidebar,
  selectOption,
  sharedAdminToken,
  waitForShell,
} from './session.js';

// Every system page the seeded menu offers, with something each must show once its data is in.
const PAGES = [
  { path: '/course/course', menu: ['课程中心', '课程列表'], name: 'courses', ready: '.ant-table-row' },
  { path: '/course/category', menu: ['课程中心', '课程分类'], name: 'course-categories', ready: '.ant-table-row' },
  { path: '/system/user', menu: ['系统管理', '用户管理'], name: 'users', ready: '.ant-table-row' },
  { path: '/system/role', menu: ['系统管理', '角色管理'], name: 'roles', ready: '.ant-table-row' },
  { path: '/system/menu', menu: ['系统管理', '菜单管理'], name: 'menus', ready: '.ant-table-row' },
  { path: '/system/dept', menu: ['系统管理', '部门管理'], name: 'depts', ready: '.ant-table-row' },
  { path: '/system/dict', menu: ['系统管理', '字典管理'], name: 'dicts', ready: '.ant-table-row' },
  { path: '/monitor/online', menu: ['系统监控', '在线用户'], name: 'online', ready: '.ant-table-row' },
  { path: '/monitor/logs', menu: ['系统监控', '操作日志'], name: 'logs', ready: '.ant-table-row' },
  { path: '/monitor/errorLog', menu: ['系统监控', '异常日志'], name: 'error-logs', ready: '.ant-table' },
  { path: '/monitor/server', menu: ['系统监控', '服务监控'], name: 'server-monitor', ready: '.ant-progress' },
  { path: '/monitor/druid', menu: ['系统监控', 'SQL监控'], name: 'database-monitor', ready: '.database-monitor-page .ant-table-row' },
  { path: '/sys-tools/storage', menu: ['系统工具', '存储管理'], name: 'storage', ready: '.ant-table' },
  { path: '/sys-tools/database', menu: ['系统工具', '数据库备份'], name: 'database-backups', ready: '.ant-table' },
  { path: '/sys-tools/swagger', menu: ['系统工具', '接口文档'], name: 'swagger', ready: 'iframe.swagger-page' },
] as const;

describe('journeys: every system page opens with its data', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1366, height: 800 } });
    await addTokenCookie(context, sharedAdminToken);
    page = await context.newPage();
    errors = collectErrors(page);
    await page.goto(`${baseUrl}/dashboard`);
    await waitForShell(page);
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function expectShown(title: string, name: string, ready: string) {
    // The router keeps the previous page on screen while the next one's chunk loads; the active
    // tab changes once the new page is in.
    await expect.poll(() => page.locator('.tags-view-item.active').innerText(), { timeout: 20_000 }).toBe(title);
    const view = page.locator('.app-view:not([hidden])');
    await view.locator(ready).first().waitFor({ timeout: 20_000 });
    // The API docs are the server's own page in a frame: wait for its operations to be listed.
    if (name === 'swagger') await view.frameLocator('iframe').locator('.opblock').first().waitFor({ timeout: 20_000 });
    expect(await view.getByText('页面未包含在此版本中').count()).toBe(0);
    await saveScreenshot(page, `page-${name}`, { fullPage: false });
    expect(errors).toEqual([]);
  }

  it.each(PAGES)('$path', async ({ path, menu: [directory, item], name, ready }) => {
    await openFromSidebar(page, directory, item);
    await expectPath(page, path);
    await expectShown(item, name, ready);
  });

  it('/course/term/outline and /course/term/index, for the course chosen in the course list', async () => {
    await openFromSidebar(page, '课程中心', '课程列表');
    const view = page.locator('.app-view:not([hidden])');
    await view.locator('.ant-table-row').getByRole('button', { name: '消防安全基础' }).click();
    await view.getByText('当前课程：消防安全基础').waitFor();
    await openFromSidebar(page, '课程中心', '课程大纲');
    await expectPath(page, '/course/term/outline');
    await expectShown('课程大纲', 'course-outline', '.outline-board__lesson');
    await openFromSidebar(page, '课程中心', '开课计划');
    await expectPath(page, '/course/term/index');
    await expectShown('开课计划', 'course-terms', '.ant-table-row');
  });

  it('/user/center, from the avatar menu', async () => {
    await page.locator('.avatar-button').click();
    await chooseMenuItem(page, '个人中心');
    await expectPath(page, '/user/center');
    await expectShown('个人中心', 'user-center', '.ant-tabs');
  });

  it('adds a user through the dialog, shows the first password once, then deletes the user', async () => {
    await openFromSidebar(page, '系统管理', '用户管理');
    const view = page.locator('.app-view:not([hidden])');
    await view.getByRole('button', { name: /新增/ }).click();
    const dialog = openDialog(page);
    await dialog.getByLabel('用户名').fill('trainee7');
    await dialog.getByLabel('昵称').fill('新学员');
    await dialog.getByLabel('邮箱').fill('not-an-email');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    // Checked by the shared schema in the browser: nothing reaches the server.
    await dialog.locator('.ant-form-item-explain-error').first().waitFor();
    await dialog.getByLabel('邮箱').fill('trainee7@example.com');
    await dialog.locator('.ant-select').nth(0).click();
    await page.locator('.ant-select-tree-title').filter({ hasText: /^云课堂$/ }).first().click();
    await dialog.locator('.ant-select').nth(1).click();
    await selectOption(page, /^learner$/).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();

    const created = openDialog(page, 'trainee7');
    const password = created.locator('code').first();
    await password.waitFor();
    // A generated password: base64url, at least 12 characters.
    expect(await password.innerText()).toMatch(/^[\w-]{12,}$/);
    await saveScreenshot(page, 'user-created-password', { fullPage: false });
    await created.getByRole('button').last().click();

    const row = view.locator('.ant-table-row').filter({ hasText: 'trainee7' });
    await row.waitFor();
    await row.getByRole('button', { name: '删除' }).click();
    await openDialog(page).getByRole('button', { name: /确\s*定/ }).click();
    await row.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('keeps every visited page as a tab', async () => {
    const titles = await page.locator('.tags-view-item').allInnerTexts();
    expect(titles, titles.join(',')).toHaveLength(PAGES.length + 4);
  });
});
