import type { Browser, BrowserContext, BrowserContextOptions, Cookie, Locator, Page } from 'playwright-core';
import { expect, inject } from 'vitest';

/** The cookie names are part of the contract with eladmin's clients, spelling mistake included. */
export const TOKEN_COOKIE = 'TW-PLATFORM-TOEKN';
export const POINT_COOKIE = 'point';

export const baseUrl = inject('baseUrl');
export const accountPassword = inject('accountPassword');
/** Shared by the journeys that never end their session (see global-setup). */
export const sharedAdminToken = inject('adminToken');

export type Account = 'admin' | 'teacher' | 'learner1' | 'learner2' | 'learner3';

/**
 * Signs in through the API, as a script would. The server allows 30 login attempts a minute from
 * one address, and every journey runs from 127.0.0.1, so journeys that are not about the login
 * form share a token where they can.
 */
export async function apiLogin(username: Account = 'admin'): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: accountPassword }),
  });
  if (!response.ok) throw new Error(`login as ${username} answered ${response.status}: ${await response.text()}`);
  const { token } = (await response.json()) as { token: string };
  return token;
}

/** What the login page does with the token: js-cookie stores it URI-encoded ('Bearer%20…'). */
export async function addTokenCookie(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([{ name: TOKEN_COOKIE, value: encodeURIComponent(token), url: baseUrl, sameSite: 'Strict' }]);
}

export async function cookieNamed(context: BrowserContext, name: string): Promise<Cookie | undefined> {
  return (await context.cookies(baseUrl)).find((cookie) => cookie.name === name);
}

/** Fills and submits the login form (the captcha is off in this run, so the form has no code field). */
export async function fillLogin(page: Page, username: string, password: string, rememberMe = false): Promise<void> {
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  if (rememberMe) await page.locator('.login-remember input[type=checkbox]').check();
  await page.locator('button[type=submit]').click();
}

export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** Waits for an in-page (history API) navigation to reach this path and query. */
export async function expectPath(page: Page, path: string): Promise<void> {
  await expect.poll(() => pathOf(page), { timeout: 10_000 }).toBe(path);
}

/**
 * Class names antd's motions (rc-motion) give an element while it appears or enters. A click
 * during an opening animation can land beside the moving target and do nothing (a loaded CI
 * machine met this with a confirm and a dropdown), so the overlays below are found only once
 * their opening is over. A leaving dialog or drawer still matches, so waiting for it to be hidden
 * waits its whole exit out.
 */
const OPENED = ':not([class*="-appear"]):not([class*="-enter"])';
// antd keeps a closed dialog or drawer in the page, hidden: only a visible one is "open".
const VISIBLE = { visible: true } as const;

/** The dropdown menu open on the page, once it has finished sliding in and while it is not sliding out. */
export function openDropdown(page: Page): Locator {
  return page.locator(`.ant-dropdown:not(.ant-dropdown-hidden)${OPENED}:not([class*="-leave"])`);
}

