import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot } from './browser.js';
import { addTokenCookie, apiLogin, baseUrl, expectPath, recordHops } from './session.js';

describe('smoke: the built app in a real browser', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    await context?.close();
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    consoleErrors.length = 0;
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
  });

  it('serves the app at / and, signed out, sends / on to the login page', async () => {
    const hops = await recordHops(page);
    const response = await page.goto(`${baseUrl}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('no-cache');
    // The router first re-stamps the entry it starts on; the first hop away from / is the login.
    await expect.poll(async () => (await hops()).find((path) => path !== '/')).toBe('/login?redirect=%2F');
    await page.locator('input[name=username]').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('en-US');
    expect(await page.title()).toBe('login - Cloud Classroom');
    expect(consoleErrors).toEqual([]);
    await saveScreenshot(page, 'root');
  });

  it('with a session, sends / on to /home', async () => {
    await addTokenCookie(context, await apiLogin('admin'));
    await page.goto(`${baseUrl}/`);
    await expectPath(page, '/home');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(consoleErrors).toEqual([]);
  });

  it('shows the 404 page at /404, and a signed-in unknown path ends there', async () => {
    await page.goto(`${baseUrl}/404`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Page not found');
    await expect(page.getByRole('link', { name: 'Back to home' }).isVisible()).resolves.toBe(true);
    expect(await page.locator('main').count()).toBe(1);
    await saveScreenshot(page, '404');

    // Signed out, any other path is the login's business; signed in, the back office answers /404.
    await page.goto(`${baseUrl}/no/such/page?x=1`);
    await expectPath(page, '/login?redirect=%2Fno%2Fsuch%2Fpage%3Fx%3D1');
    await addTokenCookie(context, await apiLogin('admin'));
    await page.goto(`${baseUrl}/no/such/page?x=1`);
    await expectPath(page, '/404');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Page not found');
    expect(consoleErrors).toEqual([]);
  });

  it('shows the 401 page without "Go back" when opened directly; "Back to home" signed out asks for a login', async () => {
    await page.goto(`${baseUrl}/401`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('No permission');
    expect(await page.getByRole('button', { name: 'Go back' }).count()).toBe(0);
    await saveScreenshot(page, '401');

    // Home is /, which needs a session. ("Go back" with history behind it: login.e2e.ts, the 403 journey.)
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expectPath(page, '/login?redirect=%2F');
  });

  it('speaks Chinese to a Chinese browser', async () => {
    const zhContext = await browser.newContext({ locale: 'zh-CN' });
    const zhPage = await zhContext.newPage();
    await zhPage.goto(`${baseUrl}/404`);
    await expect(zhPage.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('页面不存在');
    expect(await zhPage.locator('html').getAttribute('lang')).toBe('zh-CN');
    await saveScreenshot(zhPage, '404-zh-CN');
    await zhContext.close();
  });

  it('answers an unknown API path with the JSON error shape, not the app', async () => {
    const response = await page.request.get(`${baseUrl}/api/no-such-thing`);
    expect(response.status()).toBe(404);
    expect(await response.json()).toMatchObject({ status: 404, message: expect.stringContaining('/api/no-such-thing') });
  });

  it('serves hashed assets compressed and cacheable for a year', async () => {
    await page.goto(`${baseUrl}/404`);
    const script = await page.locator('script[type="module"]').first().getAttribute('src');
    expect(script).toMatch(/^\/assets\/.+\.js$/);
    const response = await page.request.get(`${baseUrl}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(response.headers()['content-encoding']).toBe('br');
    expect(response.headers()['cache-control']).toContain('immutable');
  });
});
