import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page, Request } from 'playwright-core';

/**
 * What each open page of the running journey file did, kept so that a failed step can leave a
 * trace (journey-runner.ts): a flake seen once in CI has to be understood from that run's log
 * and artifacts alone.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const tracesDir = path.join(root, 'artifacts', 'traces');

const NETWORK_KEPT = 50;
const DOM_LIMIT = 100_000;
/** Each capture is bounded: a page wedged by the failure must not also hang its trace. */
const CAPTURE_TIMEOUT_MS = 5_000;

const OPEN_PAGES = Symbol.for('cloud-classroom.e2e.open-pages');

type NetworkEntry = { method: string; url: string; startedAt: number; status?: number; durationMs?: number; failure?: string };
type PageRecord = { opened: number; console: string[]; network: NetworkEntry[]; lastLocator?: Locator };

/**
 * The pages still open, in the order they were opened: a journey's failure may involve several
 * (staff and learner). Kept on globalThis because the test runner (journey-runner.ts) is loaded
 * apart from the journeys' modules and gets its own copy of this one.
 */
const openPages: Map<Page, PageRecord> = ((globalThis as { [OPEN_PAGES]?: Map<Page, PageRecord> })[OPEN_PAGES] ??= new Map());
let pagesOpened = 0;

/** Locator methods that wait on or read the page: the last one a step called is what it was waiting for when it failed. */
const LOCATOR_METHODS = [
  'all', 'allInnerTexts', 'allTextContents', 'ariaSnapshot', 'blur', 'boundingBox', 'check', 'clear', 'click', 'count',
  'dblclick', 'dispatchEvent', 'dragTo', 'evaluate', 'evaluateAll', 'fill', 'focus', 'getAttribute', 'hover', 'innerHTML',
  'innerText', 'inputValue', 'isChecked', 'isDisabled', 'isEditable', 'isEnabled', 'isHidden', 'isVisible', 'press',
  'pressSequentially', 'screenshot', 'scrollIntoViewIfNeeded', 'selectOption', 'selectText', 'setChecked', 'setInputFiles',
  'tap', 'textContent', 'type', 'uncheck', 'waitFor',
] as const;
let locatorsWatched = false;

/**
 * Playwright has no public event for "a locator was used", so its prototype's methods note their
 * locator on its page first. Done once per worker, on the first page.
 */
function watchLocators(page: Page): void {
  if (locatorsWatched) return;
  locatorsWatched = true;
  const prototype = Object.getPrototypeOf(page.locator('html')) as Record<string, unknown>;
  for (const name of LOCATOR_METHODS) {
    const original = prototype[name];
    if (typeof original !== 'function') continue;
    prototype[name] = function (this: Locator, ...args: unknown[]) {
      const record = openPages.get(this.page());
      if (record !== undefined) record.lastLocator = this;
      return original.apply(this, args);
    };
  }
}

export function recordPage(page: Page): void {
  watchLocators(page);
  pagesOpened += 1;
  const record: PageRecord = { opened: pagesOpened, console: [], network: [] };
  openPages.set(page, record);
  page.on('close', () => openPages.delete(page));
  page.on('console', (message) => {
    const { url, lineNumber } = message.location();
    record.console.push(`${clock()} console.${message.type()}: ${message.text()}${url === '' ? '' : ` (${url}:${lineNumber + 1})`}`);
  });
  page.on('pageerror', (error) => record.console.push(`${clock()} uncaught ${error.stack ?? error.message}`));

  const entries = new WeakMap<Request, NetworkEntry>();
  page.on('request', (request) => {
    const entry: NetworkEntry = { method: request.method(), url: request.url(), startedAt: Date.now() };
    entries.set(request, entry);
    record.network.push(entry);
    if (record.network.length > NETWORK_KEPT) record.network.shift();
  });
  page.on('response', (response) => {
    const entry = entries.get(response.request());
    if (entry !== undefined) entry.status = response.status();
  });
  const finished = (request: Request) => {
    const entry = entries.get(request);
    const { responseEnd } = request.timing();
    if (entry !== undefined && responseEnd >= 0) entry.durationMs = Math.round(responseEnd);
  };
  page.on('requestfinished', finished);
  page.on('requestfailed', (request) => {
    finished(request);
    const entry = entries.get(request);
    if (entry !== undefined) entry.failure = request.failure()?.errorText ?? 'failed';
  });
}

function clock(at = Date.now()): string {
  return new Date(at).toISOString().slice(11, 23);
}

function bounded<T>(work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`gave up after ${CAPTURE_TIMEOUT_MS} ms`)), CAPTURE_TIMEOUT_MS).unref()),
  ]);
}

