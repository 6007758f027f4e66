// `npm run lighthouse`: Lighthouse's mobile audit (performance and accessibility) of the login
// page and of the learner's /home and /preview/{id}, signed in, against the built app on a fresh
// data folder, in the system Chromium. Not part of CI: an audit takes a minute a page.
//
// Lighthouse 12.2.3 is installed on first use into node_modules/.cache/lighthouse rather than
// being a dependency: every `npm ci` would otherwise fetch its 300 packages for this one script
// (13.x needs Node 22). A cookie passed to Lighthouse with --extra-headers never reaches
// document.cookie, so the browser signs in itself (a persistent context is Chromium's default
// context, the one Lighthouse opens its tab in) and Lighthouse keeps its storage.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const LIGHTHOUSE_VERSION = '12.2.3';
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cache = path.join(root, 'node_modules/.cache/lighthouse');
const PASSWORD = 'Lighthouse-pass-1';
const TARGET = 0.95;
/** Each page's whole report (Lighthouse's JSON), to see what a score is made of. */
const reports = path.join(root, 'artifacts/lighthouse');

function ensureLighthouse() {
  const manifest = path.join(cache, 'node_modules/lighthouse/package.json');
  if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).version === LIGHTHOUSE_VERSION) return;
  console.log(`installing lighthouse@${LIGHTHOUSE_VERSION} into ${path.relative(root, cache)} …`);
  fs.mkdirSync(cache, { recursive: true });
  const npm = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', cache, `lighthouse@${LIGHTHOUSE_VERSION}`], { stdio: 'inherit' });
  if (npm.status !== 0) throw new Error('could not install lighthouse');
}

const freePort = () =>
  new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function startServer() {
  const entry = path.join(root, 'apps/server/dist/server.js');
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html')) || !fs.existsSync(entry)) throw new Error('run `npm run build` first');
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-lighthouse-'));
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, CAPTCHA_ENABLED: 'false', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  for (const deadline = Date.now() + 30_000; !output.includes('is running at'); ) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { baseUrl: `http://127.0.0.1:${port}`, stop: () => (child.kill('SIGTERM'), fs.rmSync(dataDir, { recursive: true, force: true })) };
}

ensureLighthouse();
const { default: lighthouse } = await import(pathToFileURL(path.join(cache, 'node_modules/lighthouse/core/index.js')).href);
const { chromium } = await import('playwright-core');

const server = await startServer();
const debuggingPort = await freePort();
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-lighthouse-profile-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [`--remote-debugging-port=${debuggingPort}`, '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const results = [];
let failed = false;
try {
  const audit = async (name, url) => {
    const { lhr } = await lighthouse(url, {
      port: debuggingPort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      // Keep the session the browser signed in with.
      disableStorageReset: true,
    });
    fs.mkdirSync(reports, { recursive: true });
    fs.writeFileSync(path.join(reports, `${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'root'}.json`), JSON.stringify(lhr));
    const metric = (id) => lhr.audits[id]?.displayValue ?? '–';
    const scores = {
      page: name,
      performance: lhr.categories.performance.score,
      accessibility: lhr.categories.accessibility.score,
      fcp: metric('first-contentful-paint'),
      lcp: metric('largest-contentful-paint'),
      tbt: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
    };
    const failing = Object.values(lhr.audits).filter((item) => item.score !== null && item.score < 1 && item.scoreDisplayMode === 'binary');
    scores.failingAudits = failing.map((item) => item.id).join(', ') || '–';
    if (scores.performance < TARGET || scores.accessibility < TARGET) failed = true;
    results.push(scores);
  };
  await audit('/login', `${server.baseUrl}/login`);

  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await page.getByLabel(/用户名|账号|user name/i).fill('learner1');
  await page.getByLabel(/^(密码|password)$/i).fill(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/home/);
  const token = decodeURIComponent((await context.cookies()).find((cookie) => cookie.name === 'TW-PLATFORM-TOEKN')?.value ?? '');
  const catalogue = await (await fetch(`${server.baseUrl}/api/site/courses?size=1`, { headers: { authorization: token } })).json();
  const courseId = catalogue.content[0]?.id;
  if (courseId === undefined) throw new Error('the demo catalogue is empty');
  await page.close();

  await audit('/home', `${server.baseUrl}/home`);
  await audit(`/preview/${courseId}`, `${server.baseUrl}/preview/${courseId}`);
} finally {
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
  server.stop();
}
console.table(results);
console.log(failed ? `BELOW TARGET: every score must be ≥ ${TARGET}` : `all scores ≥ ${TARGET}`);
process.exit(failed ? 1 : 0);
