import { CLOCK_TOLERANCE_SECONDS, PAGE_DWELL_SECONDS } from '@cloud-classroom/shared/progress-rules';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot, skipAfterAFailure } from './browser.js';
import { addTokenCookie, api, apiLogin, baseUrl, confirmDialog, createLearner, englishContext, expectPath, pathOf, sharedAdminToken, waitForShell } from './session.js';

/**
 * A learner finds a course, applies for a term that needs approval, is approved by a teacher in
 * the back office, then studies: a video played to the end and resumed where it was left, a PDF
 * read page by page; a forged report earns nothing, and the teacher sees the progress. At a
 * phone's width, in Chinese, a second learner goes through every learner page, which must fit.
 */

/** The demo catalogue's course with a video, text and PDF lesson (seed data is Chinese in either language). */
const DEMO_COURSE = '消防安全基础';
const RUN = Date.now().toString(36);
/** The demo course has no term that needs approval: this run adds one, so no other journey's state matters. */
const TERM = `Approval ${RUN}`;
/** How long a PDF page stays open to count, with a second of slack. */
const DWELL_MS = (PAGE_DWELL_SECONDS + 1) * 1000;
/**
 * The most a playback can earn when (almost) no wall-clock time has passed since it began: the
 * clock's one tolerance (granted per playback, not per report), and a little for the milliseconds
 * between requests at the course's rate.
 */
const FORGED_MAX_SECONDS = CLOCK_TOLERANCE_SECONDS + 0.5;

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 375, height: 740 };

type Outline = { id: number; title: string; lessons: { id: number; title: string; type: 'video' | 'document' | 'text' }[] }[];
type LessonProgress = { coveredSeconds: number; percent: number; completed: boolean; position: number; pagesRead: number[] };
type SiteLesson = { id: number; title: string; progress: LessonProgress };
type ProgressResult = LessonProgress & { acceptedSeconds: number; superseded: boolean };
type Learner = { username: string; nickName: string; token: string };

const demo = { courseId: 0, termId: 0, video: { id: 0, title: '' }, text: { id: 0, title: '' }, document: { id: 0, title: '' } };

/** `yyyy-MM-dd HH:mm:ss`, as the wire writes times. */
function wireTime(time: number): string {
  const date = new Date(time);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * A learner of this run only (the demo learners are enrolled by the seed and used by other
 * journeys), signed in. Neither name may contain "learner": page-fit searches the users for it
 * and expects the three demo learners alone.
 */
async function newLearner(suffix: string, nickName: string): Promise<Learner> {
  const { username, token } = await createLearner(`e2e-${RUN}-${suffix}`, nickName, '研发部');
  return { username, nickName, token };
}

async function learnerContext(browser: Browser, learner: Learner, language: 'en-US' | 'zh-CN', viewport: typeof DESKTOP): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: language, viewport });
  await addTokenCookie(context, learner.token);
  await context.addCookies([{ name: 'language', value: language, url: baseUrl, sameSite: 'Lax' }]);
  return context;
}

/** The learner page has its data: nothing is loading any more, and the fonts are in. */
async function settled(page: Page): Promise<void> {
  await page.locator('.site-main').waitFor();
  await expect.poll(() => page.locator('.site-main [aria-busy="true"]').count(), { timeout: 20_000 }).toBe(0);
  await page.evaluate(() => document.fonts.ready);
}

