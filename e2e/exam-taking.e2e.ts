import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectConsoleMessage, launchBrowser, saveScreenshot, skipAfterAFailure } from './browser.js';
import { api, apiLogin, baseUrl, englishContext, waitForShell } from './session.js';

/**
 * A learner takes the demo exam through a network drop: offline, two answers wait in the
 * browser (IndexedDB); the tab is closed while offline and opened again once the network is back
 * (a page cannot load offline: there is no service worker), and both answers reach the server.
 * Another device resumes the same attempt with the same remaining time and the same first
 * question, writes the short answers and submits. The teacher marks the short answers by question
 * with the keyboard alone, and the report lists the attempt with its score.
 */

/** The demo seed's exam (demo-exams.ts); seed data is Chinese in either language. */
const EXAM_TITLE = '消防安全基础 结业考试';
/**
 * The demo learner in the teacher's data scope (学员服务组, under 培训部), assigned the exam by the
 * demo's department rule: the teacher may mark their answers and sees them in the report.
 */
const LEARNER = { username: 'learner3', nickName: '赵磊' } as const;
/** The exam's first two questions (its fixed section, not shuffled; options are, so they are found by text). */
const FIRST_TWO = [
  { choice: '二氧化碳灭火器', key: 'B' },
  { choice: '沿安全出口和疏散楼梯撤离', key: 'B' },
] as const;
const SHORT_ANSWERS = [
  '一提、二拔、三握、四压：站在上风方向离火两三米，拔掉保险销，握住喷管对准火焰根部，压下压把左右扫射。用前看压力表是否在绿区。',
  '不乘电梯；门把手发烫就不开门，用湿毛巾堵住门缝、捂住口鼻；拨打 119 讲清 12 层的位置，在窗口挥动衣物求救，不跳楼。',
] as const;

const DESKTOP = { width: 1440, height: 900 };

type Saved = { questionId: number; response: unknown; revision: number };
type Start = { id: number; questions: { id: number; type: string }[]; answers: Saved[] };

/**
 * The learner's browser's user agent: the journey's own look at the server goes as that browser,
 * or the attempt's integrity timeline would note a device change that no learner made.
 */
let browserAgent: string | undefined;

/** The seconds a countdown shows (`mm:ss` or `h:mm:ss`). */
function secondsOf(text: string): number {
  return text
    .trim()
    .split(':')
    .reduce((total, part) => total * 60 + Number(part), 0);
}

/** How many answers the page keeps in IndexedDB, waiting for the server. */
function pendingInBrowser(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('cloud-classroom-attempts');
        open.onerror = () => reject(open.error ?? new Error('IndexedDB did not open'));
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('answers')) {
            db.close();
            resolve(0);
            return;
          }
          const count = db.transaction('answers').objectStore('answers').count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error ?? new Error('IndexedDB count failed'));
        };
      }),
  );
}

