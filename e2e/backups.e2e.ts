import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectConsoleMessage, launchBrowser, saveScreenshot, skipAfterAFailure } from './browser.js';
import { apiLogin, baseUrl, englishContext, openDialog, waitForShell } from './session.js';

/**
 * Issue 16's database backups, as an administrator works them: back up now, download the file
 * (its SHA-256 the one listed), upload it back (checked, kept as uploaded) and a text file
 * (refused, with the reason under the field), set the daily schedule, delete the uploaded one.
 * Screenshots at 1366 and 375 px. The journeys' server runs on SQLite.
 */

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 375, height: 740 };

describe('journeys: database backups', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-e2e-backups-'));
  let downloaded = '';
  let madeName = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    token = await apiLogin('admin');
    context = await englishContext(browser, token, { viewport: DESKTOP, acceptDownloads: true });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  skipAfterAFailure();

  const view = () => page.locator('.app-view:not([hidden])');
  const rowOf = (text: string) => view().locator('.ant-table-row').filter({ hasText: text });

  it('backs up now: the backup is listed as manual, and its file downloads with the SHA-256 listed', async () => {
    await page.goto(`${baseUrl}/sys-tools/database`);
    await waitForShell(page);
    await view().locator('.backup-status').getByText('SQLite VACUUM INTO').waitFor();
    await view().getByRole('button', { name: 'Back up now' }).click();
    const row = view().locator('.ant-table-row').filter({ hasText: 'Manual' }).first();
    await row.waitFor();
    madeName = (await row.locator('td a').first().innerText()).trim();
    expect(madeName).toMatch(/^cc-\d{8}-\d{6}-\d{3}-manual\.sqlite$/);

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: `Download ${madeName}` }).click()]);
    expect(download.suggestedFilename()).toBe(madeName);
    downloaded = path.join(scratch, madeName);
    await download.saveAs(downloaded);
    const listed = await fetch(`${baseUrl}/api/database?size=100`, { headers: { authorization: token } }).then((response) => response.json() as Promise<{ content: { name: string; sha256: string }[] }>);
    const sha256 = crypto.createHash('sha256').update(fs.readFileSync(downloaded)).digest('hex');
    expect(listed.content.find((backup) => backup.name === madeName)?.sha256).toBe(sha256);
    await expect.poll(() => row.locator('code').innerText()).toBe(`${sha256.slice(0, 12)}…`);
  });

  it('refuses an upload that is no database, naming the problem under the file, and keeps the downloaded backup as uploaded, with a progress bar meanwhile', async () => {
    await view().getByRole('button', { name: 'Upload a backup' }).click();
    const dialog = openDialog(page);
    const notes = path.join(scratch, 'notes.sqlite');
    fs.writeFileSync(notes, 'not a database at all\n');
    await dialog.locator('input[type=file]').setInputFiles(notes);
    await dialog.getByText('notes.sqlite').waitFor();
    expectConsoleMessage(page, /status of 400/, 'the upload of a text file is refused on purpose');
    await dialog.getByRole('button', { name: /^(ok|confirm)$/i }).click();
    await dialog.getByText('is neither an SQLite database nor a PostgreSQL dump').waitFor();
    await saveScreenshot(page, 'backups-upload-refused-1366', { fullPage: false });

    await dialog.locator('input[type=file]').setInputFiles(downloaded);
    await dialog.getByText(madeName).waitFor();
    // By its whole name: while the refused upload's spinner is still on it, the button is named
    // "loading confirm", and this waits until it is the confirm button again.
    await dialog.getByRole('button', { name: /^(ok|confirm)$/i }).click();
    await rowOf('Uploaded').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const original = await rowOf(madeName).locator('code').innerText();
    await expect.poll(() => rowOf('Uploaded').locator('code').innerText()).toBe(original);
  });

  it('sets the daily schedule: the next backup is shown in the organisation’s zone', async () => {
    const form = view().locator('.backup-schedule-form');
    await form.getByRole('switch').click();
    await form.getByLabel('Daily at').fill('02:30');
    await form.getByLabel('Keep the last').fill('3');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await view().getByText(/^Next backup: \d{4}-\d{2}-\d{2} 02:30 \([\w/+-]+\)$/).waitFor();
    await saveScreenshot(page, 'backups-1366');
  });

  it('deletes the uploaded backup', async () => {
    const row = rowOf('Uploaded');
    await row.getByRole('button', { name: 'Delete' }).click();
    await openDialog(page).getByRole('button', { name: /^(ok|confirm)$/i }).click();
    await row.waitFor({ state: 'detached' });
    await rowOf(madeName).waitFor();
  });

  it('fits a phone', async () => {
    const phone = await englishContext(browser, token, { viewport: PHONE });
    const small = await phone.newPage();
    await small.goto(`${baseUrl}/sys-tools/database`);
    await small.locator('.app-view:not([hidden]) .ant-table-row').first().waitFor();
    await saveScreenshot(small, 'backups-375');
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await phone.close();
  });
});