/** How far the page is wider than the window (0: no horizontal scroll). */
function overflowOf(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

/** The page kept as a screenshot, and what it measured: a page wider than the window is a problem at any width. */
async function shootLearnerPage(page: Page, name: string, problems: string[]): Promise<void> {
  await settled(page);
  const overflow = await overflowOf(page);
  if (overflow > 0) problems.push(`${name}: the page is ${overflow} px wider than the window`);
  await saveScreenshot(page, name);
}

/** Share of the canvas's pixels that are not (nearly) white: a rendered page has text and lines on it. */
function inkOf(canvas: Locator): Promise<number> {
  return canvas.evaluate((element: HTMLCanvasElement) => {
    if (element.width === 0 || element.height === 0) return 0;
    // Read through a copy: reading the page's own canvas again and again makes Chromium warn.
    const copy = document.createElement('canvas');
    copy.width = element.width;
    copy.height = element.height;
    const context = copy.getContext('2d', { willReadFrequently: true })!;
    context.drawImage(element, 0, 0);
    const { data } = context.getImageData(0, 0, copy.width, copy.height);
    let inked = 0;
    for (let index = 0; index < data.length; index += 4) {
      if (data[index + 3]! > 0 && (data[index]! < 200 || data[index + 1]! < 200 || data[index + 2]! < 200)) inked += 1;
    }
    return inked / (data.length / 4);
  });
}

function siteLesson(learner: Learner, lessonId: number): Promise<SiteLesson> {
  return api<SiteLesson>(learner.token, 'GET', `/api/site/lessons/${lessonId}`);
}

beforeAll(async () => {
  const courses = await api<{ content: { id: number; title: string }[] }>(sharedAdminToken, 'GET', `/api/courses?q=${encodeURIComponent(DEMO_COURSE)}`);
  demo.courseId = courses.content.find((course) => course.title === DEMO_COURSE)!.id;
  const lessons = (await api<Outline>(sharedAdminToken, 'GET', `/api/courses/${demo.courseId}/outline`)).flatMap((chapter) => chapter.lessons);
  for (const type of ['video', 'text', 'document'] as const) {
    const lesson = lessons.find((one) => one.type === type);
    if (lesson === undefined) throw new Error(`the demo course has no ${type} lesson`);
    demo[type] = { id: lesson.id, title: lesson.title };
  }
  const now = Date.now();
  demo.termId = (
    await api<{ id: number }>(sharedAdminToken, 'POST', '/api/terms', {
      courseId: demo.courseId,
      name: TERM,
      startAt: wireTime(now - 86_400_000),
      endAt: wireTime(now + 30 * 86_400_000),
      capacity: null,
      enrolMode: 'approval',
    })
  ).id;
});

describe('journeys: at 1440 px in English, a learner applies, is approved, studies, and the teacher sees it', () => {
  let browser: Browser;
  let learner: Learner;
  let learnerContextOf: BrowserContext;
  let staffContext: BrowserContext;
  let page: Page;
  let staff: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    learner = await newLearner('d', 'Desk Student');
    learnerContextOf = await learnerContext(browser, learner, 'en-US', DESKTOP);
    page = await learnerContextOf.newPage();
    staffContext = await englishContext(browser, await apiLogin('teacher'), { viewport: DESKTOP });
    staff = await staffContext.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });
  skipAfterAFailure();

  const view = () => staff.locator('.app-view:not([hidden])');
  const applicantRow = () => view().locator('.ant-table-row').filter({ hasText: learner.username });

  it('finds the course with the search box, and applies for the term that needs approval', async () => {
    await page.goto(`${baseUrl}/home`);
    await page.getByRole('heading', { name: `Welcome, ${learner.nickName}` }).waitFor();
    await shootLearnerPage(page, 'learning-1440-home', problems);

    await page.getByRole('searchbox', { name: 'Search courses' }).fill(DEMO_COURSE);
    await page.getByRole('searchbox', { name: 'Search courses' }).press('Enter');
    await expectPath(page, `/home?q=${encodeURIComponent(DEMO_COURSE)}`);
    await page.getByRole('heading', { name: `Courses matching “${DEMO_COURSE}”` }).waitFor();
    await settled(page);
    await saveScreenshot(page, 'learning-1440-home-search');
    await page.locator('.course-site-card').getByRole('link', { name: DEMO_COURSE }).click();
    await expectPath(page, `/preview/${demo.courseId}`);

    const term = page.locator('label.course-site-term').filter({ hasText: TERM });
    await term.waitFor();
    expect(await term.innerText()).toContain('Needs approval');
    await term.locator('input[type=radio]').check();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Your application is waiting for approval.' }).waitFor();
    await shootLearnerPage(page, 'learning-1440-preview-pending', problems);
    // Not enrolled yet: the lesson that is not a free preview stays closed.
    const refused = await fetch(`${baseUrl}/api/site/lessons/${demo.document.id}`, { headers: { authorization: learner.token } });
    expect(refused.status).toBe(403);
  });

  it('the teacher finds the application on the applicants page and approves it', async () => {
    await staff.goto(`${baseUrl}/course/course`);
    await waitForShell(staff);
    await view().locator('#course-search-q').fill(DEMO_COURSE);
    await view().locator('#course-search-q').press('Enter');
    const courseRow = view().locator('.ant-table-row').filter({ has: staff.getByRole('button', { name: DEMO_COURSE, exact: true }) });
    await courseRow.getByRole('button', { name: DEMO_COURSE, exact: true }).click();
    await courseRow.getByText('Current', { exact: true }).waitFor();

    await staff.goto(`${baseUrl}/course/term/applicant`);
    await waitForShell(staff);
    await view().getByText(`Applicants of ${DEMO_COURSE}`).waitFor();
    await view().locator('#applicant-search-q').fill(learner.username);
    await view().locator('#applicant-search-q').press('Enter');
    await applicantRow().waitFor();
    await expect.poll(() => view().locator('.ant-table-row').count()).toBe(1);
    const cells = await applicantRow().innerText();
    expect(cells).toContain(TERM);
    expect(cells).toContain('Applied');
    expect(cells).toContain('Own application');

    await applicantRow().locator('.ant-checkbox-input').check();
    await view().getByRole('button', { name: /Approve$/ }).click();
    const confirm = confirmDialog(staff, 'Approve the selected enrolment?');
    await confirm.getByRole('button', { name: /^confirm$/i }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => applicantRow().locator('.ant-tag').allInnerTexts()).toContain('Approved');
    await saveScreenshot(staff, 'learning-1440-applicants-approved', { fullPage: false });
  });

  it('can start learning once approved', async () => {
    await page.reload();
    await page.getByRole('link', { name: 'Start learning' }).click();
    await expectPath(page, `/learning/${demo.courseId}`);
    await page.getByRole('heading', { name: DEMO_COURSE, level: 1 }).waitFor();
    await shootLearnerPage(page, 'learning-1440-learning', problems);
  });

  it('a forged report claiming an hour of the video earns no more than the clock allows', async () => {
    const forged = { sessionId: 'forged-session-1', intervals: [[0, 3600]], position: 3600 };
    const path = `/api/site/lessons/${demo.video.id}/progress`;
    // A playback's first report opens its clock, and the next, at once after, finds almost no time passed.
    const opened = await api<ProgressResult>(learner.token, 'POST', path, forged);
    const again = await api<ProgressResult>(learner.token, 'POST', path, forged);
    for (const result of [opened, again]) {
      expect(result.acceptedSeconds).toBeLessThanOrEqual(FORGED_MAX_SECONDS);
      expect(result.completed).toBe(false);
    }
    const stored = await siteLesson(learner, demo.video.id);
    expect(stored.progress.completed).toBe(false);
    expect(stored.progress.coveredSeconds).toBeLessThanOrEqual(FORGED_MAX_SECONDS);
    expect(stored.progress.percent).toBeLessThan(90);
  });

  it('plays the video to the end: the lesson is completed, on the page and on the server', { timeout: 90_000 }, async () => {
    await page.locator('.course-site-lesson').getByRole('link', { name: demo.video.title }).click();
    await expectPath(page, `/play?lesson=${demo.video.id}`);
    const video = page.locator('video.video-player__video');
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await shootLearnerPage(page, 'learning-1440-play-video', problems);
    // Headless Chromium plays a muted video without a gesture.
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      element.currentTime = 0;
      await element.play();
    });
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 10_000 }).toBeGreaterThan(1);
    await page.locator('.play-progress').getByText('Completed', { exact: true }).waitFor({ timeout: 40_000 });
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.ended)).toBe(true);
    const stored = await siteLesson(learner, demo.video.id);
    expect(stored.progress.completed).toBe(true);
    expect(stored.progress.percent).toBeGreaterThanOrEqual(90);
  });

  it('resumes the video where it was paused', async () => {
    const video = page.locator('video.video-player__video');
    // The player restarts a video saved within 5 s of its end (resumePosition): 8 s leaves 0–3 s.
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.currentTime = 1;
      await element.play();
    });
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 5_000 }).toBeGreaterThan(1.5);
    const paused = await video.evaluate((element: HTMLVideoElement) => {
      element.pause();
      return element.currentTime;
    });
    expect(paused).toBeLessThan(3);
    // The pause sends a report with the playhead.
    await expect.poll(async () => (await siteLesson(learner, demo.video.id)).progress.position, { timeout: 10_000 }).toBeCloseTo(paused, 0);

    await page.reload();
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => (element.readyState >= 1 ? element.currentTime : -1)), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(Math.abs((await video.evaluate((element: HTMLVideoElement) => element.currentTime)) - paused)).toBeLessThan(1);
    expect(await page.locator('.play-progress').getByText('Completed', { exact: true }).count()).toBe(1);
  });

  it('reads the PDF page by page: each page counts after its dwell, and all four complete the lesson', { timeout: 90_000 }, async () => {
    await page.goto(`${baseUrl}/learning/${demo.courseId}`);
    await page.locator('.course-site-lesson').getByRole('link', { name: demo.document.title }).click();
    await expectPath(page, `/play?lesson=${demo.document.id}`);
    const canvas = page.locator('canvas.pdf-lesson__canvas');
    await canvas.waitFor();
    // Page 1 drawn: a good share of the canvas is ink, not white.
    await expect.poll(() => inkOf(canvas), { timeout: 20_000 }).toBeGreaterThan(0.005);
    const pageOf = page.locator('.pdf-lesson__page');
    const read = page.locator('.pdf-lesson__read');
    await expect.poll(() => pageOf.innerText()).toBe('Page 1 / 4');
    await expect.poll(() => read.innerText()).toBe('0 / 4 pages read');
    await shootLearnerPage(page, 'learning-1440-play-document', problems);

    const next = page.getByRole('button', { name: 'Next page' });
    for (const number of [2, 3, 4]) {
      // eslint-disable-next-line no-restricted-syntax -- the dwell is what is tested: a page counts only once this much real time has passed on it
      await page.waitForTimeout(DWELL_MS);
      await next.click();
      await expect.poll(() => pageOf.innerText()).toBe(`Page ${number} / 4`);
      // The turn reports the new page, and the server counts the one left after its dwell.
      await expect.poll(() => read.innerText(), { timeout: 5_000 }).toBe(`${number - 1} / 4 pages read`);
    }
    expect(await next.isDisabled()).toBe(true);
    // The last page is counted by the report the player sends while it stays open.
    await expect.poll(() => read.innerText(), { timeout: 20_000 }).toBe('4 / 4 pages read');
    await page.locator('.play-progress').getByText('Completed', { exact: true }).waitFor();
    // Still drawn once completed: under load the redraw took longer than poll's default second.
    await expect.poll(() => inkOf(canvas), { timeout: 20_000 }).toBeGreaterThan(0.005);
    const stored = await siteLesson(learner, demo.document.id);
    expect(stored.progress).toMatchObject({ completed: true, percent: 100, pagesRead: [1, 2, 3, 4] });
  });

  it('the other learner pages: a text lesson, the learning center, the settings, the downloads', async () => {
    await page.goto(`${baseUrl}/play?lesson=${demo.text.id}`);
    await page.getByRole('heading', { name: demo.text.title, level: 1 }).waitFor();
    await shootLearnerPage(page, 'learning-1440-play-text', problems);
    await page.goto(`${baseUrl}/user-center`);
    await page.locator('.course-site-card').filter({ hasText: DEMO_COURSE }).waitFor();
    await shootLearnerPage(page, 'learning-1440-user-center', problems);
    await page.goto(`${baseUrl}/user-setting`);
    await page.locator('form.user-site-form').first().waitFor();
    await shootLearnerPage(page, 'learning-1440-user-setting', problems);
    await page.goto(`${baseUrl}/download`);
    // The published packages (the demo's user guide at least), or the empty state.
    await page.locator('.download-site-package, .site-state').first().waitFor();
    await shootLearnerPage(page, 'learning-1440-download', problems);
    expect(problems).toEqual([]);
  });

  it("the teacher sees the learner's progress in the applicants list", async () => {
    await staff.reload();
    await waitForShell(staff);
    await view().locator('#applicant-search-q').fill(learner.username);
    await view().locator('#applicant-search-q').press('Enter');
    await expect.poll(() => view().locator('.ant-table-row').count()).toBe(1);
    await expect.poll(() => applicantRow().locator('.ant-tag').allInnerTexts()).toContain('In progress');
    const percent = Number(await applicantRow().getByRole('progressbar').getAttribute('aria-valuenow'));
    expect(percent).toBeGreaterThan(0);
    const course = await api<{ progress: { percent: number } }>(learner.token, 'GET', `/api/site/courses/${demo.courseId}`);
    expect(percent).toBe(course.progress.percent);
    await saveScreenshot(staff, 'learning-1440-applicants-progress', { fullPage: false });
  });
});

