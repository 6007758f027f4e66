import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot } from './browser.js';
import {
  addTokenCookie,
  apiLogin,
  baseUrl,
  chooseMenuItem,
  collectErrors,
  cookieNamed,
  expectPath,
  messageNotice,
  openDrawer,
  openDropdown,
  openFromSidebar,
  selectOption,
  waitForShell,
} from './session.js';

const SIDEBAR_WIDTH = 205;
const SIDEBAR_COLLAPSED_WIDTH = 54;
const CONTEXT_MENU_WIDTH = 105;
const YEAR_S = 365 * 24 * 60 * 60;

describe('journeys: the back office shell', () => {
  let browser: Browser;
  // One admin session for every journey here: the server allows 30 logins a minute per address.
  let token: string;
  const contexts: BrowserContext[] = [];

  async function openAsAdmin(path: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-US', viewport });
    contexts.push(context);
    await addTokenCookie(context, token);
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    return page;
  }

  const tabTitles = (page: Page) => page.locator('.tags-view-item').allInnerTexts();
  const tab = (page: Page, title: string) => page.locator('.tags-view-item').filter({ hasText: new RegExp(`^${title}$`) });
  const breadcrumb = async (page: Page) =>
    (await page.locator('.app-breadcrumb .ant-breadcrumb-item, .app-breadcrumb li:not(.ant-breadcrumb-separator)').allInnerTexts())
      .map((text) => text.trim())
      .filter((text) => text !== '' && text !== '/');
  const shownView = (page: Page) => page.locator('.app-view:not([hidden])');
  const rgb = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16));
    return `rgb(${r}, ${g}, ${b})`;
  };

  async function openTabMenu(page: Page, title: string): Promise<string[]> {
    await tab(page, title).click({ button: 'right' });
    const menu = page.locator('.tags-contextmenu');
    await menu.waitFor();
    return menu.getByRole('menuitem').allInnerTexts();
  }

  async function chooseInTabMenu(page: Page, title: string, action: string): Promise<void> {
    await openTabMenu(page, title);
    await page.locator('.tags-contextmenu').getByRole('menuitem', { name: action, exact: true }).click();
    await page.locator('.tags-contextmenu').waitFor({ state: 'detached' });
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    token = await apiLogin('admin');
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('reaches pages from the sidebar and from the header search, with breadcrumb, selected item and tab', async () => {
    const page = await openAsAdmin('/dashboard');
    const errors = collectErrors(page);
    await waitForShell(page);
    expect(await tabTitles(page)).toEqual(['Dashboard']);
    expect(await breadcrumb(page)).toEqual(['Dashboard']);

    await openFromSidebar(page, 'System', 'Menus');
    await expectPath(page, '/system/menu');
    await expect.poll(() => breadcrumb(page)).toEqual(['Dashboard', 'System', 'Menus']);
    await expect.poll(() => page.locator('.sidebar-container .ant-menu-item-selected').innerText()).toBe('Menus');
    await expect.poll(() => page.locator('.tags-view-item.active').innerText()).toBe('Menus');
    expect(await page.title()).toBe('Menus - cloud classroom admin management');

    await page.getByRole('button', { name: 'search the menu' }).click();
    const search = page.locator('.header-search__select input');
    await search.waitFor();
    // Searched by its Chinese title, shown by its English one.
    await search.fill('服务监控');
    const option = selectOption(page).first();
    await expect.poll(() => option.innerText()).toBe('Monitoring > Server status');
    await saveScreenshot(page, 'header-search');
    await option.click();
    await expectPath(page, '/monitor/server');
    await expect.poll(() => breadcrumb(page)).toEqual(['Dashboard', 'Monitoring', 'Server status']);
    await expect.poll(() => page.locator('.tags-view-item.active').innerText()).toBe('Server status');
    // Reached by search, the page's directory unfolds by itself and its item is the selected one.
    await expect.poll(() => page.locator('.sidebar-container .ant-menu-item-selected').innerText()).toBe('Server status');
    await shownView(page).locator('.server-monitor-page .ant-progress').first().waitFor();
    // The search closes itself once it has taken the user somewhere.
    expect(await page.locator('.header-search__select').count()).toBe(0);
    await expect.poll(() => tabTitles(page)).toEqual(['Dashboard', 'Menus', 'Server status']);
    await saveScreenshot(page, 'server-monitor');
    expect(errors).toEqual([]);
  });

  it('tabs: one per path, close by x and middle click, refresh re-mounts, close others and close all keep the affixed dashboard', async () => {
    const page = await openAsAdmin('/dashboard');
    await waitForShell(page);
    await openFromSidebar(page, 'Monitoring', 'Server status');
    await expectPath(page, '/monitor/server');
    await openFromSidebar(page, 'System', 'Menus');
    await expectPath(page, '/system/menu');
    // A second visit to a path adds no second tab.
    await openFromSidebar(page, 'Monitoring', 'Server status');
    await expectPath(page, '/monitor/server');
    await tab(page, 'Menus').click();
    await expectPath(page, '/system/menu');
    await tab(page, 'Server status').click();
    await expectPath(page, '/monitor/server');
    await expect.poll(() => tabTitles(page)).toEqual(['Dashboard', 'Server status', 'Menus']);

    // The affixed dashboard has no x and no "close" in its menu.
    expect(await tab(page, 'Dashboard').locator('.tags-view-item__close').count()).toBe(0);
    expect(await openTabMenu(page, 'Dashboard')).toEqual(['refresh', 'close others', 'close all']);
    await page.mouse.click(700, 500);
    await page.locator('.tags-contextmenu').waitFor({ state: 'detached' });

    // Refresh re-mounts the page: its state starts over and it loads its data again.
    const monitor = shownView(page).locator('.server-monitor-page');
    await monitor.locator('.ant-progress').first().waitFor();
    const autoRefresh = monitor.getByRole('switch');
    await autoRefresh.click();
    expect(await autoRefresh.getAttribute('aria-checked')).toBe('false');
    expect(await openTabMenu(page, 'Server status')).toEqual(['refresh', 'close', 'close others', 'close all']);
    const box = await page.locator('.tags-contextmenu').boundingBox();
    expect(box?.width).toBe(CONTEXT_MENU_WIDTH);
    await saveScreenshot(page, 'tags-contextmenu');
    const reloaded = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/monitor');
    await page.locator('.tags-contextmenu').getByRole('menuitem', { name: 'refresh', exact: true }).click();
    await reloaded;
    await expectPath(page, '/monitor/server');
    await expect.poll(() => shownView(page).locator('.server-monitor-page').getByRole('switch').getAttribute('aria-checked')).toBe('true');
    expect(await tabTitles(page)).toEqual(['Dashboard', 'Server status', 'Menus']);

    // The x closes a tab that is not showing, and the page stays where it is.
    await tab(page, 'Menus').locator('.tags-view-item__close').click();
    await expect.poll(() => tabTitles(page)).toEqual(['Dashboard', 'Server status']);
    await expectPath(page, '/monitor/server');

    // A middle click closes the showing tab and moves to the last one left.
    await openFromSidebar(page, 'System', 'Menus');
    await expectPath(page, '/system/menu');
    await tab(page, 'Menus').click({ button: 'middle' });
    await expect.poll(() => tabTitles(page)).toEqual(['Dashboard', 'Server status']);
    await expectPath(page, '/monitor/server');
    expect(page.context().pages()).toHaveLength(1);

    // Close others keeps the affixed dashboard and the chosen tab, and shows the chosen one.
    await openFromSidebar(page, 'System', 'Menus');
    await expectPath(page, '/system/menu');
    await page.getByRole('button', { name: 'search the menu' }).click();
    await page.locator('.header-search__select input').fill('Users');
    await selectOption(page).first().click();
    await expectPath(page, '/system/user');
    await expect.poll(() => tabTitles(page)).toEqual(['Dashboard', 'Server status', 'Menus', 'Users']);
    await chooseInTabMenu(page, 'Server status', 'close others');
    await expect.poll(() => tabTitles(page)).toEqual(['Dashboard', 'Server status']);
    await expectPath(page, '/monitor/server');

    // Close all keeps only the affixed dashboard, and goes there.
    await chooseInTabMenu(page, 'Server status', 'close all');
    await expect.poll(() => tabTitles(page)).toEqual(['Dashboard']);
    await expectPath(page, '/dashboard');
    await expect.poll(() => page.locator('.tags-view-item.active').innerText()).toBe('Dashboard');
  });

  it('remembers the theme colour and the tabs switch across a reload', async () => {
    const page = await openAsAdmin('/dashboard');
    await waitForShell(page);
    await page.locator('.avatar-button').click();
    await chooseMenuItem(page, 'layout settings');
    const drawer = openDrawer(page);
    await drawer.getByText('system layout settings').waitFor();
    const colour = '#11a983';
    await drawer.getByRole('button', { name: colour }).click();
    await expect.poll(() => drawer.getByRole('button', { name: colour }).getAttribute('aria-pressed')).toBe('true');

    // The cookie and the colour may follow the press by an effect: waited for, not read at once.
    await expect.poll(async () => (await cookieNamed(page.context(), 'theme'))?.value).toBe(colour);
    const theme = await cookieNamed(page.context(), 'theme');
    expect(theme?.expires).toBeGreaterThan(Date.now() / 1000 + YEAR_S - 120);
    expect(theme?.expires).toBeLessThan(Date.now() / 1000 + YEAR_S + 120);
    const primary = () => page.evaluate(() => document.documentElement.style.getPropertyValue('--color-primary'));
    await expect.poll(primary).toBe(colour);
    await expect.poll(() => page.locator('.tags-view-item.active').evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(rgb(colour));

    const tagsSwitch = drawer.getByRole('switch', { name: 'show tabs' });
    expect(await tagsSwitch.getAttribute('aria-checked')).toBe('true');
    await tagsSwitch.click();
    await expect.poll(() => tagsSwitch.getAttribute('aria-checked')).toBe('false');
    await expect.poll(() => page.locator('.tags-view-container').count()).toBe(0);
    await saveScreenshot(page, 'settings-drawer');
    // SPEC §2: a click outside closes the drawer (its panel unmounts with it).
    await page.locator('.ant-drawer-mask').click({ position: { x: 400, y: 400 } });
    await tagsSwitch.waitFor({ state: 'detached' });

    await page.reload();
    await page.locator('.sidebar-container .ant-menu-root').waitFor();
    await shownView(page).waitFor();
    expect(await page.locator('.tags-view-container').count()).toBe(0);
    expect(await primary()).toBe(colour);
    // antd's own components follow the colour too: the selected menu item and the search's focus.
    expect(await page.locator('.sidebar-container .ant-menu-item-selected').evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      rgb(colour),
    );
    const stored: unknown = JSON.parse((await page.evaluate(() => localStorage.getItem('layout-settings'))) ?? 'null');
    expect(stored).toMatchObject({ state: { tagsView: false } });
    await saveScreenshot(page, 'settings-after-reload');
  });

  it('keeps the chosen size across a reload', async () => {
    const page = await openAsAdmin('/monitor/server');
    await waitForShell(page);
    await shownView(page).locator('.ant-progress').first().waitFor();
    const fontSize = () => page.locator('.app-breadcrumb').evaluate((element) => getComputedStyle(element).fontSize);
    expect(await fontSize()).toBe('14px');

    await page.getByRole('button', { name: 'layout size' }).click();
    await chooseMenuItem(page, 'mini');
    await messageNotice(page, /^layout setting succeeded$/).waitFor();
    await expect.poll(async () => (await cookieNamed(page.context(), 'size'))?.value).toBe('mini');
    // The current view is shown again (through /redirect) at the new size.
    await expectPath(page, '/monitor/server');
    await expect.poll(fontSize).toBe('12px');
    await saveScreenshot(page, 'size-mini');

    await page.reload();
    await waitForShell(page);
    await shownView(page).locator('.ant-progress').first().waitFor();
    expect(await fontSize()).toBe('12px');
    expect(await shownView(page).locator('.ant-btn-sm').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'layout size' }).click();
    const selected = openDropdown(page).locator('.ant-dropdown-menu-item-selected');
    await selected.waitFor();
    expect(await selected.innerText()).toBe('mini');
  });

  it('collapses the sidebar and keeps it collapsed across a reload (cookie sidebarStatus)', async () => {
    const page = await openAsAdmin('/dashboard');
    await waitForShell(page);
    const sidebarWidth = async () => (await page.locator('.sidebar-container').boundingBox())?.width;
    expect(await sidebarWidth()).toBe(SIDEBAR_WIDTH);

    const hamburger = page.getByRole('button', { name: 'toggle the sidebar' });
    await hamburger.click();
    expect(await hamburger.getAttribute('aria-expanded')).toBe('false');
    expect((await cookieNamed(page.context(), 'sidebarStatus'))?.value).toBe('0');
    await expect.poll(sidebarWidth).toBe(SIDEBAR_COLLAPSED_WIDTH);
    // The icons fit the narrow bar: the selected item is not cut off at its edge.
    const selected = await page.locator('.sidebar-container .ant-menu-item-selected').boundingBox();
    expect((selected?.x ?? 0) + (selected?.width ?? Infinity)).toBeLessThanOrEqual(SIDEBAR_COLLAPSED_WIDTH);
    await saveScreenshot(page, 'sidebar-collapsed');

    await page.reload();
    await waitForShell(page);
    expect(await page.locator('.app-wrapper.hide-sidebar').count()).toBe(1);
    await expect.poll(sidebarWidth).toBe(SIDEBAR_COLLAPSED_WIDTH);
    const main = await page.locator('.main-container').boundingBox();
    expect(main?.x).toBe(SIDEBAR_COLLAPSED_WIDTH);

    await page.getByRole('button', { name: 'toggle the sidebar' }).click();
    expect((await cookieNamed(page.context(), 'sidebarStatus'))?.value).toBe('1');
    await expect.poll(sidebarWidth).toBe(SIDEBAR_WIDTH);
  });

  it('on a 375 px phone: the sidebar hides, the hamburger lays it over the page, a route change closes it, nothing overflows', async () => {
    const phone = { width: 375, height: 740 };
    const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const sidebarRight = async (page: Page) => {
      const box = await page.locator('.sidebar-container').boundingBox();
      return box === null ? undefined : box.x + box.width;
    };

    const page = await openAsAdmin('/dashboard', phone);
    await waitForShell(page);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('.app-wrapper.mobile.hide-sidebar').count()).toBe(1);
    await expect.poll(() => sidebarRight(page)).toBeLessThanOrEqual(0);
    expect((await page.locator('.main-container').boundingBox())?.x).toBe(0);
    expect(await overflow(page)).toBe(0);
    await saveScreenshot(page, 'mobile-dashboard');

    await page.getByRole('button', { name: 'toggle the sidebar' }).click();
    await expect.poll(() => sidebarRight(page)).toBe(SIDEBAR_WIDTH);
    await page.locator('.drawer-bg').waitFor();
    // Over the page, not beside it: the main area does not move.
    expect((await page.locator('.main-container').boundingBox())?.x).toBe(0);
    expect(await overflow(page)).toBe(0);
    await saveScreenshot(page, 'mobile-sidebar-open', { fullPage: false });

    await openFromSidebar(page, 'Monitoring', 'Server status');
    await expectPath(page, '/monitor/server');
    await page.locator('.drawer-bg').waitFor({ state: 'detached' });
    await expect.poll(() => sidebarRight(page)).toBeLessThanOrEqual(0);
    await shownView(page).locator('.ant-progress').first().waitFor();
    expect(await overflow(page)).toBe(0);
    await saveScreenshot(page, 'mobile-server-monitor');

    const loginContext = await browser.newContext({ locale: 'en-US', viewport: phone });
    contexts.push(loginContext);
    const login = await loginContext.newPage();
    await login.goto(`${baseUrl}/login`);
    await login.locator('input[name=code]').waitFor({ state: 'detached' });
    expect(await overflow(login)).toBe(0);
    const card = await login.locator('.login-card').boundingBox();
    expect(card?.x).toBeGreaterThanOrEqual(0);
    expect((card?.x ?? 0) + (card?.width ?? Infinity)).toBeLessThanOrEqual(phone.width);
    expect((await login.locator('button[type=submit]').boundingBox())?.width).toBeGreaterThan(200);
    await saveScreenshot(login, 'mobile-login');
  });
});
