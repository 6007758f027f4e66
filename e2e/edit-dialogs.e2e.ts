import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot } from './browser.js';
import { addTokenCookie, baseUrl, collectErrors, openDialog, selectOption, sharedAdminToken, waitForShell } from './session.js';

/**
 * Editing one row after another: each dialog must show the row that was clicked, and confirming
 * must send that row's values under that row's id. The shared form dialog once kept the previous
 * opening's values, and confirming would have overwritten a person with somebody else's data.
 */
describe('journeys: edit dialogs show and send the row that was clicked', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const sent: { path: string; body: unknown }[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
    await addTokenCookie(context, sharedAdminToken);
    page = await context.newPage();
    errors = collectErrors(page);
    page.on('request', (request: Request) => {
      if (request.method() === 'PUT') sent.push({ path: new URL(request.url()).pathname, body: request.postDataJSON() });
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const view = () => page.locator('.app-view:not([hidden])');
  const dialog = () => openDialog(page).filter({ has: page.locator('form') });
  const field = (label: string) => dialog().getByLabel(label, { exact: true });

  async function openEdit(rowText: string) {
    await view().locator('.ant-table-row').filter({ hasText: rowText }).first().getByRole('button', { name: /^修\s*改$/ }).click();
    await dialog().waitFor();
  }

  async function closeDialog(button: RegExp) {
    await dialog().getByRole('button', { name: button }).click();
    await dialog().waitFor({ state: 'hidden' });
  }

  it('users: learner2, cancel, learner3, cancel, admin, then confirm teacher', async () => {
    await page.goto(`${baseUrl}/system/user`);
    await waitForShell(page);
    // The demo has more people than a page of ten (the demo exam's candidates, newest first): all on one page.
    await view().locator('.ant-pagination-options .ant-select').click();
    await selectOption(page, /^20/).click();
    await view().locator('.ant-table-row').filter({ hasText: 'admin@example.com' }).waitFor();
    await view().locator('.ant-table-row').filter({ hasText: 'learner3' }).waitFor();

    for (const username of ['learner2', 'learner3', 'admin']) {
      await openEdit(username);
      await expect.poll(() => field('用户名').inputValue()).toBe(username);
      if (username === 'learner3') await saveScreenshot(page, 'edit-user-second-row', { fullPage: false });
      await closeDialog(/取\s*消/);
    }

    await openEdit('teacher');
    await expect.poll(() => field('用户名').inputValue()).toBe('teacher');
    const before = sent.length;
    await closeDialog(/确\s*定/);
    await expect.poll(() => sent.length).toBe(before + 1);
    const teacher = (await (await page.request.get(`${baseUrl}/api/users?blurry=teacher`, { headers: { authorization: sharedAdminToken } })).json()) as {
      content: { id: number; username: string; nickName: string }[];
    };
    const row = teacher.content.find((user) => user.username === 'teacher')!;
    expect(sent.at(-1)).toMatchObject({ path: '/api/users', body: { id: row.id, username: 'teacher', nickName: row.nickName } });
    expect(errors).toEqual([]);
  });

  it('roles: teacher, cancel, then confirm learner', async () => {
    await page.goto(`${baseUrl}/system/role`);
    await waitForShell(page);
    await view().locator('.ant-table-row').filter({ hasText: 'learner' }).first().waitFor();

    await openEdit('teacher');
    await expect.poll(() => field('名称').inputValue()).toBe('teacher');
    await closeDialog(/取\s*消/);

    await openEdit('learner');
    await expect.poll(() => field('名称').inputValue()).toBe('learner');
    await saveScreenshot(page, 'edit-role-second-row', { fullPage: false });
    const before = sent.length;
    await closeDialog(/确\s*定/);
    await expect.poll(() => sent.length).toBe(before + 1);
    expect(sent.at(-1)).toMatchObject({ path: '/api/roles', body: { name: 'learner' } });
    expect(errors).toEqual([]);
  });
});