describe('journeys: at 375 px in Chinese, every learner page fits the phone', () => {
  let browser: Browser;
  let learner: Learner;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    learner = await newLearner('p', '手机学员');
    context = await learnerContext(browser, learner, 'zh-CN', PHONE);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });
  skipAfterAFailure();

  it('searches, applies and waits for approval on a phone', async () => {
    await page.goto(`${baseUrl}/home`);
    await page.getByRole('heading', { name: `欢迎，${learner.nickName}` }).waitFor();
    await shootLearnerPage(page, 'learning-375-home', problems);
    await page.getByRole('searchbox', { name: '搜索课程' }).fill(DEMO_COURSE);
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    await page.getByRole('heading', { name: `与“${DEMO_COURSE}”匹配的课程` }).waitFor();
    await shootLearnerPage(page, 'learning-375-home-search', problems);
    await page.locator('.course-site-card').getByRole('link', { name: DEMO_COURSE }).click();
    await expectPath(page, `/preview/${demo.courseId}`);
    await page.locator('label.course-site-term').filter({ hasText: TERM }).locator('input[type=radio]').check();
    await page.getByRole('button', { name: '报名', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '你的报名正在等待审核。' }).waitFor();
    await shootLearnerPage(page, 'learning-375-preview-pending', problems);
    expect(problems).toEqual([]);
  });

  it('once approved (through the API here; the desktop journey does it in the page), studies on a phone', { timeout: 60_000 }, async () => {
    const teacher = await apiLogin('teacher');
    const applicants = await api<{ content: { id: number; username: string; status: string }[] }>(
      teacher,
      'GET',
      `/api/applicants?courseId=${demo.courseId}&termId=${demo.termId}&q=${learner.username}`,
    );
    expect(applicants.content.map(({ username, status }) => ({ username, status }))).toEqual([{ username: learner.username, status: 'applied' }]);
    await api(teacher, 'PUT', '/api/applicants/approve', [applicants.content[0]!.id]);

    await page.reload();
    await page.getByRole('link', { name: '开始学习' }).click();
    await expectPath(page, `/learning/${demo.courseId}`);
    await page.getByRole('heading', { name: DEMO_COURSE, level: 1 }).waitFor();
    await shootLearnerPage(page, 'learning-375-learning', problems);

    await page.locator('.course-site-lesson').getByRole('link', { name: demo.video.title }).click();
    const video = page.locator('video.video-player__video');
    // Its first frame is showing (HAVE_CURRENT_DATA), for the screenshot.
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    // The player is no wider than the phone.
    expect((await video.boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
    await shootLearnerPage(page, 'learning-375-play-video', problems);

    await page.goto(`${baseUrl}/play?lesson=${demo.document.id}`);
    const canvas = page.locator('canvas.pdf-lesson__canvas');
    await expect.poll(() => inkOf(canvas), { timeout: 20_000 }).toBeGreaterThan(0.005);
    expect((await canvas.boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await page.locator('.pdf-lesson__page').innerText()).toBe('第 1 / 4 页');
    await shootLearnerPage(page, 'learning-375-play-document', problems);

    await page.goto(`${baseUrl}/play?lesson=${demo.text.id}`);
    await page.getByRole('heading', { name: demo.text.title, level: 1 }).waitFor();
    await shootLearnerPage(page, 'learning-375-play-text', problems);
    await page.goto(`${baseUrl}/user-center`);
    await page.locator('.course-site-card').filter({ hasText: DEMO_COURSE }).waitFor();
    await shootLearnerPage(page, 'learning-375-user-center', problems);
    await page.goto(`${baseUrl}/user-setting`);
    await page.locator('form.user-site-form').first().waitFor();
    await shootLearnerPage(page, 'learning-375-user-setting', problems);
    await page.goto(`${baseUrl}/download`);
    // The published packages (the demo's user guide at least), or the empty state.
    await page.locator('.download-site-package, .site-state').first().waitFor();
    await shootLearnerPage(page, 'learning-375-download', problems);
    expect(pathOf(page)).toBe('/download');
    expect(problems).toEqual([]);
  });
});
