import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectConsoleMessage, launchBrowser, saveScreenshot } from './browser.js';
import {
  addTokenCookie,
  apiLogin,
  baseUrl,
  chooseMenuItem,
  collectErrors,
  cookieNamed,
  expectPath,
  fillLogin,
  openFromSidebar,
  selectOption,
  sharedAdminToken,
  waitForShell,
} from './session.js';

/**
 * Menu titles, dictionary labels and audit descriptions are data; with English chosen, the back
 * office shows them in English (seeded menus have English titles), switching without a reload.
 */
describe('journeys: the back office in English', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function openInChinese(path: string, viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ locale: 'zh-CN', viewport });
    contexts.push(context);
    await addTokenCookie(context, sharedAdminToken);
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    await waitForShell(page);
    return page;
  }

  /** Switches with the navbar's language menu, and checks the page was not reloaded for it. */
  async function switchToEnglish(page: Page): Promise<void> {
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole('button', { name: '语言' }).click();
    await chooseMenuItem(page, 'English');
    await page.getByRole('button', { name: 'language' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  }

  const sidebarTexts = (page: Page) => page.locator('.sidebar-container .ant-menu-title-content').allInnerTexts();
  const activeTab = (page: Page) => page.locator('.tags-view-item.active').innerText();
  const selectedItem = (page: Page) => page.locator('.sidebar-container .ant-menu-item-selected').innerText();
  const breadcrumb = async (page: Page) =>
    (await page.locator('.app-breadcrumb .ant-breadcrumb-link').allInnerTexts()).map((text) => text.trim());

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('at 1440 px: sidebar, tabs, breadcrumb, browser title, header search, role menus and the log turn English', async () => {
    const page = await openInChinese('/system/user', { width: 1440, height: 900 });
    const errors = collectErrors(page);
    await expect.poll(() => selectedItem(page)).toBe('用户管理');
    expect(await breadcrumb(page)).toEqual(['首页', '系统管理', '用户管理']);
    expect(await page.title()).toBe('用户管理 - 云课堂后台管理');

    await switchToEnglish(page);
    await expect.poll(() => selectedItem(page)).toBe('Users');
    expect(await sidebarTexts(page)).toEqual(
      expect.arrayContaining(['Dashboard', 'System', 'Users', 'Roles', 'Menus', 'Departments', 'Dictionaries', 'Monitoring', 'Tools']),
    );
    expect(await activeTab(page)).toBe('Users');
    expect(await page.locator('.tags-view-item').allInnerTexts()).toEqual(['Dashboard', 'Users']);
    expect(await breadcrumb(page)).toEqual(['Dashboard', 'System', 'Users']);
    expect(await page.title()).toBe('Users - cloud classroom admin management');
    await saveScreenshot(page, 'english-users-1440');

    await page.getByRole('button', { name: 'search the menu' }).click();
    await page.locator('.header-search__select input').fill('server');
    const option = selectOption(page).first();
    await expect.poll(() => option.innerText()).toBe('Monitoring > Server status');
    await saveScreenshot(page, 'english-header-search-1440', { fullPage: false });
    await option.click();
    await expectPath(page, '/monitor/server');
    await expect.poll(() => activeTab(page)).toBe('Server status');
    expect(await breadcrumb(page)).toEqual(['Dashboard', 'Monitoring', 'Server status']);
    expect(await page.title()).toBe('Server status - cloud classroom admin management');

    // The role form's menu tree.
    await openFromSidebar(page, 'System', 'Roles');
    await expectPath(page, '/system/role');
    const view = page.locator('.app-view:not([hidden])');
    await view.locator('.ant-table-row').filter({ hasText: 'teacher' }).click();
    await view.locator('.ant-tree-title').filter({ hasText: /^Users$/ }).waitFor();
    expect(await view.locator('.ant-tree-title').allInnerTexts()).toEqual(expect.arrayContaining(['System', 'Monitoring', 'Add user button']));
    await saveScreenshot(page, 'english-role-menus-1440');

    // Audit descriptions are stored in Chinese and read in English: the journeys' own logins.
    await openFromSidebar(page, 'Monitoring', 'Operation log');
    await expectPath(page, '/monitor/logs');
    await view.locator('.ant-table-row').first().waitFor();
    // Other journeys' writes on the shared server fill the first page: look for the logins.
    await view.getByRole('textbox', { name: 'User, description, method, parameters or IP' }).fill('/auth/login');
    await view.getByRole('button', { name: /Search$/ }).click();
    await expect.poll(() => view.locator('.ant-table-row').filter({ hasText: 'Log in' }).count()).toBeGreaterThan(0);
    expect(await view.getByText('用户登录').count()).toBe(0);
    await saveScreenshot(page, 'english-operation-log-1440');
    expect(errors).toEqual([]);
  });

  it('the date pickers follow the language: Chinese months and weekdays, then English ones', async () => {
    const page = await openInChinese('/monitor/logs', { width: 1440, height: 900 });
    const errors = collectErrors(page);
    const view = page.locator('.app-view:not([hidden])');
    const openPicker = async () => {
      await view.locator('.ant-picker').first().click();
      const panel = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-panel').first();
      await panel.locator('thead th').first().waitFor();
      return { header: await panel.locator('.ant-picker-header-view').first().innerText(), weekdays: await panel.locator('thead th').allInnerTexts() };
    };
    const chinese = await openPicker();
    expect(chinese.header).toMatch(/^\d{4}年\s*\d{1,2}月$/);
    expect(chinese.weekdays.slice(0, 7)).toEqual(['一', '二', '三', '四', '五', '六', '日']);
    await saveScreenshot(page, 'chinese-date-picker-1440', { fullPage: false });
    await page.keyboard.press('Escape');
    await page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').waitFor({ state: 'hidden' });

    await switchToEnglish(page);
    const english = await openPicker();
    expect(english.header).toMatch(/^[A-Z][a-z]{2}\s*\d{4}$/);
    expect(english.weekdays.slice(0, 7)).toEqual(['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa']);
    await saveScreenshot(page, 'english-date-picker-1440', { fullPage: false });
    expect(errors).toEqual([]);
  });

  it('at 375 px: the sidebar and the tab turn English, and so does the browser title', async () => {
    const page = await openInChinese('/system/dict', { width: 375, height: 800 });
    const errors = collectErrors(page);
    await expect.poll(() => activeTab(page)).toBe('字典管理');
    await switchToEnglish(page);
    await expect.poll(() => activeTab(page)).toBe('Dictionaries');
    expect(await page.title()).toBe('Dictionaries - cloud classroom admin management');
    // Seeded dictionary entries have English labels too.
    const view = page.locator('.app-view:not([hidden])');
    // The name itself: on a phone the row's middle holds its folded actions.
    await view.locator('.ant-table-row').getByText('user_status', { exact: true }).click();
    await view.getByText('Active', { exact: true }).waitFor();
    await saveScreenshot(page, 'english-dicts-375');

    await page.getByRole('button', { name: 'toggle the sidebar' }).click();
    await page.locator('.drawer-bg').waitFor();
    await expect.poll(() => selectedItem(page)).toBe('Dictionaries');
    expect(await sidebarTexts(page)).toEqual(expect.arrayContaining(['Dashboard', 'System', 'Users', 'Monitoring', 'Tools']));
    await saveScreenshot(page, 'english-sidebar-375', { fullPage: false });
    expect(errors).toEqual([]);
  });
});

