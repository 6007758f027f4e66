import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { launchBrowser, saveScreenshot } from './browser.js';

const baseUrl = inject('baseUrl');

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

  it('serves the app at / and sends / on to /home', async () => {
    // The redirects happen inside the page (history API); record each one as it happens.
    await page.addInitScript(() => {
      const hops: string[] = [];
      Object.assign(window, { hops });
      for (const method of ['pushState', 'replaceState'] as const) {
        const original = history[method].bind(history);
        history[method] = (...args: Parameters<History['pushState']>) => {
          original(...args);
          hops.push(location.pathname);
        };
      }
    });
    const response = await page.goto(`${baseUrl}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('no-cache');
    // The router first re-stamps the entry it starts on; the first hop away from / must be /home.
    const firstHopAway = () =>
      page.evaluate(() => (window as unknown as { hops: string[] }).hops.find((path) => path !== '/'));
    await expect.poll(firstHopAway).toBe('/home');
    expect(await page.locator('html').getAttribute('lang')).toBe('en-US');
    expect(consoleErrors).toEqual([]);
    await saveScreenshot(page, 'root');
  });

  it('shows the 404 page for an unknown path, at /404', async () => {
    await page.goto(`${baseUrl}/no/such/page?x=1`);
    await page.waitForURL(`${baseUrl}/404`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Page not found');
    await expect(page.getByRole('link', { name: 'Back to home' }).isVisible()).resolves.toBe(true);
    expect(await page.locator('main').count()).toBe(1);
    expect(consoleErrors).toEqual([]);
    await saveScreenshot(page, '404');
  });

  it('shows the 401 page, and "Go back" only once there is somewhere to go back to', async () => {
    await page.goto(`${baseUrl}/401`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('No permission');
    expect(await page.getByRole('button', { name: 'Go back' }).count()).toBe(0);
    await saveScreenshot(page, '401');

    // Home is / → /home, which is not built yet, so it ends on /404 with /401 behind it.
    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.waitForURL(`${baseUrl}/404`);
    await page.getByRole('button', { name: 'Go back' }).click();
    await page.waitForURL(`${baseUrl}/401`);
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