describe('journeys: a learner takes an exam through a network drop and a second device; the teacher marks it; the report shows it', () => {
  let browser: Browser;
  let learnerContext: BrowserContext;
  let learnerToken: string;
  let teacherToken: string;
  let examId = 0;
  let attemptId = 0;
  /** The attempt's first two questions, as the server froze the paper. */
  let firstTwo: number[] = [];
  let page: Page;
  let secondPage: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    learnerToken = await apiLogin(LEARNER.username);
    teacherToken = await apiLogin('teacher');
    const exams = await api<{ id: number; title: string; attemptsLeft: number }[]>(learnerToken, 'GET', '/api/site/exams', undefined, { userAgent: browserAgent });
    const exam = exams.find((one) => one.title === EXAM_TITLE);
    if (exam === undefined) throw new Error(`${LEARNER.username} is not assigned ${EXAM_TITLE}: ${exams.map((one) => one.title).join(', ')}`);
    expect(exam.attemptsLeft).toBeGreaterThan(0);
    examId = exam.id;
    learnerContext = await englishContext(browser, learnerToken, { viewport: DESKTOP });
  });
  afterAll(async () => {
    await browser?.close();
  });
  skipAfterAFailure();

  const paper = (on: Page) => on.getByRole('region', { name: 'Question', exact: true });
  const timer = (on: Page) => on.getByRole('timer');
  const choice = (on: Page, text: string) => paper(on).getByRole('radio', { name: new RegExp(text) });

  /** My open attempt as the server has it (a start resumes the open attempt: 200, nothing new). */
  const serverAttempt = () => api<Start>(learnerToken, 'POST', `/api/site/exams/${examId}/attempts`, undefined, { userAgent: browserAgent });

  it('starts the demo exam', async () => {
    page = await learnerContext.newPage();
    browserAgent = await page.evaluate(() => navigator.userAgent);
    await page.goto(`${baseUrl}/answer-exam?exam=${examId}`);
    await page.getByRole('heading', { name: EXAM_TITLE }).waitFor();
    await page.getByRole('button', { name: 'Start the exam' }).click();
    await timer(page).waitFor();
    await page.getByText(`1 / 15`).waitFor();
    const attempt = await serverAttempt();
    attemptId = attempt.id;
    firstTwo = attempt.questions.slice(0, 2).map((question) => question.id);
    expect(attempt.questions.slice(0, 2).map((question) => question.type)).toEqual(['single', 'single']);
    expect(attempt.answers.filter((answer) => answer.revision > 0)).toEqual([]);
  });

  it('answers two questions offline: they wait in the browser, not on the server', async () => {
    // Every request made while offline fails in the browser's console; that is the point here.
    expectConsoleMessage(page, /ERR_INTERNET_DISCONNECTED|Failed to fetch/, 'the journey takes the browser offline on purpose');
    await learnerContext.setOffline(true);
    await page.getByRole('alert').filter({ hasText: 'You are offline' }).waitFor();

    await choice(page, FIRST_TWO[0].choice).check();
    await page.getByRole('button', { name: /^Next/ }).click();
    await page.getByText('2 / 15').waitFor();
    await choice(page, FIRST_TWO[1].choice).check();
    await page.getByText('2 answers waiting to be saved').waitFor();
    await expect.poll(() => pendingInBrowser(page)).toBe(2);
    await saveScreenshot(page, 'exam-taking-offline', { fullPage: false });

    const onServer = await serverAttempt();
    expect(onServer.answers.filter((answer) => firstTwo.includes(answer.questionId) && answer.revision > 0)).toEqual([]);
  });

  it('closed offline and opened again online, the page brings the answers back from the browser and they reach the server', async () => {
    await page.close();
    await learnerContext.setOffline(false);
    page = await learnerContext.newPage();
    await page.goto(`${baseUrl}/answer-exam?exam=${examId}`);
    // My attempt is running: the page goes straight back to it.
    await timer(page).waitFor();
    await page.getByText('1 / 15').waitFor();
    expect(await choice(page, FIRST_TWO[0].choice).isChecked()).toBe(true);

    await expect
      .poll(async () => {
        const saved = (await serverAttempt()).answers.filter((answer) => firstTwo.includes(answer.questionId));
        return firstTwo.map((id) => saved.find((answer) => answer.questionId === id)?.response ?? null);
      })
      .toEqual(FIRST_TWO.map((question) => question.key));
    await expect.poll(() => pendingInBrowser(page)).toBe(0);
    await page.getByText(/^Saved at /).waitFor();
  });

  it('another device resumes the same attempt with the same time left and the same first question', async () => {
    const otherDevice = await englishContext(browser, await apiLogin(LEARNER.username), { viewport: DESKTOP });
    secondPage = await otherDevice.newPage();
    await secondPage.goto(`${baseUrl}/answer-exam?exam=${examId}`);
    await timer(secondPage).waitFor();
    await secondPage.getByText('1 / 15').waitFor();

    const [here, there] = await Promise.all([timer(page).innerText(), timer(secondPage).innerText()]);
    // Both count down from the server's deadline: read a moment apart, they agree to a second or two.
    expect(Math.abs(secondsOf(here) - secondsOf(there))).toBeLessThanOrEqual(2);
    expect(secondsOf(there)).toBeGreaterThan(25 * 60);
    expect(await paper(secondPage).innerText()).toBe(await paper(page).innerText());
    expect(await choice(secondPage, FIRST_TWO[0].choice).isChecked()).toBe(true);
    await saveScreenshot(secondPage, 'exam-taking-second-device', { fullPage: false });
    // The first device is left: what it would still send after the submission is refused (409).
    await learnerContext.close();
  });

  it('writes the short answers on the second device and submits', async () => {
    const start = await serverAttempt();
    const shorts = start.questions.flatMap((question, index) => (question.type === 'short' ? [index + 1] : []));
    expect(shorts).toHaveLength(SHORT_ANSWERS.length);
    for (const [at, number] of shorts.entries()) {
      await secondPage.getByRole('button', { name: new RegExp(`^Question ${number},`) }).click();
      await secondPage.getByText(`${number} / 15`).waitFor();
      await paper(secondPage).getByRole('textbox').fill(SHORT_ANSWERS[at] as string);
    }
    await secondPage.getByText(/^Saved at /).waitFor();
    await expect
      .poll(async () => (await serverAttempt()).answers.filter((answer) => SHORT_ANSWERS.includes(answer.response as (typeof SHORT_ANSWERS)[number])).length)
      .toBe(SHORT_ANSWERS.length);

    await secondPage.locator('.exam-panel').getByRole('button', { name: 'Submit', exact: true }).click();
    // The learner site's own dialog, not antd's: the role is its state.
    const confirm = secondPage.getByRole('dialog');
    await confirm.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect.poll(() => new URL(secondPage.url()).search).toBe(`?attempt=${attemptId}`);
    const result = await api<{ state: string; answeredCount: number }>(learnerToken, 'GET', `/api/site/attempts/${attemptId}`, undefined, { userAgent: browserAgent });
    expect(result).toMatchObject({ state: 'marking', answeredCount: 4 });
  });

  it('the teacher marks the short answers by question, with the keyboard alone', async () => {
    const context = await englishContext(browser, teacherToken, { viewport: DESKTOP });
    const marker = await context.newPage();
    await marker.goto(`${baseUrl}/edu/correct-exam?exam=${examId}`);
    await waitForShell(marker);
    const view = marker.locator('.app-view:not([hidden])');
    const left = view.getByText(/^\d+ to mark$/);
    await left.waitFor();
    let pending = Number.parseInt(await left.innerText(), 10);
    // Two short answers of this attempt, and those of the demo's candidates still awaiting a marker.
    expect(pending).toBeGreaterThanOrEqual(2);
    await saveScreenshot(marker, 'exam-taking-marking', { fullPage: false });
    while (pending > 0) {
      // The queue puts the cursor in the next answer's score: type it, Enter saves and moves on.
      await expect.poll(() => marker.evaluate(() => /^mark-\d+-score$/.test(document.activeElement?.id ?? ''))).toBe(true);
      await marker.keyboard.type('4');
      await marker.keyboard.press('Enter');
      pending -= 1;
      await view.getByText(pending === 0 ? /^0 to mark$/ : new RegExp(`^${pending} to mark$`)).waitFor();
    }
    await view.getByText(/^All marked/).waitFor();
    // The marker's timeline of the attempt has the network drop (recorded offline, sent from the browser's store), and
    // no device other than the learner's browser.
    const timeline = await api<{ events: { type: string }[] }>(teacherToken, 'GET', `/api/marking/attempts/${attemptId}`, undefined, { userAgent: browserAgent });
    const types = timeline.events.map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['start', 'resume', 'offline', 'submit']));
    expect(types).not.toContain('device_change');
    const result = await api<{ state: string; score: number | null }>(learnerToken, 'GET', `/api/site/attempts/${attemptId}`, undefined, { userAgent: browserAgent });
    expect(result.state).toBe('graded');
    expect(result.score).not.toBeNull();
  });

  it('the report lists the attempt with its score', async () => {
    const { score } = await api<{ score: number }>(learnerToken, 'GET', `/api/site/attempts/${attemptId}`, undefined, { userAgent: browserAgent });
    const context = await englishContext(browser, teacherToken, { viewport: DESKTOP });
    const reader = await context.newPage();
    await reader.goto(`${baseUrl}/edu/report-exam?exam=${examId}`);
    await waitForShell(reader);
    const view = reader.locator('.app-view:not([hidden])');
    const row = view.locator('.ant-table-row').filter({ hasText: `(${LEARNER.username})` });
    await row.waitFor();
    expect(await row.innerText()).toContain(LEARNER.nickName);
    expect((await row.locator('td').allInnerTexts()).map((cell) => cell.trim())).toContain(String(score));
    await saveScreenshot(reader, 'exam-taking-report');
  });
});
