import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot } from './browser.js';
import { addTokenCookie, baseUrl, collectErrors, sharedAdminToken, waitForShell } from './session.js';

/**
 * Every system page in both languages at a desktop and a phone width: lists must show everything
 * (no header cell under a pinned column, the Actions header whole, nothing wider than the page),
 * filters fold away on phones, and each state is kept as a screenshot to be looked at.
 */

type PageCase = {
  path: string;
  name: string;
  /** Shown once the page has its data. */
  ready: string;
  /** The page lists rows with an Actions column (for an administrator). */
  actions?: boolean;
  /** The page has a search bar. */
  filters?: boolean;
  /** Brings a second list onto the page (the dictionary's entries). */
  then?: (view: Locator) => Promise<void>;
};

const PAGES: readonly PageCase[] = [
  { path: '/dashboard', name: 'dashboard', ready: '.ant-progress' },
  { path: '/system/user', name: 'users', ready: '.ant-table-row', actions: true, filters: true },
  { path: '/system/role', name: 'roles', ready: '.ant-table-row', actions: true, filters: true },
  { path: '/system/menu', name: 'menus', ready: '.ant-table-row', actions: true, filters: true },
  { path: '/system/dept', name: 'depts', ready: '.ant-table-row', actions: true, filters: true },
  {
    path: '/system/dict',
    name: 'dicts',
    ready: '.ant-table-row',
    actions: true,
    filters: true,
    then: async (view) => {
      // On the name: in a compact table the second cell holds the row's actions.
      await view.locator('.ant-table-row').first().locator('td:not(.ant-table-selection-column)').first().click();
      await expect.poll(() => view.locator('.ant-table-wrapper').count()).toBe(2);
      await view.locator('.ant-table-wrapper').nth(1).locator('.ant-table-row').first().waitFor();
    },
  },
  { path: '/monitor/online', name: 'online', ready: '.ant-table-row', actions: true, filters: true },
  { path: '/monitor/logs', name: 'logs', ready: '.ant-table-row', filters: true },
  { path: '/monitor/errorLog', name: 'error-logs', ready: '.ant-table', actions: true, filters: true },
  { path: '/monitor/server', name: 'server-monitor', ready: '.ant-progress' },
  { path: '/sys-tools/storage', name: 'storage', ready: '.ant-table-row', actions: true, filters: true },
  { path: '/sys-tools/swagger', name: 'swagger', ready: 'iframe.swagger-page' },
  { path: '/user/center', name: 'user-center', ready: '.ant-tabs' },
  { path: '/user/center?tab=logs', name: 'user-center-logs', ready: '.ant-table-row', filters: true },
];

const LANGUAGES = [
  // The button's name starts with its icon's ("filter").
  { language: 'zh-CN', actions: '操作', filters: /筛选/, more: '更多操作', edit: '修改' },
  { language: 'en-US', actions: 'Actions', filters: /Filters/, more: 'More actions', edit: 'Edit' },
] as const;

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 375, height: 740 };

/**
 * What is wrong with the lists in the shown view, measured in the page: header cells under a
 * pinned column (their boxes overlap), an Actions header cut short or outside its table's visible
 * part, and a document wider than the window.
 */
