import type { CensusRow, CensusUser } from '@cloud-classroom/shared/census';
import type { TrainingDashboard } from '@cloud-classroom/shared/dashboard';
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot } from './browser.js';
import {
  addTokenCookie,
  api,
  apiLogin,
  baseUrl,
  createLearner,
  expectPath,
  openFromSidebar,
  openSelectDropdown,
  sharedAdminToken,
  waitForShell,
} from './session.js';

/**
 * Issue 15's journeys: the training figures staff read and the bell a learner hears them by.
 *
 * - The census: the list (学员统计) filtered by a department shows its people, and a name opens
 *   the person's record, whose exam attempts and certificates are there. learner1's record (the
 *   demo's study days, course and certificate, and the login this journey makes) draws its chart,
 *   follows a new range of days, and its workbook holds the figures the page shows.
 * - The dashboard: the training figures of the demo data with their charts drawn; the overdue
 *   course opens the applicants list filtered to the overdue.
 * - The bell: a learner of this run (the demo's learners are other journeys'), signed in on the
 *   learner site, is assigned a course by staff; the badge goes from nothing to 1 without a reload
 *   (pushed over /websocket), the panel tells which course, and "mark all read" clears it. Again
 *   at a phone's width.
 *
 * The back office speaks Chinese here (its default, and the menu's name the issue gives).
 */

const RUN = Date.now().toString(36);
/** Neither name contains "learner" (page-fit expects the demo's three alone when it searches for it). */
const LEARNER = { username: `e2e-${RUN}-bell`, nickName: '吴思远' } as const;
/** A department no assignment rule covers, so the new learner starts with no notification. */
const LEARNER_DEPT = '研发部';
/** The demo's 研发部 holds learner1 and linfeng, who sat the demo exam (demo-candidates.ts, demo-attempts.ts). */
const CENSUS_DEPT = '研发部';
/** The demo organisation's root department, which the picker shows first. */
const ORGANISATION = '云课堂';
const EXAM_TAKER = { username: 'linfeng', nickName: '林峰' } as const;
/** The courses staff assign the bell's learner, a term each (demo-courses.ts). */
const ASSIGNED = [
  { course: '消防安全基础', term: '新员工入职批次' },
  { course: '高效沟通', term: '春季公开班' },
] as const;

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 375, height: 740 };

