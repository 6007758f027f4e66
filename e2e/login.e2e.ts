import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectConsoleMessage, launchBrowser, saveScreenshot } from './browser.js';
import { accountPassword, addTokenCookie, apiLogin, baseUrl, confirmDialog, cookieNamed, expectPath, fillLogin, POINT_COOKIE, recordHops, TOKEN_COOKIE, waitForShell } from './session.js';

const DAY_S = 24 * 60 * 60;

describe('journeys: signing in and out', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function newPage(locale: 'en-US' | 'zh-CN' = 'en-US', token?: string): Promise<Page> {
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    if (token !== undefined) await addTokenCookie(context, token);
    return context.newPage();
  }

  /** The login form once it knows the captcha is off (until `auth/code` answers it shows the field). */
  async function loginFormReady(page: Page): Promise<void> {
    await page.locator('input[name=username]').waitFor();
    await page.locator('input[name=code]').waitFor({ state: 'detached' });
  }

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('keeps a wrong password on /login, brings a deep link back after the login, and remember me keeps the token a day', async () => {
    const page = await newPage();
    await page.goto(`${baseUrl}/system/user`);
    await expectPath(page, '/login?redirect=%2Fsystem%2Fuser');
    await loginFormReady(page);
    await saveScreenshot(page, 'login');

    // Chromium logs every 4xx answer to a request; this one is the wrong password the journey types.
    expectConsoleMessage(page, /^console\.error: Failed to load resource: .* 400 \(Bad Request\) \(http:[^ ]+\/auth\/login:1\)$/, 'the wrong password answers 400');
    await fillLogin(page, 'admin', 'not-the-password');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('username or password is wrong');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await cookieNamed(page.context(), TOKEN_COOKIE)).toBeUndefined();
    await saveScreenshot(page, 'login-wrong-password');

    await fillLogin(page, 'admin', accountPassword, true);
    await expectPath(page, '/system/user');
    await waitForShell(page);
    const token = await cookieNamed(page.context(), TOKEN_COOKIE);
    expect(decodeURIComponent(token?.value ?? '')).toMatch(/^Bearer \S+$/);
    // js-cookie's `expires: 1`: one day from the login, give or take the test's own time.
    expect(token?.expires).toBeGreaterThan(Date.now() / 1000 + DAY_S - 120);
    expect(token?.expires).toBeLessThan(Date.now() / 1000 + DAY_S + 120);

    // Signed in, the login page has nothing to offer: it sends the visitor to /, which is /home.
    const hops = await recordHops(page);
    await page.goto(`${baseUrl}/login`);
    await expectPath(page, '/home');
    expect(await hops()).toContain('/');
    expect((await hops()).indexOf('/')).toBeLessThan((await hops()).indexOf('/home'));
    await page.getByRole('main').getByRole('link', { name: 'Open the back office' }).waitFor();
  });

  it('opening / and signing in as admin lands on /home, whose back-office card opens the dashboard', async () => {
    const page = await newPage();
    await page.goto(`${baseUrl}/`);
    await expectPath(page, '/login?redirect=%2F');
    await loginFormReady(page);
    await fillLogin(page, 'admin', accountPassword);
    await expectPath(page, '/home');
    const backOffice = page.getByRole('main').getByRole('link', { name: 'Open the back office' });
    await backOffice.waitFor();
    await saveScreenshot(page, 'home-admin');
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await backOffice.isVisible()).toBe(true);
    await saveScreenshot(page, 'home-admin-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await backOffice.click();
    await expectPath(page, '/dashboard');
    await waitForShell(page);
  });

  it("the home page asks before logging out in the product's own dialog: cancel keeps the session, confirm ends it", async () => {
    const token = await apiLogin('learner2');
    const page = await newPage('zh-CN', token);
    await page.goto(`${baseUrl}/home`);
    // Logging out is in the avatar's menu of the learner shell.
    const logout = {
      click: async () => {
        await page.getByRole('button', { name: /的账户菜单$/ }).click();
        await page.getByRole('menuitem', { name: '退出登录' }).click();
      },
    };
    await logout.click();
    const dialog = page.getByRole('dialog', { name: '提示' });
    await dialog.waitFor();
    expect(await dialog.getByText('确定注销并退出系统吗？').isVisible()).toBe(true);
    await saveScreenshot(page, 'home-logout-confirm', { fullPage: false });

    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await cookieNamed(page.context(), TOKEN_COOKIE)).toBeDefined();
    expect((await fetch(`${baseUrl}/auth/info`, { headers: { authorization: token } })).status).toBe(200);

    await logout.click();
    await dialog.getByRole('button', { name: '确定' }).click();
    await expectPath(page, '/login');
    await page.locator('input[name=username]').waitFor();
    expect(await cookieNamed(page.context(), TOKEN_COOKIE)).toBeUndefined();
    expect((await fetch(`${baseUrl}/auth/info`, { headers: { authorization: token } })).status).toBe(401);
  });

  it('without remember me, the token is a session cookie and the admin lands on the dashboard', async () => {
    const page = await newPage();
    await page.goto(`${baseUrl}/login`);
    await loginFormReady(page);
    await fillLogin(page, 'admin', accountPassword);
    await expectPath(page, '/dashboard');
    await waitForShell(page);
    const token = await cookieNamed(page.context(), TOKEN_COOKIE);
    expect(token?.value).toMatch(/^Bearer/);
    expect(token?.expires).toBe(-1);
    expect(token?.sameSite).toBe('Strict');
    await page.locator('.app-view:not([hidden])').first().waitFor();
    await page.waitForLoadState('networkidle');
    await saveScreenshot(page, 'dashboard');
  });

  it('asks before logging out: cancel keeps the session, confirm ends it on the server too', async () => {
    const token = await apiLogin('admin');
    const page = await newPage('zh-CN', token);
    await page.goto(`${baseUrl}/dashboard`);
    await waitForShell(page);

    const logoutConfirm = confirmDialog(page, '确定注销并退出系统吗？');
    const openLogout = async () => {
      // On a loaded machine a click can land while the dropdown is still opening and go nowhere:
      // try again rather than wait out the test's time.
      for (let attempt = 1; ; attempt += 1) {
        if (!(await page.getByRole('menuitem', { name: '退出登录' }).isVisible())) await page.locator('.avatar-button').click();
        await page.getByRole('menuitem', { name: '退出登录' }).click();
        try {
          await logoutConfirm.waitFor({ timeout: 5_000 });
          return;
        } catch (error) {
          if (attempt === 3) throw error;
        }
      }
    };
    await openLogout();
    expect(await logoutConfirm.locator('.ant-modal-confirm-title').textContent()).toBe('提示');
    expect(await logoutConfirm.locator('.ant-modal-confirm-content').textContent()).toBe('确定注销并退出系统吗？');
    await saveScreenshot(page, 'logout-confirm', { fullPage: false });

    // antd spaces out two-character Chinese button labels ("取 消").
    await logoutConfirm.getByRole('button', { name: /^取\s*消$/ }).click();
    await page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await cookieNamed(page.context(), TOKEN_COOKIE)).toBeDefined();

    await openLogout();
    await logoutConfirm.getByRole('button', { name: /^确\s*定$/ }).click();
    await expectPath(page, '/login?redirect=%2Fdashboard');
    await page.locator('input[name=username]').waitFor();
    expect(await cookieNamed(page.context(), TOKEN_COOKIE)).toBeUndefined();
    const info = await fetch(`${baseUrl}/auth/info`, { headers: { authorization: token } });
    expect(info.status).toBe(401);
  });

  it('a session ended elsewhere sends the next API call to /login with the "session expired" notice', async () => {
    const token = await apiLogin('admin');
    const page = await newPage('en-US', token);
    // A page that does not poll (the dashboard does), so the journey decides which call meets the 401;
    // the navbar's notification bell loads its list once on opening: let it answer first.
    const bellLoaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/site/notifications');
    await page.goto(`${baseUrl}/user/center`);
    await waitForShell(page);
    expect((await bellLoaded).status()).toBe(200);

    // The reload the 401 handler does carries its note for the login page in the `point` cookie,
    // which the login page deletes as soon as it has read it: catch it on the way out.
    const reloads: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) void request.allHeaders().then((headers) => reloads.push(headers.cookie ?? ''));
    });
    // The 401 is the point of the journey; Chromium logs it as a failed resource load.
    expectConsoleMessage(page, /^console\.error: Failed to load resource: .* 401 \(Unauthorized\) \(http:[^ ]+\/api\/monitor:1\)$/, 'the ended session answers 401');
    const ended = await page.request.delete(`${baseUrl}/auth/logout`, { headers: { authorization: token } });
    expect(ended.status()).toBe(200);

    // Opening a page that loads data: its first request answers 401.
    await page.locator('.sidebar-container').getByText('Monitoring', { exact: true }).click();
    // Clicked while the submenu still unfolds, the item was missed once on a loaded machine (no
    // navigation followed): click it once the submenu has settled.
    await page
      .locator('.sidebar-container .ant-menu-sub:not([class*="motion"])')
      .getByText('Server status', { exact: true })
      .click();
    await expectPath(page, '/login?redirect=%2Fmonitor%2Fserver');
    await expect.poll(() => page.getByRole('status').textContent()).toBe('your session has expired, please log in again');
    expect(reloads.some((cookies) => cookies.includes(`${POINT_COOKIE}=401`) && !cookies.includes(TOKEN_COOKIE))).toBe(true);
    expect(await cookieNamed(page.context(), TOKEN_COOKIE)).toBeUndefined();
    // The login page deletes it in an effect, which may run just after the notice is painted.
    await expect.poll(() => cookieNamed(page.context(), POINT_COOKIE)).toBeUndefined();
    await saveScreenshot(page, 'login-session-expired');
  });

  it('opening the app with a session ended elsewhere reloads once, with the point cookie, to the notice', async () => {
    const token = await apiLogin('admin');
    const page = await newPage('en-US', token);
    const reloads: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) void request.allHeaders().then((headers) => reloads.push(headers.cookie ?? ''));
    });
    expect((await page.request.delete(`${baseUrl}/auth/logout`, { headers: { authorization: token } })).status()).toBe(200);
    // The 401 on the user info is the point of the journey; Chromium logs it as a failed resource load.
    expectConsoleMessage(page, /^console\.error: Failed to load resource: .* 401 \(Unauthorized\) \(http:[^ ]+\/auth\/info:1\)$/, 'the ended session answers 401');

    await page.goto(`${baseUrl}/dashboard`);
    await expectPath(page, '/login?redirect=%2Fdashboard');
    await expect.poll(() => page.getByRole('status').textContent()).toBe('your session has expired, please log in again');
    // The first navigation is the visit itself; the 401 on the user info reloads once, with its note.
    expect(reloads).toHaveLength(2);
    expect(reloads[1]).toContain(`${POINT_COOKIE}=401`);
    expect(reloads[1]).not.toContain(TOKEN_COOKIE);
  });

  it('an API call answered 403 shows /401, and "Go back" returns to the page', async () => {
    const page = await newPage('en-US', await apiLogin('admin'));
    // Not the dashboard: its server figures come from the same `api/monitor`.
    await page.goto(`${baseUrl}/user/center`);
    await waitForShell(page);
    await page.route('**/api/monitor', (route) => route.fulfill({ status: 403, json: { status: 403, message: 'forbidden' } }));
    // The 403 the journey stubs in; Chromium logs it as a failed resource load.
    expectConsoleMessage(page, /^console\.error: Failed to load resource: .* 403 \(Forbidden\) \(http:[^ ]+\/api\/monitor:1\)$/, 'the stubbed 403');

    await page.locator('.sidebar-container').getByText('Monitoring', { exact: true }).click();
    await page.locator('.sidebar-container').getByText('Server status', { exact: true }).click();
    await expectPath(page, '/401');
    // The router shows the layout until the status page's chunk is in.
    await page.getByRole('heading', { level: 1, name: 'No permission' }).waitFor();
    expect(await cookieNamed(page.context(), TOKEN_COOKIE)).toBeDefined();
    await saveScreenshot(page, 'forbidden-401');

    await page.unroute('**/api/monitor');
    await page.getByRole('button', { name: 'Go back' }).click();
    await expectPath(page, '/monitor/server');
    await page.locator('.server-monitor-page .ant-progress').first().waitFor();
  });

  it('a learner lands on /home and every back-office path answers /401', async () => {
    const page = await newPage();
    await page.goto(`${baseUrl}/login`);
    await loginFormReady(page);
    await fillLogin(page, 'learner1', accountPassword);
    await expectPath(page, '/home');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome, 李明');
    expect(await page.getByRole('link', { name: /back office/i }).count()).toBe(0);
    expect(await page.locator('.sidebar-container, .ant-menu').count()).toBe(0);
    await saveScreenshot(page, 'learner-home');

    for (const path of ['/dashboard', '/system/user', '/monitor/server']) {
      await page.goto(`${baseUrl}${path}`);
      await expectPath(page, '/401');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('No permission');
      expect(await page.locator('.sidebar-container, .ant-menu').count()).toBe(0);
    }
    await saveScreenshot(page, 'learner-401');
    // An address that is nobody's is not found, for a learner as for staff.
    await page.goto(`${baseUrl}/nonexistent-page`);
    await expectPath(page, '/404');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
  });
});
