import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshotDir = fileURLToPath(new URL('../artifacts/screenshots', import.meta.url));

/** The system Chromium, headless; the project never downloads a browser of its own. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}. Install it (apt-get install -y chromium fonts-wqy-microhei) or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

/**
 * The whole page by default. Overlays (a modal, the mobile sidebar) are fixed to the viewport, and
 * a full-page capture of them shows the page shifted around them: pass `{ fullPage: false }`.
 */
export async function saveScreenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<string> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  // Finished transitions: a screenshot shows the state a journey reached, not a frame of its animation.
  await page.screenshot({ path: file, fullPage, animations: 'disabled' });
  return file;
}