async function layoutProblems(page: Page, actionsTitle: string, expectActions: boolean): Promise<string[]> {
  return page.evaluate(
    ({ actionsTitle, expectActions }) => {
      const problems: string[] = [];
      const view = document.querySelector('.app-view:not([hidden])');
      if (view === null) return ['no view is shown'];
      const tables = Array.from(view.querySelectorAll('.ant-table-wrapper')).filter((table) => table.getClientRects().length > 0);
      tables.forEach((table, index) => {
        const where = `table ${index + 1}`;
        const scroller = table.querySelector('.ant-table-content, .ant-table-body') ?? table;
        const visible = scroller.getBoundingClientRect();
        const cells = Array.from(table.querySelectorAll<HTMLElement>('thead th'))
          .filter((th) => th.getBoundingClientRect().width > 0)
          .map((th) => ({
            th,
            text: th.textContent?.trim() || `(${th.className.includes('selection') ? 'selection' : 'empty'} column)`,
            box: th.getBoundingClientRect(),
            fixed: th.classList.contains('ant-table-cell-fix'),
          }));
        for (const pinned of cells.filter((cell) => cell.fixed)) {
          for (const other of cells) {
            if (other === pinned) continue;
            const overlap = Math.min(pinned.box.right, other.box.right) - Math.max(pinned.box.left, other.box.left);
            if (overlap > 1) problems.push(`${where}: "${other.text}" lies ${Math.round(overlap)} px under the pinned "${pinned.text}"`);
          }
        }
        const actions = cells.find((cell) => cell.text === actionsTitle);
        if (actions === undefined) {
          if (expectActions && index === 0) problems.push(`${where}: no "${actionsTitle}" column`);
          return;
        }
        if (actions.th.scrollWidth > actions.th.clientWidth) {
          problems.push(`${where}: the "${actionsTitle}" header is cut (${actions.th.scrollWidth} > ${actions.th.clientWidth})`);
        }
        if (actions.box.left < visible.left - 1 || actions.box.right > visible.right + 1) {
          problems.push(
            `${where}: the "${actionsTitle}" header (${Math.round(actions.box.left)}–${Math.round(actions.box.right)}) is outside the table's visible part (${Math.round(visible.left)}–${Math.round(visible.right)})`,
          );
        }
      });
      const overflow = document.documentElement.scrollWidth - document.documentElement.clientWidth;
      if (overflow > 0) problems.push(`the page is ${overflow} px wider than the window`);
      return problems;
    },
    { actionsTitle, expectActions },
  );
}

/** The page's data is in: its marker is showing and nothing is loading any more. */
async function settle(page: Page, view: Locator, ready: string): Promise<void> {
  await view.locator(ready).first().waitFor({ timeout: 20_000 });
  if (ready.startsWith('iframe')) await view.frameLocator('iframe').locator('.opblock').first().waitFor({ timeout: 20_000 });
  await expect.poll(() => view.locator('.ant-spin-spinning, .ant-skeleton-active').count(), { timeout: 20_000 }).toBe(0);
  await page.evaluate(() => document.fonts.ready);
}

/**
 * The whole page, taken by growing the window to the page's height first: Chromium's own full-page
 * capture resizes the page in a way the app takes for a phone, and it folds the sidebar for good.
 */
async function shoot(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize() ?? DESKTOP;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height });
  await saveScreenshot(page, name, { fullPage: false });
  if (height > viewport.height) await page.setViewportSize(viewport);
}

