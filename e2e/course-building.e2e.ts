import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, CDPSession, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot, skipAfterAFailure } from './browser.js';
import { apiLogin, baseUrl, confirmDialog, englishContext, expectPath, openDialog, waitForShell } from './session.js';

/**
 * A teacher builds a course from nothing in the back office, as the training department would:
 * the course with its cover, a chapter, a video, a PDF and a text lesson, then publishes it, and
 * a learner finds it in the catalogue. Every file goes through the page's own upload controls.
 */

const demoMedia = (name: string) => fileURLToPath(new URL(`../apps/server/src/db/seed/demo-media/${name}`, import.meta.url));
const COVER = demoMedia('cover-safety.jpg');
const VIDEO = demoMedia('safety-intro.mp4');
const HANDBOOK = demoMedia('safety-handbook.pdf');

/** Unique per run: the suite's server is shared, and the catalogue search must find only this one. */
const TITLE = `Ladder safety ${Date.now().toString(36)}`;
const CHAPTER = 'Before you climb';
/** The demo seed's sub-category (seed data is Chinese in either language). */
const CATEGORY = '消防安全';

type SiteCourses = { content: { id: number; title: string; categoryName: string | null; cover: number | null; lessonCount: number }[]; totalElements: number };

describe('journeys: a teacher builds a course, publishes it, and a learner finds it', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let learnerToken: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await englishContext(browser, await apiLogin('teacher'), { viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    learnerToken = await apiLogin('learner1');
  });
  afterAll(async () => {
    await browser?.close();
  });
  skipAfterAFailure();

  const view = () => page.locator('.app-view:not([hidden])');
  const courseRow = () => view().locator('.ant-table-row').filter({ hasText: TITLE });
  const chapter = () => view().locator('section.outline-board__chapter').filter({ has: page.getByText(CHAPTER, { exact: true }) });

  async function catalogue(): Promise<SiteCourses> {
    const response = await fetch(`${baseUrl}/api/site/courses?q=${encodeURIComponent(TITLE)}`, { headers: { authorization: learnerToken } });
    if (!response.ok) throw new Error(`the catalogue answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as SiteCourses;
  }

  /** Opens the lesson editor for a new lesson of the chapter, of this type, titled. */
  async function newLesson(type: 'Video' | 'Document' | 'Text', title: string): Promise<Locator> {
    await chapter().getByRole('button', { name: 'Add lesson' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/edu/edit-lesson');
    const form = view().locator('.lesson-edit');
    await form.getByLabel('Title', { exact: true }).waitFor();
    await form.locator('.ant-radio-button-wrapper').filter({ hasText: new RegExp(`^${type}$`) }).click();
    await form.getByLabel('Title', { exact: true }).fill(title);
    // The live preview follows the form as it is typed.
    await view().locator('.lesson-preview').getByRole('heading', { name: title }).waitFor();
    return form;
  }

  /** Saves the lesson: the editor closes and the outline lists it under the chapter, with these facts. */
  async function saveLesson(form: Locator, title: string, facts: RegExp): Promise<void> {
    await form.getByRole('button', { name: 'Save' }).click();
    await expectPath(page, '/course/term/outline');
    const row = chapter().locator('.outline-board__lesson').filter({ hasText: title });
    await row.waitFor();
    expect(await row.locator('.outline-board__lesson-facts').innerText()).toMatch(facts);
  }

  it('adds the course with a category and an uploaded cover, and chooses it', async () => {
    await page.goto(`${baseUrl}/course/course`);
    await waitForShell(page);
    await view().locator('.ant-table-row').first().waitFor();
    await view().getByRole('button', { name: /Add$/ }).click();
    const dialog = openDialog(page).filter({ has: page.locator('form') });
    await dialog.getByLabel('Title', { exact: true }).fill(TITLE);
    await dialog.getByLabel('Summary').fill('Setting up, climbing and working from a ladder without a fall.');
    await dialog.getByLabel('Category', { exact: true }).click();
    await page.locator('.ant-select-tree-title').filter({ hasText: new RegExp(`^${CATEGORY}$`) }).click();
    // The cover's own control (the description's editor has a picture input too).
    await dialog.locator('.ant-upload input[type=file]').setInputFiles(COVER);
    // The cover is stored at once and shown from the media route (with the session's cookie).
    const cover = dialog.getByRole('img', { name: 'Course cover' });
    await cover.waitFor();
    await expect.poll(() => cover.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
    await saveScreenshot(page, 'course-building-course-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: /^confirm$/i }).click();
    await dialog.waitFor({ state: 'hidden' });

    await courseRow().waitFor();
    const cells = await courseRow().innerText();
    expect(cells).toContain(CATEGORY);
    expect(cells).toContain('Draft');
    await expect.poll(() => courseRow().getByRole('img', { name: TITLE }).evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

    await courseRow().getByRole('button', { name: TITLE }).click();
    await courseRow().getByText('Current', { exact: true }).waitFor();
    await view().getByText(`Current course: ${TITLE}`).waitFor();
    // A draft is not in the learners' catalogue yet: the check after publishing can fail.
    expect(await catalogue()).toEqual({ content: [], totalElements: 0 });
  });

  it('adds a chapter and a video lesson, uploaded with a visible progress bar, that plays in the preview', { timeout: 90_000 }, async () => {
    await view().getByRole('button', { name: 'Outline', exact: true }).click();
    await expectPath(page, '/course/term/outline');
    await view().getByText(`Outline: ${TITLE}`).waitFor();
    await view().getByRole('button', { name: 'Add chapter' }).click();
    await view().getByLabel('Chapter title').fill(CHAPTER);
    await view().getByRole('button', { name: /^confirm$/i }).click();
    await chapter().waitFor();
    await chapter().getByText('No lessons in this chapter yet').waitFor();

    const form = await newLesson('Video', 'Why ladders slip');
    // Slow uploads only, for as long as this one takes, so the bar can be seen moving.
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    try {
      await form.locator('#media input[type=file]').setInputFiles(VIDEO);
      const progress = form.getByRole('group', { name: 'Uploading safety-intro.mp4' }).getByRole('progressbar');
      const percentSent = async () => {
        const value = await progress.getAttribute('aria-valuenow');
        if (value === null) throw new Error('the progress bar does not say how far it is');
        return Number(value);
      };
      // Part of the file sent, not all of it: the bar reports real progress.
      await expect.poll(percentSent, { timeout: 20_000, interval: 100 }).toBeGreaterThan(0);
      expect(await percentSent()).toBeLessThan(100);
      await saveScreenshot(page, 'course-building-video-upload-progress', { fullPage: false });
      // Shown before and after the capture, and it goes only once: the capture shows it.
      expect(await progress.isVisible()).toBe(true);
      await form.locator('.media-picker__chosen').filter({ hasText: 'safety-intro.mp4' }).waitFor({ timeout: 30_000 });
    } finally {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await cdp.detach();
    }
    expect(await form.locator('.media-picker__chosen').innerText()).toContain('00:08');

    // The preview plays the stored file from the media route, as a learner's player would.
    const video = view().locator('.lesson-preview video');
    await video.waitFor();
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => ({ ready: element.readyState >= 1, duration: Math.round(element.duration) })), { timeout: 15_000 })
      .toEqual({ ready: true, duration: 8 });
    await saveScreenshot(page, 'course-building-video-lesson', { fullPage: false });
    await saveLesson(form, 'Why ladders slip', /^Video · 00:08 · /);
  });

  it('adds a PDF lesson and a text lesson written in the rich text editor', { timeout: 90_000 }, async () => {
    const pdf = await newLesson('Document', 'The ladder handbook');
    await pdf.locator('#media input[type=file]').setInputFiles(HANDBOOK);
    await pdf.locator('.media-picker__chosen').filter({ hasText: 'safety-handbook.pdf' }).waitFor({ timeout: 30_000 });
    expect(await pdf.locator('.media-picker__chosen').innerText()).toContain('4 pages');
    const document = view().locator('.lesson-preview__document');
    await document.waitFor();
    expect(await document.innerText()).toContain('4 pages');
    await saveLesson(pdf, 'The ladder handbook', /^Document · 4 pages · /);

    const text = await newLesson('Text', 'Three points of contact');
    const editor = text.getByRole('textbox', { name: 'Text', exact: true });
    await editor.click();
    await page.keyboard.type('Keep ');
    await text.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('three points');
    await text.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type(' on the ladder at all times.');
    const shown = view().locator('.lesson-preview .rich-text');
    await expect.poll(() => shown.innerText()).toBe('Keep three points on the ladder at all times.');
    expect(await shown.innerHTML()).toContain('<strong>three points</strong>');
    await saveScreenshot(page, 'course-building-text-lesson', { fullPage: false });
    await saveLesson(text, 'Three points of contact', /^Text · /);

    await view().getByText('1 chapter · 3 lessons').waitFor();
    await saveScreenshot(page, 'course-building-outline', { fullPage: false });
  });

  it('publishes the course, and a learner finds it in the catalogue', async () => {
    await page.goto(`${baseUrl}/course/course`);
    await waitForShell(page);
    await courseRow().waitFor();
    await courseRow().getByRole('button', { name: 'Publish', exact: true }).click();
    const confirm = confirmDialog(page, TITLE);
    await confirm.getByRole('button', { name: /^confirm$/i }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => courseRow().locator('.ant-tag').allInnerTexts()).toContain('Published');
    expect(await courseRow().getByRole('button', { name: 'Archive', exact: true }).count()).toBe(1);
    await saveScreenshot(page, 'course-building-published', { fullPage: false });

    const found = await catalogue();
    expect(found.totalElements).toBe(1);
    expect(found.content[0]).toMatchObject({ title: TITLE, categoryName: CATEGORY, lessonCount: 3 });
    expect(found.content[0]?.cover).toEqual(expect.any(Number));
  });
});
