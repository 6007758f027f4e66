import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot, skipAfterAFailure } from './browser.js';
import { addTokenCookie, apiLogin, baseUrl, createLearner, openDialog, waitForShell } from './session.js';

/**
 * Issue 30, item 4: a 5,000-character course title pasted into the back office was cut to 100
 * without a word. A limited field now shows its limit as a counter and says how much of a paste
 * it cut, in the back office (Chinese, desktop) and on the learner pages (a phone).
 */

const RUN = Date.now().toString(36);
const LONG = '长'.repeat(5000);

/** Pastes `text` into the focused field as a person does: through the clipboard and Ctrl+V. */
async function pasteInto(page: Page, field: ReturnType<Page['locator']>, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await field.focus();
  await page.keyboard.press('Control+V');
}

describe('journeys: a limited field says its limit and what a paste lost', () => {
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  skipAfterAFailure();

  it('the course dialog in Chinese: 100 of 5,000 pasted characters kept, the counter full, the cut said', async () => {
    context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await addTokenCookie(context, await apiLogin('admin'));
    const page = await context.newPage();
    await page.goto(`${baseUrl}/course/course`);
    await waitForShell(page);
    const view = page.locator('.app-view:not([hidden])');
    await view.locator('.ant-table-row').first().waitFor();
    await view.getByRole('button', { name: /新增$/ }).click();
    const dialog = openDialog(page, '新增课程');
    const title = dialog.getByLabel('课程名称', { exact: true });
    await pasteInto(page, title, LONG);
    await expect.poll(() => title.inputValue()).toBe('长'.repeat(100));
    await dialog.getByText('100 / 100').waitFor();
    await dialog.getByRole('status').filter({ hasText: '粘贴的内容超出 100 字的上限，已截去后面的 4900 字' }).waitFor();
    await saveScreenshot(page, 'text-limits-course-title-zh', { fullPage: false });
    // Typing on means it was seen: the notice goes, the limit stays.
    await title.press('Backspace');
    await dialog.getByText('99 / 100').waitFor();
    expect(await dialog.getByRole('status').count()).toBe(0);
    await context.close();
  });

  it('the learner’s nick name on a phone: the counter and the notice on the learner pages', async () => {
    const learner = await createLearner(`e2e-${RUN}-limits`, '限长', '学员服务组');
    context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await addTokenCookie(context, learner.token);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/user-setting`);
    const nickName = page.getByLabel('昵称', { exact: true });
    await nickName.waitFor();
    await nickName.fill('');
    await pasteInto(page, nickName, '一二三四五六七八九十'.repeat(3));
    await expect.poll(() => nickName.inputValue()).toBe('一二三四五六七八九十'.repeat(2));
    await page.getByText('20/20').waitFor();
    await page.getByRole('status').filter({ hasText: '已截去后面的 10 字' }).waitFor();
    await saveScreenshot(page, 'text-limits-nick-name-phone');
    await context.close();
  });
});
