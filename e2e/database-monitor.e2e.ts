import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot } from './browser.js';
import { apiLogin, baseUrl, englishContext, openPopconfirm, sharedAdminToken, waitForShell } from './session.js';

/**
 * Issue 16, part 4: the database monitor at eladmin's address of Druid's, `/druid/index.html`.
 * A signed-in administrator's browser opens it straight from the address bar (the server checks
 * the token cookie and `monitor:list` before it sends the page), sees the statements the server
 * counted with their parameters masked, and resets the counters; a learner's browser is refused
 * at the door. At 1366 and 375 px.
 */

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 375, height: 740 };

describe('database monitor', () => {
  let browser: Browser;
  let contexts: BrowserContext[] = [];

  async function open(viewport: { width: number; height: number }, token: string): Promise<Page> {
    const context = await englishContext(browser, token, { viewport });
    contexts.push(context);
    return context.newPage();
  }

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    contexts = [];
    await browser?.close();
  });

  it('opens at /druid/index.html for the administrator, shows the statements masked, and resets them', async () => {
    const page = await open(DESKTOP, sharedAdminToken);
    const response = await page.goto(`${baseUrl}/druid/index.html`);
    expect(response?.status()).toBe(200);
    await waitForShell(page);
    const view = page.locator('.database-monitor-page');
    await view.locator('.ant-table-row').first().waitFor();
    await expect.poll(() => view.getByText('SQLite', { exact: true }).or(view.getByText('PostgreSQL', { exact: true })).count()).toBeGreaterThan(0);
    // Parameters are shown by kind and length only (the session check's token as text(n)), never as values.
    await expect.poll(() => view.getByText(/text\(\d+\)/).count()).toBeGreaterThan(0);
    expect(await view.textContent()).not.toContain(sharedAdminToken.replace(/^Bearer /, ''));
    await saveScreenshot(page, 'database-monitor-1366');

    await view.getByRole('button', { name: 'Reset counters' }).click();
    await openPopconfirm(page).getByRole('button', { name: /^ok$/i }).click();
    await page.getByText('Counters reset').waitFor();
  });

  it('fits a phone', async () => {
    const page = await open(PHONE, sharedAdminToken);
    await page.goto(`${baseUrl}/druid/index.html`);
    await page.locator('.database-monitor-page .ant-table-row').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'database-monitor-375');
  });

  it('is refused to a learner before any page is sent', async () => {
    const learner = await apiLogin('learner1');
    const response = await fetch(`${baseUrl}/druid/index.html`, { headers: { cookie: `TW-PLATFORM-TOEKN=${encodeURIComponent(learner)}` } });
    expect(response.status).toBe(403);
    expect((await fetch(`${baseUrl}/druid/index.html`)).status).toBe(401);
  });
});
