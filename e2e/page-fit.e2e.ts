import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot } from './browser.js';
import { addTokenCookie, baseUrl, chooseMenuItem, collectErrors, openDrawer, sharedAdminToken, waitForShell } from './session.js';

/**
 * Every system page in both languages at a desktop and a phone width: lists must show everything
 * (no header cell under a pinned column, the Actions header whole, nothing wider than the page),
 * filters fold away on phones, and each state is kept as a screenshot to be looked at.
 */

type PageCase = {
  /** A function where the address names a record the run made (the demo lesson). */
  path: string | (() => string);
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

/** The demo catalogue's first course and its first lesson (a video), found in beforeAll. */
const DEMO_COURSE = '消防安全基础';
const demo = { courseId: 0, lessonId: 0 };

const PAGES: readonly PageCase[] = [
  { path: '/dashboard', name: 'dashboard', ready: '.usage-bar' },
  { path: '/course/course', name: 'courses', ready: '.ant-table-row', actions: true, filters: true },
  { path: '/course/category', name: 'course-categories', ready: '.ant-table-row', actions: true, filters: true },
  // These two work on the course chosen in the course list (the demo course, see openContext).
  { path: '/course/term/index', name: 'course-terms', ready: '.ant-table-row', actions: true, filters: true },
  { path: '/course/term/outline', name: 'course-outline', ready: '.outline-board__lesson' },
  { path: () => `/edu/edit-lesson?id=${demo.lessonId}`, name: 'lesson-edit', ready: '.lesson-preview video' },
  { path: '/course/census', name: 'census', ready: '.ant-table-row', filters: true },
  // Empty lists until the demo seed issues certificates: their rows' actions are not measured yet.
  { path: '/cert/certificate', name: 'certificates', ready: '.ant-table', filters: true },
  { path: '/cert/template', name: 'cert-templates', ready: '.ant-table', filters: true },
  { path: '/edu/edit-cert', name: 'cert-edit', ready: '.cert-editor__page' },
  { path: '/edu/applicant-cert', name: 'cert-issue', ready: '.cert-issue' },
  { path: '/edu/import-cert', name: 'cert-import', ready: '.spreadsheet-import' },
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
  { path: '/monitor/druid', name: 'database-monitor', ready: '.database-monitor-page .ant-table-row' },
  { path: '/sys-tools/storage', name: 'storage', ready: '.ant-table-row', actions: true, filters: true },
  // The demo's user guide is its first row on a fresh install.
  { path: '/sys-tools/deploy', name: 'installation-media', ready: '.ant-table-row', actions: true, filters: true },
  { path: '/sys-tools/database', name: 'database-backups', ready: '.backup-status' },
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
const THEME_GREEN = '#11a983';

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
      // The breadcrumb's last item names the page: it may be shortened with an ellipsis, never cut.
      const crumbs = Array.from(document.querySelectorAll<HTMLElement>('.app-breadcrumb li')).filter((item) => item.getClientRects().length > 0);
      const bar = document.querySelector('.app-breadcrumb')?.getBoundingClientRect();
      const last = crumbs.at(-1)?.getBoundingClientRect();
      if (bar !== undefined && last !== undefined && last.right > bar.right + 1) {
        problems.push(`the breadcrumb's last item ends ${Math.round(last.right - bar.right)} px past the bar`);
      }
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
  const pageHeight = () => page.evaluate(() => document.documentElement.scrollHeight);
  const height = await pageHeight();
  if (height <= viewport.height) return void (await saveScreenshot(page, name, { fullPage: false }));
  await page.setViewportSize({ width: viewport.width, height });
  // A page sized to the window (the API docs' frame) grows with it: the window is what it shows.
  if ((await pageHeight()) > height) await page.setViewportSize(viewport);
  await saveScreenshot(page, name, { fullPage: false });
  await page.setViewportSize(viewport);
}

/** Hue in degrees and saturation (0–1) of a computed `rgb(…)` colour. */
function hueOf(colour: string): { hue: number; saturation: number } {
  const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => Number(part) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const delta = max - min;
  const lightness = (max + min) / 2;
  const saturation = delta === 0 ? 0 : delta / (1 - Math.abs(2 * lightness - 1));
  let hue = 0;
  if (delta !== 0) {
    if (max === r) hue = 60 * (((g - b) / delta) % 6);
    else if (max === g) hue = 60 * ((b - r) / delta + 2);
    else hue = 60 * ((r - g) / delta + 4);
  }
  return { hue: (hue + 360) % 360, saturation };
}

async function adminGet<T>(path: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: sharedAdminToken } });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
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
    demo.courseId = (await adminGet<{ content: { id: number; title: string }[] }>(`/api/courses?q=${encodeURIComponent(DEMO_COURSE)}`)).content.find(
      (course) => course.title === DEMO_COURSE,
    )!.id;
    const outline = await adminGet<{ lessons: { id: number }[] }[]>(`/api/courses/${demo.courseId}/outline`);
    demo.lessonId = outline[0]!.lessons[0]!.id;
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openContext(language: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ locale: language, viewport: DESKTOP });
    await addTokenCookie(context, sharedAdminToken);
    // The language the top bar's globe would choose, remembered the way the app remembers it.
    await context.addCookies([{ name: 'language', value: language, url: baseUrl, sameSite: 'Lax' }]);
    // The course chosen in the course list, as the app keeps it (zustand's persisted store).
    await context.addInitScript(
      ({ origin, course }) => {
        // Only in the app's own documents: a new tab's about:blank has no storage to write.
        if (location.origin !== origin || window !== window.top) return;
        if (localStorage.getItem('selected-course') === null) localStorage.setItem('selected-course', JSON.stringify({ state: { course }, version: 0 }));
      },
      { origin: new URL(baseUrl).origin, course: { id: demo.courseId, name: DEMO_COURSE } },
    );
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
        await page.goto(`${baseUrl}${typeof entry.path === 'string' ? entry.path : entry.path()}`);
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

  it('the green theme reaches every accent: links, progress bars, tags, tabs, menu, the picked row', { timeout: 90_000 }, async () => {
    const { context, page, errors } = await openContext('en-US');
    try {
      // The dashboard's bars turn red at 90 %: a busy machine must not hide the accent colour.
      await page.route('**/api/monitor', async (route) => {
        const response = await route.fetch();
        const snapshot = (await response.json()) as { cpu: { used: string }; memory: { usageRate: string }; disk: { usageRate: string } };
        snapshot.cpu.used = '42.0';
        snapshot.memory.usageRate = '42.0';
        snapshot.disk.usageRate = '42.0';
        await route.fulfill({ response, json: snapshot });
      });
      await page.goto(`${baseUrl}/dashboard`);
      await waitForShell(page);
      await page.locator('.avatar-button').click();
      await chooseMenuItem(page, 'layout settings');
      const drawer = openDrawer(page);
      await drawer.getByRole('button', { name: THEME_GREEN }).click();
      await page.locator('.ant-drawer-mask').click({ position: { x: 400, y: 400 } });
      await drawer.getByRole('button', { name: THEME_GREEN }).waitFor({ state: 'hidden' });

      const view = page.locator('.app-view:not([hidden])');
      const colours: Record<string, string> = {};
      const read = async (name: string, target: Locator, property: 'color' | 'backgroundColor' | 'borderColor') => {
        await target.first().waitFor({ timeout: 20_000 });
        // The colour the element settles on: antd eases a bar's colour over to the new theme.
        colours[name] = await target.first().evaluate(async (element, key) => {
          await Promise.all(element.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
          return getComputedStyle(element)[key];
        }, property);
      };

      await settle(page, view, '.usage-bar');
      await read('dashboard usage bar', view.locator('.usage-bar:not(.usage-bar--high) .usage-bar__fill'), 'backgroundColor');
      await read('dashboard card link', view.locator('.ant-card-extra a'), 'color');
      await read('dashboard role tag', view.locator('.ant-card .ant-tag').filter({ hasText: 'admin' }), 'color');
      await read('active sidebar item', page.locator('.sidebar-container .ant-menu-item-selected'), 'backgroundColor');
      await read('active tab', page.locator('.tags-view-item.active'), 'backgroundColor');
      await shoot(page, 'theme-green-dashboard');

      await page.goto(`${baseUrl}/system/user`);
      await waitForShell(page);
      await settle(page, view, '.ant-table-row');
      await read('table row action link', view.locator('.ant-table-row .ant-btn-link:not(.ant-btn-dangerous)'), 'color');
      await read('pagination current page', view.locator('.ant-pagination-item-active'), 'borderColor');
      await shoot(page, 'theme-green-users');

      await page.goto(`${baseUrl}/sys-tools/storage`);
      await waitForShell(page);
      await settle(page, view, '.ant-table-row');
      await read('table file link', view.locator('.ant-table-row a.ant-typography'), 'color');

      await page.goto(`${baseUrl}/monitor/online`);
      await waitForShell(page);
      await settle(page, view, '.ant-table-row');
      await read('"you" tag in the online list', view.locator('.ant-table-row .ant-tag'), 'color');

      await page.goto(`${baseUrl}/system/dict`);
      await waitForShell(page);
      await settle(page, view, '.ant-table-row');
      // On the name: in a compact table the second cell holds the row's actions.
      await view.locator('.ant-table-row').first().locator('td:not(.ant-table-selection-column)').first().click();
      await read('picked dictionary row', view.locator('.dict-page-row-current > td').nth(1), 'backgroundColor');
      await shoot(page, 'theme-green-dicts');

      await page.goto(`${baseUrl}/user/center`);
      await waitForShell(page);
      await settle(page, view, '.ant-tabs');
      await read('personal centre active tab', view.locator('.ant-tabs-tab-active .ant-tabs-tab-btn'), 'color');
      await read('personal centre tab ink', view.locator('.ant-tabs-ink-bar'), 'backgroundColor');
      await shoot(page, 'theme-green-user-center');

      const green = hueOf('rgb(17, 169, 131)').hue;
      const offTheme = Object.entries(colours)
        .filter(([, colour]) => {
          const { hue, saturation } = hueOf(colour);
          return saturation < 0.2 || Math.abs(hue - green) > 15;
        })
        .map(([name, colour]) => `${name}: ${colour}`);
      expect(offTheme).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