function networkLines(network: NetworkEntry[]): string {
  return network
    .map((entry) => {
      const outcome = entry.failure ?? (entry.status === undefined ? 'no answer yet' : String(entry.status));
      const took = entry.durationMs === undefined ? '' : ` ${entry.durationMs} ms`;
      return `${clock(entry.startedAt)} ${entry.method} ${outcome}${took} ${entry.url}`;
    })
    .join('\n');
}

/** The outerHTML of what the step last waited on, or of the body when that matches nothing (or is unknown). */
async function domOf(page: Page, locator: Locator | undefined): Promise<{ html: string; of: string }> {
  if (locator !== undefined) {
    const matches = await bounded(locator.evaluateAll((elements) => elements.map((element) => element.outerHTML)));
    if (matches.length > 0) return { html: matches.join('\n\n').slice(0, DOM_LIMIT), of: String(locator) };
  }
  const body = await bounded(page.evaluate(() => document.body?.outerHTML ?? ''));
  const of = locator === undefined ? 'the body' : `the body (${String(locator)} matches nothing)`;
  return { html: body.slice(0, DOM_LIMIT), of };
}

async function tracePage(page: Page, record: PageRecord, dir: string): Promise<string> {
  fs.mkdirSync(dir, { recursive: true });
  const problems: string[] = [];
  const attempt = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      problems.push(`${what}: ${(error as Error).message.split('\n')[0]}`);
    }
  };
  let domNote = '';
  fs.writeFileSync(path.join(dir, 'console.txt'), `${page.url()}\n\n${record.console.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'network.txt'), `the last ${NETWORK_KEPT} requests at most, oldest first\n\n${networkLines(record.network)}\n`);
  await attempt('screenshot', () => bounded(page.screenshot({ path: path.join(dir, 'screenshot.png'), timeout: CAPTURE_TIMEOUT_MS })));
  await attempt('dom', async () => {
    const { html, of } = await domOf(page, record.lastLocator);
    domNote = ` dom.html of ${of}`;
    fs.writeFileSync(path.join(dir, 'dom.html'), `<!-- ${of.replaceAll('--', '- -')} on ${page.url()} -->\n${html}\n`);
  });
  const missed = problems.length === 0 ? '' : `; not captured: ${problems.join('; ')}`;
  return `${page.url()}:${domNote}${missed}`;
}

/**
 * Writes every open page's screenshot, console, last requests and DOM under
 * artifacts/traces/<name>/page-<n>/, and answers the lines to append to the failure's message
 * (none when no page is open).
 */
export async function writeTraces(name: string): Promise<string> {
  if (openPages.size === 0) return '';
  const dir = path.join(tracesDir, name);
  fs.rmSync(dir, { recursive: true, force: true });
  const lines: string[] = [];
  for (const [page, record] of openPages) {
    lines.push(`  page-${record.opened}: ${await tracePage(page, record, path.join(dir, `page-${record.opened}`))}`);
  }
  return `trace: ${path.relative(root, dir)}/ (screenshot.png, console.txt, network.txt, dom.html per page)\n${lines.join('\n')}`;
}

/**
 * Before a retry, the pages the journey file shares between its steps are loaded afresh at the
 * address they were at: whatever the failed attempt left half open (a dialog, a dropdown, a
 * half-filled form) is gone, what it saved on the server stays. A page that cannot reload (its
 * context left offline) is left as it is: the retry then meets what the failure left.
 */
export async function reloadOpenPages(): Promise<void> {
  for (const page of openPages.keys()) {
    if (page.url() === 'about:blank') continue;
    await page.reload({ waitUntil: 'load' }).catch(() => undefined);
  }
}

type TracedTask = { name: string; file: { name: string }; result?: { retryCount?: number } };

/** `<journey>-<step>-<attempt>`: the file without `.e2e.ts`, the step's title cut short, the attempt from 1. */
function traceName(task: TracedTask): string {
  const journey = path.basename(task.file.name).replace(/\.e2e\.ts$/, '');
  const step = task.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60).replace(/-$/, '');
  return `${journey}-${step}-${(task.result?.retryCount ?? 0) + 1}`;
}

/**
 * Writes the open pages' trace for this failure of `task` and names it at the end of the error's
 * message (and of its stack, which is what the reporters print). Never throws: the failure being
 * reported matters more than its trace.
 */
export async function traceFailure(error: { message: string; stack?: string | undefined }, task: TracedTask): Promise<void> {
  let trace: string;
  try {
    trace = await writeTraces(traceName(task));
  } catch (traceError) {
    trace = `trace: could not be written: ${(traceError as Error).message}`;
  }
  if (trace === '') return;
  const message = error.message;
  error.message = `${message}\n\n${trace}`;
  if (error.stack?.includes(message)) error.stack = error.stack.replace(message, () => error.message);
}