describe('journeys: every system page fits at 1440 and 375 px, in both languages', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
    // A stored file, so the storage list has a row (and a link) to measure.
    const form = new FormData();
    form.append('file', new Blob(['notes for the fit journey\n'], { type: 'text/plain' }), 'fit-notes.txt');
    const upload = await fetch(`${baseUrl}/api/localStorage?name=fit-notes`, {
      method: 'POST',
      headers: { authorization: sharedAdminToken },
      body: form,
    });
    if (!upload.ok) throw new Error(`the upload answered ${upload.status}: ${await upload.text()}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openContext(language: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ locale: language, viewport: DESKTOP });
    await addTokenCookie(context, sharedAdminToken);
    // The language the top bar's globe would choose, remembered the way the app remembers it.
    await context.addCookies([{ name: 'language', value: language, url: baseUrl, sameSite: 'Lax' }]);
    const page = await context.newPage();
    return { context, page, errors: collectErrors(page) };
  }

  describe.each(LANGUAGES)('$language', ({ language, actions, filters, more, edit }) => {
    let context: BrowserContext;
    let page: Page;
    let errors: string[];

    beforeAll(async () => {
      ({ context, page, errors } = await openContext(language));
    });
    afterAll(async () => {
      await context?.close();
    });

    it.each([
      { width: DESKTOP.width, viewport: DESKTOP },
      { width: PHONE.width, viewport: PHONE },
    ])('at $width px: nothing covered, cut or overflowing; filters fold on phones', { timeout: 180_000 }, async ({ width, viewport }) => {
      await page.setViewportSize(viewport);
      const phone = width < 992;
      const problems: string[] = [];
      for (const entry of PAGES) {
        await page.goto(`${baseUrl}${entry.path}`);
        await waitForShell(page);
        const view = page.locator('.app-view:not([hidden])');
        await settle(page, view, entry.ready);
        await entry.then?.(view);
        const shot = `${language}-${width}-${entry.name}`;
        await shoot(page, shot);
        problems.push(...(await layoutProblems(page, actions, entry.actions ?? false)).map((problem) => `${shot}: ${problem}`));

        if (!entry.filters) continue;
        const bars = view.locator('.search-bar');
        const toggles = view.getByRole('button', { name: filters });
        const firstField = bars.first().locator('input').first();
        if (!phone) {
          if ((await toggles.count()) !== 0) problems.push(`${shot}: a filter toggle on a desktop`);
          if (!(await firstField.isVisible())) problems.push(`${shot}: the filters are hidden on a desktop`);
          continue;
        }
        if ((await toggles.count()) !== (await bars.count())) {
          problems.push(`${shot}: ${await bars.count()} search bars but ${await toggles.count()} filter toggles`);
          continue;
        }
        if (await firstField.isVisible()) problems.push(`${shot}: the filters are open at first on a phone`);
        const toggle = toggles.first();
        if ((await toggle.getAttribute('aria-expanded')) !== 'false') problems.push(`${shot}: the toggle does not say it is closed`);
        await toggle.click();
        if (!(await firstField.isVisible())) problems.push(`${shot}: the toggle does not open the filters`);
        if ((await toggle.getAttribute('aria-expanded')) !== 'true') problems.push(`${shot}: the toggle does not say it is open`);
        await shoot(page, `${shot}-filters-open`);
        problems.push(...(await layoutProblems(page, actions, entry.actions ?? false)).map((problem) => `${shot}-filters-open: ${problem}`));
      }
      expect(problems).toEqual([]);
      expect(errors).toEqual([]);
    });

    it('on a phone, the toggle counts the filters in use and the search keeps working', async () => {
      await page.setViewportSize(PHONE);
      await page.goto(`${baseUrl}/system/user`);
      await waitForShell(page);
      const view = page.locator('.app-view:not([hidden])');
      await settle(page, view, '.ant-table-row');
      const toggle = view.getByRole('button', { name: filters });
      expect(await toggle.innerText()).not.toMatch(/\d/);
      await toggle.click();
      const blurry = view.locator('.search-bar input').first();
      await blurry.fill('learner');
      await blurry.press('Enter');
      await expect.poll(() => view.locator('.ant-table-row').count()).toBe(3);
      expect((await toggle.innerText()).replace(/\s/g, '')).toMatch(/\(1\)$/);
      await toggle.click();
      expect(await blurry.isVisible()).toBe(false);
      expect((await toggle.innerText()).replace(/\s/g, '')).toMatch(/\(1\)$/);
      await shoot(page, `${language}-375-users-one-filter`);

      // The row's actions, folded next to its name, open in place.
      const fold = view.locator('.ant-table-row').first().getByRole('button', { name: more });
      await fold.click();
      const folded = page.locator('.row-actions-folded');
      await folded.getByRole('button', { name: edit }).waitFor();
      expect(await fold.getAttribute('aria-expanded')).toBe('true');
      await shoot(page, `${language}-375-users-row-actions`);
      await fold.click();
      await folded.waitFor({ state: 'hidden' });
      expect(errors).toEqual([]);
    });
  });
});
