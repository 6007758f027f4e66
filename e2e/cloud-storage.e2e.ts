import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot, skipAfterAFailure } from './browser.js';
import { apiLogin, baseUrl, englishContext, openDialog, waitForShell } from './session.js';

/**
 * Issue 16's cloud storage, as an administrator works it: configure a bucket (an s3rver started
 * here on 127.0.0.1), upload a file with its progress, download it through the signed link, delete
 * it. Screenshots at 1366 and 375 px. s3rver does not check the secret key (any will do).
 */

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 375, height: 740 };
const BUCKET = 'journey-bucket';

describe('journeys: cloud storage', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let s3: { close(): Promise<void> };
  let endpoint = '';
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-e2e-cloud-'));

  beforeAll(async () => {
    const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(scratch, 's3'), configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port } = await server.run();
    s3 = server;
    endpoint = `http://127.0.0.1:${port}`;
    browser = await launchBrowser();
    token = await apiLogin('admin');
    context = await englishContext(browser, token, { viewport: DESKTOP, acceptDownloads: true });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await s3?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  skipAfterAFailure();

  const view = () => page.locator('.app-view:not([hidden])');

  it('configures the bucket: the page then names it', async () => {
    await page.goto(`${baseUrl}/sys-tools/cloud-storage`);
    await waitForShell(page);
    await view().getByText('Cloud storage is not configured yet').waitFor();
    await view().getByRole('button', { name: 'Settings' }).click();
    const dialog = openDialog(page);
    await dialog.getByLabel('Endpoint').fill(endpoint);
    await dialog.getByLabel('Region').fill('us-east-1');
    await dialog.getByLabel('Bucket').fill(BUCKET);
    await dialog.getByLabel('Access key').fill('S3RVER');
    await dialog.getByLabel('Secret key').fill('journey-secret');
    await dialog.getByRole('button', { name: /^(ok|confirm)$/i }).click();
    await dialog.waitFor({ state: 'hidden' });
    await view().getByText(`Bucket: ${BUCKET} (${endpoint})`).waitFor();
  });

  it('uploads a file, then downloads it through a signed link under its name', async () => {
    await view().getByRole('button', { name: 'Upload' }).click();
    const dialog = openDialog(page);
    const file = path.join(scratch, '课程表 2026.txt');
    fs.writeFileSync(file, 'Monday: lesson 1\n'.repeat(5000));
    await dialog.locator('input[type=file]').setInputFiles(file);
    await dialog.locator('.picked-file').waitFor();
    await dialog.getByRole('button', { name: /^(ok|confirm)$/i }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = view().locator('.ant-table-row').filter({ hasText: '课程表 2026.txt' });
    await row.waitFor();
    await saveScreenshot(page, 'cloud-storage-1366');

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByText('Download', { exact: true }).click()]);
    expect(download.suggestedFilename()).toBe('课程表 2026.txt');
    const saved = path.join(scratch, 'downloaded.txt');
    await download.saveAs(saved);
    expect(fs.readFileSync(saved)).toEqual(fs.readFileSync(file));
  });

  it('fits a phone', async () => {
    const phone = await englishContext(browser, token, { viewport: PHONE });
    const small = await phone.newPage();
    await small.goto(`${baseUrl}/sys-tools/cloud-storage`);
    await small.locator('.app-view:not([hidden]) .ant-table-row').first().waitFor();
    await saveScreenshot(small, 'cloud-storage-375');
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await phone.close();
  });

  it('deletes the file from the bucket and the list', async () => {
    const row = view().locator('.ant-table-row').filter({ hasText: '课程表 2026.txt' });
    await row.getByRole('button', { name: 'Delete' }).click();
    await openDialog(page).getByRole('button', { name: /^(ok|confirm)$/i }).click();
    await row.waitFor({ state: 'detached' });
    const listed = await fetch(`${baseUrl}/api/qiNiuContent`, { headers: { authorization: token } }).then((response) => response.json() as Promise<{ totalElements: number }>);
    expect(listed.totalElements).toBe(0);
  });
});
