import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { beforeEach } from 'vitest';
import { recordPage } from './page-trace.js';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshotDir = fileURLToPath(new URL('../artifacts/screenshots', import.meta.url));

const PROBLEM_TYPES = new Set(['error', 'warning', 'assert']);
/** What the pages of the running test said that a journey must not hear, read by console-guard.ts. */
const consoleProblems: string[] = [];
const expectedMessages = new WeakMap<Page, RegExp[]>();

function describeMessage(message: ConsoleMessage): string {
  const { url, lineNumber } = message.location();
  return `console.${message.type()}: ${message.text()}${url === '' ? '' : ` (${url}:${lineNumber + 1})`}`;
}

/** Every page of every journey reports its console errors and warnings, and its uncaught exceptions. */
function watchPage(page: Page): void {
  recordPage(page);
  page.on('console', (message) => {
    if (!PROBLEM_TYPES.has(message.type())) return;
    const text = describeMessage(message);
    if ((expectedMessages.get(page) ?? []).some((pattern) => pattern.test(text))) return;
    consoleProblems.push(`${text}\n    on ${page.url()}`);
  });
  page.on('pageerror', (error) => consoleProblems.push(`uncaught ${error.stack ?? error.message}\n    on ${page.url()}`));
}

/**
 * Lets this page log a console error or warning matching `pattern` (matched against
 * "console.<type>: <text> (<url>:<line>)"), for a journey that provokes it on purpose; say why in
 * `reason`. Anything else still fails the test.
 */
export function expectConsoleMessage(page: Page, pattern: RegExp, reason: string): void {
  if (reason.trim() === '') throw new Error('say why the message is expected');
  expectedMessages.set(page, [...(expectedMessages.get(page) ?? []), pattern]);
}

/** The problems heard since the last call, emptied. */
export function takeConsoleProblems(): string[] {
  return consoleProblems.splice(0);
}

/**
 * The system Chromium, headless; the project never downloads a browser of its own. Every page
 * opened through it is watched (see console-guard.ts), so no journey has to remember to.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}. Install it (apt-get install -y chromium fonts-wqy-microhei) or set CHROMIUM_PATH.`,
    );
  }
  const browser = await launchChromium();
  // browser.newPage() goes through newContext() too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.on('page', watchPage);
    return context;
  };
  return browser;
}

function launchChromium(): Promise<Browser> {
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

/**
 * For a journey whose steps build on each other (call it inside its `describe`): once one step
 * fails, the rest are skipped, as they would only fail again, slowly, for the same cause.
 *
 * A step is retried once (vitest.config.ts), on its own: a failure counts here only when no
 * attempt is left, so a step that passes on its retry lets the next steps run. The retry runs on
 * the same pages, reloaded first (journey-runner.ts), so it starts from the server's state with
 * nothing left half open; a step whose first attempt saved something it then cannot do again
 * (deleting a row it finds by name) fails its retry too, and fails CI as it would have without
 * one. Retrying the whole journey instead would re-run steps that passed, each of which changes
 * what the server holds, and rerun minutes of work for one flake.
 */
export function skipAfterAFailure(): void {
  let failed = false;
  beforeEach(({ skip, onTestFailed }) => {
    skip(failed, 'an earlier step failed');
    onTestFailed(({ task }) => {
      if ((task.result?.retryCount ?? 0) >= retriesOf(task.retry)) failed = true;
    });
  });
}

function retriesOf(retry: number | { count?: number } | undefined): number {
  return typeof retry === 'number' ? retry : (retry?.count ?? 0);
}