/** The census's study time as the page says it in Chinese (features/census/study-time.ts). */
function studyTime(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} 分` : `${Math.floor(minutes / 60)} 小时 ${minutes % 60} 分`;
}

/** `yyyy-MM-dd` plus some days, as calendar arithmetic (no zone involved). */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** How far the page is wider than the window (0: no horizontal scroll). */
function overflowOf(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

/** The sheets of an .xlsx, each as its rows of values (the header first). */
async function sheetsOf(file: string): Promise<Map<string, unknown[][]>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(fs.readFileSync(file) as unknown as ArrayBuffer);
  const sheets = new Map<string, unknown[][]>();
  for (const sheet of workbook.worksheets) {
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    sheets.set(sheet.name, rows);
  }
  return sheets;
}

/** A card of the census record, by its title. */
function section(page: Page, title: string): Locator {
  return page.locator('.census-user .ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: new RegExp(`^${title}$`) }) });
}

/** The text of each cell of a table row. */
function cellsOf(row: Locator): Promise<string[]> {
  return row.locator('td').allInnerTexts();
}

/** The value beside a label of the record's summary. */
function summaryValue(page: Page, label: string): Locator {
  return page.locator('.census-user .ant-descriptions-item').filter({ has: page.locator('.ant-descriptions-item-label', { hasText: new RegExp(`^${label}$`) }) }).locator('.ant-descriptions-item-content');
}

/** The record page has its answer in and drawn: nothing loading, the fonts in. */
async function recordSettled(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.census-user .ant-spin-spinning').count(), { timeout: 20_000 }).toBe(0);
  await page.evaluate(() => document.fonts.ready);
}

describe('journeys: training statistics — the census list and a learner’s record with its workbook, the dashboard’s figures, and the notification bell', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function staffContext(viewport: typeof DESKTOP): Promise<BrowserContext> {
    const context = await browser.newContext({ locale: 'zh-CN', viewport, acceptDownloads: true });
    await addTokenCookie(context, sharedAdminToken);
    await context.addCookies([{ name: 'language', value: 'zh-CN', url: baseUrl, sameSite: 'Lax' }]);
    return context;
  }

  it('the census list filtered by a department shows its people; a name opens the record with the person’s attempts and certificates', async () => {
    const context = await staffContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/dashboard`);
    await waitForShell(page);
    await openFromSidebar(page, '课程中心', '学员统计');
    await expectPath(page, '/course/census');
    const view = page.locator('.app-view:not([hidden])');
    await view.locator('.ant-table-row').first().waitFor();

    // The department picker's tree loads a level at a time: open the organisation, choose the department.
    await view.locator('#census-search-dept').click();
    const tree = openSelectDropdown(page);
    const deptNode = tree.locator(`.ant-select-tree-node-content-wrapper[title="${CENSUS_DEPT}"]`);
    const organisation = tree.locator('.ant-select-tree-treenode').filter({ has: page.locator(`.ant-select-tree-node-content-wrapper[title="${ORGANISATION}"]`) });
    await organisation.waitFor();
    if (!(await deptNode.isVisible())) await organisation.locator('.ant-select-tree-switcher_close').click();
    await deptNode.click();
    const listed = page.waitForResponse((response) => response.url().includes('/api/census/users?') && response.url().includes('deptId='));
    await view.getByRole('button', { name: /搜索/ }).click();
    const { content } = (await (await listed).json()) as { content: CensusRow[] };
    expect(content.length).toBeGreaterThan(0);
    expect(content.every((row) => row.deptName === CENSUS_DEPT)).toBe(true);
    const person = content.find((row) => row.username === EXAM_TAKER.username);
    expect(person, `${EXAM_TAKER.username} in ${CENSUS_DEPT}`).toBeDefined();
    await expect.poll(() => view.locator('.ant-table-row').count()).toBe(content.length);
    const row = view.locator('.ant-table-row').filter({ hasText: EXAM_TAKER.username });
    const cells = await cellsOf(row);
    expect(cells).toContain(EXAM_TAKER.nickName);
    expect(cells).toContain(String(person!.examsAttempted));
    await page.evaluate(() => document.fonts.ready);
    await saveScreenshot(page, 'training-census-list-desktop');
    await page.setViewportSize(PHONE);
    await row.waitFor();
    // A chart follows the new width a frame or more later (ECharts' resize observer): its old width once overflowed.
    await expect.poll(() => overflowOf(page)).toBe(0);
    await saveScreenshot(page, 'training-census-list-phone');
    await page.setViewportSize(DESKTOP);
    await waitForShell(page);

    // The name opens the record (a page of its own, in a tab of its own).
    const opened = page.waitForResponse((response) => new URL(response.url()).pathname === `/api/census/users/${person!.userId}`);
    await row.getByRole('link', { name: EXAM_TAKER.nickName }).click();
    await expectPath(page, `/edu/user-census-detail?id=${person!.userId}`);
    const record = (await (await opened).json()) as CensusUser;
    await page.locator('.census-user h4').filter({ hasText: `${EXAM_TAKER.nickName} (${EXAM_TAKER.username})` }).waitFor();
    await recordSettled(page);
    expect(record.attempts.length).toBeGreaterThan(0);
    const attempts = section(page, '考试记录').locator('.ant-table-row');
    await expect.poll(() => attempts.count()).toBe(record.attempts.length);
    for (const [index, attempt] of record.attempts.entries()) {
      const shown = await cellsOf(attempts.nth(index));
      expect(shown[0]).toBe(attempt.examTitle);
      expect(shown[2]).toBe(attempt.score === null ? shown[2] : `${attempt.score} / ${attempt.totalScore}`);
    }
    expect(record.certificates.length).toBeGreaterThan(0);
    const certificates = section(page, '证书').locator('.ant-table-row');
    await expect.poll(() => certificates.count()).toBe(record.certificates.length);
    expect((await cellsOf(certificates.first()))[0]).toBe(record.certificates[0]!.number);
    await saveScreenshot(page, 'training-census-record-attempts-desktop');

    await page.setViewportSize(PHONE);
    await recordSettled(page);
    // A chart follows the new width a frame or more later (ECharts' resize observer): its old width once overflowed.
    await expect.poll(() => overflowOf(page)).toBe(0);
    await saveScreenshot(page, 'training-census-record-attempts-phone');
    await context.close();
  });

  it('learner1’s record draws the study chart and lists courses, certificates and logins; a new range of days changes the figures; the workbook holds what the page shows', async () => {
    // A login of this run, so the record's logins have one whatever ran before.
    await apiLogin('learner1');
    const learner1 = (await api<{ content: CensusRow[] }>(sharedAdminToken, 'GET', '/api/census/users?blurry=learner1')).content.find((row) => row.username === 'learner1');
    expect(learner1).toBeDefined();
    const id = learner1!.userId;
    const context = await staffContext(DESKTOP);
    const page = await context.newPage();
    const recordPath = `/api/census/users/${id}`;
    const first = page.waitForResponse((response) => new URL(response.url()).pathname === recordPath);
    await page.goto(`${baseUrl}/edu/user-census-detail?id=${id}`);
    await waitForShell(page);
    const before = (await (await first).json()) as CensusUser;
    await page.locator('.census-user h4').filter({ hasText: '李明 (learner1)' }).waitFor();
    await recordSettled(page);

    // The demo filed study time on several of the last ten days: the chart is drawn (ECharts' SVG).
    const studied = before.days.reduce((sum, day) => sum + day.seconds, 0);
    expect(studied).toBeGreaterThan(0);
    await page.locator('.census-user__chart svg').waitFor();
    expect(await summaryValue(page, '学习时长').innerText()).toBe(studyTime(studied));
    expect(await page.getByText(`${before.from} 至 ${before.to}`).count()).toBe(1);
    const courses = section(page, '课程进度').locator('.ant-table-row');
    await expect.poll(() => courses.count()).toBe(before.courses.length);
    const course = before.courses.find((one) => one.title === '消防安全基础');
    expect(course, 'learner1 studies 消防安全基础 in the demo').toBeDefined();
    const courseCells = await cellsOf(courses.filter({ hasText: course!.title }));
    expect(courseCells).toEqual([course!.title, `${course!.percent}%`, expect.any(String), course!.enrolledAt, course!.completedAt ?? '']);
    const certificates = section(page, '证书').locator('.ant-table-row');
    await expect.poll(() => certificates.count()).toBe(before.certificates.length);
    expect(before.certificates.length).toBeGreaterThan(0);
    const logins = section(page, '登录记录').locator('.ant-table-row');
    expect(before.logins.length).toBeGreaterThan(0);
    await expect.poll(() => logins.count()).toBe(before.logins.length);
    await saveScreenshot(page, 'training-census-record-desktop');

    // Three days ending yesterday (in the organisation's zone, as the server counts them): picked
    // in the calendar, the chart and the figures follow.
    const range = { from: addDays(before.to, -3), to: addDays(before.to, -1) };
    await page.locator('#census-user-days').click();
    const calendar = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
    const changed = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === recordPath && url.searchParams.get('from') === range.from && url.searchParams.get('to') === range.to;
    });
    await calendar.locator(`td.ant-picker-cell-in-view[title="${range.from}"]`).first().click();
    await calendar.locator(`td.ant-picker-cell-in-view[title="${range.to}"]`).first().click();
    const after = (await (await changed).json()) as CensusUser;
    expect(after.days.map((day) => day.day)).toEqual([range.from, addDays(range.from, 1), range.to]);
    const studiedAfter = after.days.reduce((sum, day) => sum + day.seconds, 0);
    expect(studiedAfter).not.toBe(studied);
    await page.getByText(`${range.from} 至 ${range.to}`).waitFor();
    await recordSettled(page);
    await expect.poll(() => summaryValue(page, '学习时长').innerText()).toBe(studyTime(studiedAfter));
    if (studiedAfter > 0) await page.locator('.census-user__chart svg').waitFor();
    else await page.getByText('这段时间没有学习记录').waitFor();
    await saveScreenshot(page, 'training-census-record-range-desktop');

    // The export saves the record of the days shown; its sheets say what the page says.
    const downloading = page.waitForEvent('download');
    await page.locator('.census-user').getByRole('button', { name: /导出/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/学员学习档案-李明\.xlsx$/);
    const sheets = await sheetsOf(await download.path());
    const [overviewHeader, overview] = sheets.get('概览') ?? [];
    const overviewOf = (header: string) => overview?.[overviewHeader?.indexOf(header) ?? -1];
    expect(overviewOf('用户名')).toBe('learner1');
    expect([overviewOf('开始日期'), overviewOf('结束日期')]).toEqual([range.from, range.to]);
    const dailyRows = (sheets.get('每日学习') ?? []).slice(1);
    expect(dailyRows.map((day) => day[0])).toEqual(after.days.map((day) => day.day));
    const workbookSeconds = dailyRows.reduce((sum, day) => sum + Number(day[1]), 0);
    expect(studyTime(workbookSeconds)).toBe(await summaryValue(page, '学习时长').innerText());
    expect(overviewOf('学习时长 (秒)')).toBe(workbookSeconds);
    const [courseHeader, ...courseRows] = sheets.get('课程') ?? [];
    const workbookCourse = courseRows.find((one) => one[courseHeader!.indexOf('课程')] === course!.title);
    const shownCourse = await cellsOf(courses.filter({ hasText: course!.title }));
    expect(`${String(workbookCourse?.[courseHeader!.indexOf('进度 (%)')])}%`).toBe(shownCourse[1]);
    expect(workbookCourse?.[courseHeader!.indexOf('报名时间')]).toBe(shownCourse[3]);
    expect(workbookCourse?.[courseHeader!.indexOf('完成时间')] ?? '').toBe(shownCourse[4]);
    const certificateRows = (sheets.get('证书') ?? []).slice(1);
    expect(certificateRows.map((one) => one[0])).toEqual((await certificates.allInnerTexts()).map((text) => text.split('\t')[0]));
    expect((sheets.get('登录') ?? []).length - 1).toBe(await logins.count());

    await page.setViewportSize(PHONE);
    await recordSettled(page);
    // A chart follows the new width a frame or more later (ECharts' resize observer): its old width once overflowed.
    await expect.poll(() => overflowOf(page)).toBe(0);
    await saveScreenshot(page, 'training-census-record-phone');
    await context.close();
  });

  it('the dashboard shows the demo’s training figures with their charts; the overdue course opens the applicants list of the overdue', async () => {
    const context = await staffContext(DESKTOP);
    const page = await context.newPage();
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/dashboard/training');
    await page.goto(`${baseUrl}/dashboard`);
    await waitForShell(page);
    const data = (await (await answered).json()) as TrainingDashboard;
    const training = page.locator('.dashboard-training');
    await training.waitFor();
    // The demo's figures: people studied, someone is enrolled, the exam is open, certificates were issued, learner2 is overdue.
    expect(data.days.some((day) => day.studySeconds > 0)).toBe(true);
    expect(data.enrolments.active).toBeGreaterThan(0);
    expect(data.openExams.total).toBeGreaterThan(0);
    expect(data.certificates.valid).toBeGreaterThan(0);
    expect(data.overdue.courses.length).toBeGreaterThan(0);
    const overdue = data.overdue.enrolments + data.overdue.examAssignments;
    await training.getByRole('link', { name: `逾期未完成: ${overdue}` }).waitFor();
    await training.getByRole('link', { name: `进行中的考试: ${data.openExams.total}` }).waitFor();
    await training.getByRole('link', { name: `颁发证书: ${data.certificates.issuedInPeriod}` }).waitFor();
    const figure = (title: string) => training.locator('.dashboard-figure').filter({ hasText: title }).locator('.ant-statistic-content-value');
    expect(await figure('在学报名').innerText()).toBe(String(data.enrolments.active));
    const hours = Math.round((data.days.reduce((sum, day) => sum + day.studySeconds, 0) / 3600) * 10) / 10;
    expect(Number((await figure('学习时长 (小时)').innerText()).replace(/,/g, ''))).toBe(hours);
    // Three charts (study, enrolments, pass rates), each drawn as SVG.
    await expect.poll(() => training.locator('.chart svg').count(), { timeout: 20_000 }).toBe(3);
    await page.evaluate(() => document.fonts.ready);
    await saveScreenshot(page, 'training-dashboard-desktop');
    await page.setViewportSize(PHONE);
    await expect.poll(() => training.locator('.chart svg').count()).toBe(3);
    // A chart follows the new width a frame or more later (ECharts' resize observer): its old width once overflowed.
    await expect.poll(() => overflowOf(page)).toBe(0);
    await saveScreenshot(page, 'training-dashboard-phone');
    await page.setViewportSize(DESKTOP);

    // The overdue course: the applicants page of that course, only the overdue.
    const overdueCourse = data.overdue.courses[0]!;
    const listed = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/applicants' && url.searchParams.get('overdue') !== null;
    });
    await page.locator('#dashboard-overdue').getByRole('link', { name: overdueCourse.title }).click();
    await expectPath(page, '/course/term/applicant?overdue=1');
    const { content } = (await (await listed).json()) as { content: { username: string; courseTitle: string }[] };
    expect(content.length).toBe(overdueCourse.count);
    expect(content.every((row) => row.courseTitle === overdueCourse.title)).toBe(true);
    const view = page.locator('.app-view:not([hidden])');
    await expect.poll(() => view.locator('.ant-table-row').count()).toBe(content.length);
    expect(await view.locator('.ant-table-row').first().innerText()).toContain(content[0]!.username);
    await saveScreenshot(page, 'training-dashboard-overdue-applicants');
    await context.close();
  });

  describe('the bell', () => {
    let learnerToken = '';
    let learnerId = 0;

    beforeAll(async () => {
      learnerToken = (await createLearner(LEARNER.username, LEARNER.nickName, LEARNER_DEPT)).token;
      learnerId = (await api<{ content: CensusRow[] }>(sharedAdminToken, 'GET', `/api/census/users?blurry=${LEARNER.username}`)).content[0]!.userId;
    });

    /** Staff enrol the learner in a term of the course, through the applicants API (as the page's "add" does). */
    async function assign(course: string, termName: string): Promise<void> {
      const courseId = (await api<{ content: { id: number; title: string }[] }>(sharedAdminToken, 'GET', `/api/courses?size=50`)).content.find((one) => one.title === course)?.id;
      const terms = (await api<{ content: { id: number; name: string }[] }>(sharedAdminToken, 'GET', `/api/terms?courseId=${courseId}`)).content;
      const term = terms.find((one) => one.name === termName);
      if (term === undefined) throw new Error(`no term ${termName} of ${course}`);
      expect(await api(sharedAdminToken, 'POST', '/api/applicants', { termId: term.id, userIds: [learnerId] })).toEqual({ created: 1, existing: 0 });
    }

    /** The learner's page with its socket open (counted by a wrapper the page cannot tell from WebSocket). */
    async function learnerPage(viewport: typeof DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser.newContext({ locale: 'zh-CN', viewport });
      await addTokenCookie(context, learnerToken);
      await context.addCookies([{ name: 'language', value: 'zh-CN', url: baseUrl, sameSite: 'Lax' }]);
      const page = await context.newPage();
      await page.addInitScript(() => {
        const Native = window.WebSocket;
        const state = { open: 0 };
        Object.assign(window, { socketState: state });
        window.WebSocket = class extends Native {
          constructor(...args: ConstructorParameters<typeof WebSocket>) {
            super(...args);
            this.addEventListener('open', () => (state.open += 1));
            this.addEventListener('close', () => (state.open -= 1));
          }
        };
      });
      const listed = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/site/notifications');
      await page.goto(`${baseUrl}/user-center`);
      await listed;
      await page.locator('.notification-bell__button').waitFor();
      // The server registers the socket before it answers the handshake: once open here, a push reaches it.
      await page.waitForFunction(() => (window as unknown as { socketState: { open: number } }).socketState.open > 0);
      await page.evaluate(() => Object.assign(window, { notReloaded: true }));
      return { context, page };
    }

    async function expectBadge(page: Page, count: number): Promise<void> {
      const badge = page.locator('[data-testid="notification-badge"]');
      if (count === 0) await badge.waitFor({ state: 'detached' });
      else await expect.poll(() => badge.innerText(), { timeout: 20_000 }).toBe(String(count));
      await page.getByRole('button', { name: count === 0 ? '通知' : `通知，${count} 条未读`, exact: true }).waitFor();
    }

    async function readAndClear(page: Page, name: string, course: string): Promise<void> {
      await page.locator('.notification-bell__button').click();
      const panel = page.getByRole('region', { name: '通知' });
      // The newest first: the course just assigned.
      await panel.getByRole('listitem').first().getByText(`您已被安排学习课程“${course}”`, { exact: true }).waitFor();
      await page.evaluate(() => document.fonts.ready);
      await saveScreenshot(page, name, { fullPage: false });
      const box = await panel.boundingBox();
      const width = page.viewportSize()!.width;
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      const read = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/site/notifications/read-all');
      await panel.getByRole('button', { name: '全部已读' }).click();
      expect((await read).status()).toBe(200);
      await expectBadge(page, 0);
      expect((await api<{ unreadCount: number }>(learnerToken, 'GET', '/api/site/notifications')).unreadCount).toBe(0);
      await saveScreenshot(page, `${name}-read`, { fullPage: false });
    }

    it('a course staff assign lights the learner’s bell without a reload; the panel tells it and "mark all read" clears it', async () => {
      const { context, page } = await learnerPage(DESKTOP);
      await expectBadge(page, 0);
      await assign(ASSIGNED[0].course, ASSIGNED[0].term);
      await expectBadge(page, 1);
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      await readAndClear(page, 'training-bell-desktop', ASSIGNED[0].course);
      await context.close();
    });

    it('at a phone’s width too', async () => {
      const { context, page } = await learnerPage(PHONE);
      await expectBadge(page, 0);
      await assign(ASSIGNED[1].course, ASSIGNED[1].term);
      await expectBadge(page, 1);
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      // A chart follows the new width a frame or more later (ECharts' resize observer): its old width once overflowed.
    await expect.poll(() => overflowOf(page)).toBe(0);
      await readAndClear(page, 'training-bell-phone', ASSIGNED[1].course);
      await context.close();
    });
  });
});