/**
 * The login and learner pages carry the shared catalogue of one language (the first screen's
 * budget): the other comes when the person switches, or, English, when a server message is to
 * be shown in Chinese. Switching happens in place, and the choice outlives a reload.
 */
describe('journeys: the login and learner pages switch language in place', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const DESKTOP = { width: 1280, height: 800 };

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function chineseContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ locale: 'zh-CN', viewport: DESKTOP });
    contexts.push(context);
    return context;
  }

  /** Which languages of the catalogue the page has fetched so far, in order. */
  function cataloguesFetched(page: Page): () => string[] {
    const fetched = new Set<string>();
    page.on('request', (request) => {
      const language = /\/messages-(zh-cn|en-us)-[^/]*\.js$/.exec(new URL(request.url()).pathname)?.[1];
      if (language !== undefined) fetched.add(language);
    });
    return () => [...fetched];
  }

  const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { sameDocument: true }));
  const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

  it("the login page: Chinese alone at first, the server's refusal in Chinese, then English without a reload", async () => {
    const context = await chineseContext();
    const page = await context.newPage();
    const catalogues = cataloguesFetched(page);
    await page.goto(`${baseUrl}/login`);
    await page.locator('input[name=username]').waitFor();
    await page.locator('input[name=code]').waitFor({ state: 'detached' });
    expect(await page.locator('button[type=submit]').innerText()).toBe('登 录');
    expect(catalogues()).toEqual(['zh-cn']);
    await markDocument(page);

    expectConsoleMessage(page, /^console\.error: Failed to load resource: .* 400 \(Bad Request\) \(http:[^ ]+\/auth\/login:1\)$/, 'the wrong password answers 400');
    await fillLogin(page, 'admin', 'not-the-password');
    // The server answers in English; its catalogue entry is found in English, fetched for it.
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('用户名或密码错误');
    expect(catalogues()).toEqual(['zh-cn', 'en-us']);

    await page.locator('.login-language').click();
    await expect.poll(() => page.locator('button[type=submit]').innerText()).toBe('log in');
    expect(await page.getByRole('alert').textContent()).toBe('username or password is wrong');
    expect(await page.locator('.login-language').innerText()).toBe('中文');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    expect((await cookieNamed(context, 'language'))?.value).toBe('en-US');
    expect(await sameDocument(page)).toBe(true);
  });

  it('a learner page: English is fetched when chosen, the page turns English in place, and the choice outlives a reload', async () => {
    const context = await chineseContext();
    await addTokenCookie(context, await apiLogin('learner1'));
    const page = await context.newPage();
    const catalogues = cataloguesFetched(page);
    await page.goto(`${baseUrl}/home`);
    const heading = page.locator('.home-main h1');
    await expect.poll(() => heading.innerText()).toMatch(/^欢迎，/);
    expect(catalogues()).toEqual(['zh-cn']);
    await markDocument(page);

    await page.locator('.site-lang').first().click();
    await expect.poll(() => heading.innerText()).toMatch(/^Welcome, /);
    expect(catalogues()).toEqual(['zh-cn', 'en-us']);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    expect((await cookieNamed(context, 'language'))?.value).toBe('en-US');
    expect(await sameDocument(page)).toBe(true);

    await page.reload();
    await expect.poll(() => heading.innerText()).toMatch(/^Welcome, /);
    await page.locator('.site-lang').first().click();
    await expect.poll(() => heading.innerText()).toMatch(/^欢迎，/);
    expect((await cookieNamed(context, 'language'))?.value).toBe('zh-CN');
  });
});