/** An antd Select's (or TreeSelect's) dropdown, once it has finished sliding in and while it is not sliding out. */
export function openSelectDropdown(page: Page): Locator {
  return page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden)${OPENED}:not([class*="-leave"])`);
}

/**
 * The options of the open Select holding `text` (all of them without), found only once the
 * dropdown has settled: a click while it slides in lands on whichever option is passing by
 * (a loaded CI machine chose "Windows" for "All platforms").
 */
export function selectOption(page: Page, text?: string | RegExp): Locator {
  const options = openSelectDropdown(page).locator('.ant-select-item-option');
  return text === undefined ? options : options.filter({ hasText: text });
}

/** Clicks an item of the dropdown menu just opened, once the menu has finished sliding in. */
export async function chooseMenuItem(page: Page, name: string): Promise<void> {
  const menu = openDropdown(page).filter({ has: page.getByRole('menuitem', { name }) });
  await menu.waitFor();
  await menu.getByRole('menuitem', { name }).click();
}

/** An antd dialog (a Modal, a confirm among them), holding `text` when given, once its opening zoom is over. */
export function openDialog(page: Page, text?: string | RegExp): Locator {
  const dialog = page.locator(`.ant-modal${OPENED}`).filter(VISIBLE);
  return text === undefined ? dialog : dialog.filter({ hasText: text });
}

/** antd's confirm dialog holding `text`, once its opening zoom is over. */
export function confirmDialog(page: Page, text: string | RegExp): Locator {
  return page.locator(`.ant-modal-confirm${OPENED}`).filter({ ...VISIBLE, hasText: text });
}

/** antd's Popconfirm open on the page, once its zoom is over and while it is not closing. */
export function openPopconfirm(page: Page): Locator {
  return page.locator(`.ant-popconfirm:not(.ant-popover-hidden)${OPENED}:not([class*="-leave"])`);
}

/** antd's drawer, once its panel has finished sliding in. */
export function openDrawer(page: Page): Locator {
  return page.locator(`.ant-drawer-content-wrapper${OPENED}`).filter(VISIBLE);
}

/**
 * antd's message holding `text`. Found by its text, never as "the" message: an earlier one may
 * still be fading out beside it.
 */
export function messageNotice(page: Page, text: string | RegExp): Locator {
  return page.locator('.ant-message-notice').filter({ hasText: text });
}

/** The back office has drawn its frame (menu loaded) and the page's tab is there. */
export async function waitForShell(page: Page): Promise<void> {
  await page.locator('.sidebar-container .ant-menu-root').waitFor();
  await page.locator('.tags-view-item.active').waitFor();
}

/** Console errors and uncaught exceptions of a page, for journeys that expect none. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/**
 * Records every path (with its query) the page's router moves to through the history API, from
 * the next document on, so redirects that pass through a path on their way are visible.
 */
export async function recordHops(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const hops: string[] = [];
    Object.assign(window, { hops });
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method].bind(history);
      history[method] = (...args: Parameters<History['pushState']>) => {
        original(...args);
        hops.push(`${location.pathname}${location.search}`);
      };
    }
  });
  return () => page.evaluate(() => (window as unknown as { hops?: string[] }).hops ?? []);
}

/**
 * Opens a page from the sidebar: unfolds the directory when its item is not showing yet, lets the
 * unfolding finish (a click during antd's collapse motion can land between items), then clicks.
 */
export async function openFromSidebar(page: Page, directory: string, item: string): Promise<void> {
  const sidebar = page.locator('.sidebar-container');
  const entry = sidebar.locator('.ant-menu-item').filter({ hasText: new RegExp(`^${item}$`) });
  const settled = () => expect.poll(() => sidebar.locator('[class*="ant-motion-collapse"]').count()).toBe(0);
  // With unique-opened, the route change before this may still be folding the section away, and
  // on a loaded machine it can fold the section again just after we unfolded it: then unfold again.
  for (let attempt = 1; ; attempt += 1) {
    await settled();
    if (!(await entry.isVisible())) await sidebar.locator('.ant-menu-submenu-title').filter({ hasText: new RegExp(`^${directory}$`) }).click();
    await entry.waitFor();
    await settled();
    try {
      await entry.click({ timeout: attempt < 3 ? 5_000 : 30_000 });
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  // The router keeps the old page until the new one's chunk is in; the item is selected once the
  // new route has rendered, so the next step never races a late route change.
  await expect.poll(() => entry.getAttribute('class'), { timeout: 20_000 }).toContain('ant-menu-item-selected');
}

export type ApiCallOptions = {
  /** Sent as the request's user agent: an exam attempt is held by the device (browser) that started it. */
  userAgent?: string | undefined;
};

/** Calls the API as a script would, with a session's token or none; anything but a 2xx throws with the answer. */
export async function api<T>(token: string | undefined, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, options: ApiCallOptions = {}): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: token }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.userAgent === undefined ? {} : { 'user-agent': options.userAgent }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

export type RunLearner = { username: string; nickName: string; password: string; token: string };

/**
 * A learner of this run only, made through the admin API in the demo department `deptName` and
 * signed in: the demo learners are enrolled by the seed and used by other journeys.
 */
export async function createLearner(username: string, nickName: string, deptName: string): Promise<RunLearner> {
  const dept = (await api<{ content: { id: number; name: string }[] }>(sharedAdminToken, 'GET', `/api/dept?name=${encodeURIComponent(deptName)}`)).content.find(
    (one) => one.name === deptName,
  );
  const role = (await api<{ id: number; name: string }[]>(sharedAdminToken, 'GET', '/api/roles/all')).find((one) => one.name === 'learner');
  if (dept === undefined || role === undefined) throw new Error(`the demo department ${deptName} or the role learner is missing`);
  const { password } = await api<{ password: string }>(sharedAdminToken, 'POST', '/api/users', {
    username,
    nickName,
    gender: null,
    phone: null,
    email: null,
    enabled: true,
    dept: { id: dept.id },
    roles: [{ id: role.id }],
  });
  const { token } = await api<{ token: string }>(undefined, 'POST', '/auth/login', { username, password });
  return { username, nickName, password, token };
}

/** A context in English (the browser's locale and the `language` cookie), signed in with `token` when one is given. */
export async function englishContext(browser: Browser, token: string | undefined, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'en-US', ...options });
  if (token !== undefined) await addTokenCookie(context, token);
  await context.addCookies([{ name: 'language', value: 'en-US', url: baseUrl, sameSite: 'Lax' }]);
  return context;
}
