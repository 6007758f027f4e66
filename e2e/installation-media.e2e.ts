import crypto from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PublicPackage } from '@cloud-classroom/shared/deploy';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot } from './browser.js';
import { baseUrl, englishContext, openDialog, selectOption, sharedAdminToken, waitForShell } from './session.js';

/**
 * Issue 16, part 1: staff publish an installation package through the back office (a real file,
 * chosen in the upload dialog), and a signed-out visitor finds it on the public /download page —
 * at 1366 and 375 px — beside the demo's user guide, with the checksum the server computed, and
 * downloads it with the same SHA-256; the download is counted.
 *
 * The package's first version goes through the API, so the page has an older version to fold.
 */

const RUN = Date.now().toString(36);
const NAME = `Safety handbook ${RUN}`;
const FILE = fileURLToPath(new URL('../apps/server/src/db/seed/demo-media/safety-handbook.pdf', import.meta.url));
const BYTES = fs.readFileSync(FILE);
const SHA256 = crypto.createHash('sha256').update(BYTES).digest('hex');
/** The demo's package on a fresh install (modules/deploy/demo-package.ts). */
const DEMO_GUIDE = '云课堂使用指南 User guide';

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 375, height: 740 };

async function publishFirstVersion(): Promise<void> {
  const form = new FormData();
  form.append('name', NAME);
  form.append('version', '1.0');
  form.append('platform', 'any');
  form.append('releaseNotes', 'First edition');
  form.append('file', new Blob([BYTES], { type: 'application/pdf' }), 'safety-handbook-1.0.pdf');
  const response = await fetch(`${baseUrl}/api/deploy/upload`, { method: 'POST', headers: { authorization: sharedAdminToken }, body: form });
  if (response.status !== 201) throw new Error(`the first version's upload answered ${response.status}: ${await response.text()}`);
}

describe('installation media', () => {
  let browser: Browser;
  let contexts: BrowserContext[] = [];

  async function open(viewport: { width: number; height: number }, token?: string): Promise<Page> {
    const context = await englishContext(browser, token, { viewport, acceptDownloads: true });
    contexts.push(context);
    return context.newPage();
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    await publishFirstVersion();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    contexts = [];
    await browser?.close();
  });

  it('staff upload a package through the back office, and see the checksum the server computed', async () => {
    const page = await open(DESKTOP, sharedAdminToken);
    await page.goto(`${baseUrl}/sys-tools/deploy`);
    await waitForShell(page);
    const view = page.locator('.app-view:not([hidden])');
    await view.locator('.ant-table-row').first().waitFor();
    await view.getByRole('button', { name: /Upload package/ }).click();
    const dialog = openDialog(page, 'Upload an installation package');
    await dialog.getByLabel('Name', { exact: true }).fill(NAME);
    await dialog.getByLabel('Version', { exact: true }).fill('1.1');
    await dialog.getByLabel('Platform', { exact: true }).click();
    await selectOption(page, /^All platforms$/).click();
    await dialog.getByLabel('Release notes').fill('Second edition: the evacuation map is updated.');
    await dialog.locator('input[type=file]').setInputFiles(FILE);
    await dialog.getByText('safety-handbook.pdf').waitFor();
    await saveScreenshot(page, 'installation-media-upload-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: /^confirm$/i }).click();
    await dialog.waitFor({ state: 'hidden' });

    const row = view.locator('.ant-table-row').filter({ hasText: NAME }).filter({ hasText: '1.1' });
    await row.waitFor();
    expect(await row.innerText()).toContain('safety-handbook.pdf');
    // The checksum column shows it shortened, the whole in its tooltip and copy button.
    const listed = await fetch(`${baseUrl}/api/deploy?blurry=${encodeURIComponent(NAME)}`, { headers: { authorization: sharedAdminToken } });
    const { content } = (await listed.json()) as { content: { version: string; sha256: string; size: number }[] };
    expect(content.find((item) => item.version === '1.1')).toMatchObject({ sha256: SHA256, size: BYTES.length });
    await saveScreenshot(page, 'installation-media-back-office');
  });

  it('a signed-out visitor finds it on /download at 1366 px and downloads it with the same checksum', async () => {
    const page = await open(DESKTOP);
    await page.goto(`${baseUrl}/download`);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: NAME }) });
    await card.waitFor();
    // The demo's user guide is there too, on a fresh install.
    await page.getByRole('heading', { name: DEMO_GUIDE }).waitFor();
    expect(await card.locator('.download-site-checksum__value').first().innerText()).toBe(SHA256);
    expect(await card.innerText()).toContain('1.1');
    expect(await card.innerText()).toContain('159.13 KiB');
    // The first version is kept, folded.
    await card.getByText('Older version (1)').click();
    await card.getByRole('link', { name: `Download ${NAME} 1.0` }).waitFor();
    await saveScreenshot(page, 'installation-media-download-1366');

    const started = page.waitForEvent('download');
    await card.getByRole('link', { name: `Download ${NAME} 1.1` }).click();
    const download = await started;
    expect(download.suggestedFilename()).toBe('safety-handbook.pdf');
    const saved = await download.path();
    expect(crypto.createHash('sha256').update(fs.readFileSync(saved)).digest('hex')).toBe(SHA256);

    const listed = await fetch(`${baseUrl}/api/deploy?blurry=${encodeURIComponent(NAME)}`, { headers: { authorization: sharedAdminToken } });
    const { content } = (await listed.json()) as { content: { version: string; downloads: number }[] };
    expect(content.find((item) => item.version === '1.1')?.downloads).toBe(1);
  });

  it('fits a phone (375 px), nothing wider than the screen', async () => {
    const page = await open(PHONE);
    await page.goto(`${baseUrl}/download`);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: NAME }) });
    await card.waitFor();
    expect(await card.locator('.download-site-checksum__value').first().innerText()).toBe(SHA256);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, 'installation-media-download-375');

    const packages = (await (await fetch(`${baseUrl}/api/public/downloads`)).json()) as PublicPackage[];
    expect(packages.find((item) => item.name === NAME)?.older.map((version) => version.version)).toEqual(['1.0']);
  });
});
