import type { CategoryTree, Outline } from '@cloud-classroom/shared/courses';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, skipAfterAFailure } from './browser.js';
import { api, apiLogin, baseUrl, createLearner, englishContext, expectPath, openDialog, selectOption, waitForShell } from './session.js';

/**
 * Issue 30: a double click on 确定/保存/颁发 saved twice. Each of the five places it did is
 * double-clicked here, and the API finds one record: a course category (its dialog), a chapter
 * (the outline's form), a lesson (/edu/edit-lesson), an exam (/edu/edit-exam) and a certificate
 * (/edu/applicant-cert). The names are this run's, as the suite's server is shared.
 */

const RUN = Date.now().toString(36);
const CATEGORY = `Double click ${RUN}`;
const COURSE = `Once only ${RUN}`;
const CHAPTER = `Chapter ${RUN}`;
const LESSON = `Lesson ${RUN}`;
const EXAM = `Exam ${RUN}`;
/** Not "learner": page-fit expects the demo's three alone when it searches for that. */
const HOLDER = { username: `e2e-${RUN}-once`, nickName: '钱一次' } as const;
/** The demo department within the administrator's scope that the holder joins (seed data is Chinese in either language). */
const DEPT = '学员服务组';

type Paged<T> = { content: T[]; totalElements: number };

describe('journeys: a double click saves once', () => {
  let browser: Browser;
  let page: Page;
  let admin: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await apiLogin('admin');
    const context = await englishContext(browser, admin, { viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });
  skipAfterAFailure();

  const view = () => page.locator('.app-view:not([hidden])');

  /** Both clicks land before the page re-renders the button as busy, as a person's quick double click does. */
  const doubleClick = (button: Locator) => button.dblclick();

  let courseId: number;
  const outline = () => api<Outline>(admin, 'GET', `/api/courses/${courseId}/outline`);

  it('a course category’s dialog', async () => {
    await page.goto(`${baseUrl}/course/category`);
    await waitForShell(page);
    await view().locator('.ant-table-row').first().waitFor();
    await view().getByRole('button', { name: /Add$/ }).click();
    const dialog = openDialog(page).filter({ has: page.locator('form') });
    await dialog.getByLabel('Name', { exact: true }).fill(CATEGORY);
    await doubleClick(dialog.getByRole('button', { name: /^confirm$/i }));
    await dialog.waitFor({ state: 'hidden' });
    await view().getByText(CATEGORY, { exact: true }).waitFor();
    const tree = await api<CategoryTree[]>(admin, 'GET', '/api/categories');
    expect(tree.filter((category) => category.name === CATEGORY)).toHaveLength(1);
  });

  it('a chapter in the outline', async () => {
    ({ id: courseId } = await api<{ id: number }>(admin, 'POST', '/api/courses', { title: COURSE }));
    await page.goto(`${baseUrl}/course/course`);
    await waitForShell(page);
    const row = view().locator('.ant-table-row').filter({ hasText: COURSE });
    await row.getByRole('button', { name: COURSE }).click();
    await view().getByText(`Current course: ${COURSE}`).waitFor();
    await view().getByRole('button', { name: 'Outline', exact: true }).click();
    await expectPath(page, '/course/term/outline');
    await view().getByText(`Outline: ${COURSE}`).waitFor();
    await view().getByRole('button', { name: 'Add chapter' }).click();
    await view().getByLabel('Chapter title').fill(CHAPTER);
    await doubleClick(view().getByRole('button', { name: /^confirm$/i }));
    await view().locator('section.outline-board__chapter').filter({ hasText: CHAPTER }).waitFor();
    expect((await outline()).filter((chapter) => chapter.title === CHAPTER)).toHaveLength(1);
  });

  it('a lesson (/edu/edit-lesson)', async () => {
    const chapter = view().locator('section.outline-board__chapter').filter({ hasText: CHAPTER });
    await chapter.getByRole('button', { name: 'Add lesson' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/edu/edit-lesson');
    const form = view().locator('.lesson-edit');
    await form.getByLabel('Title', { exact: true }).waitFor();
    await form.locator('.ant-radio-button-wrapper').filter({ hasText: /^Text$/ }).click();
    await form.getByLabel('Title', { exact: true }).fill(LESSON);
    await form.getByRole('textbox', { name: 'Text', exact: true }).click();
    await page.keyboard.type('Said once, saved once.');
    await doubleClick(form.getByRole('button', { name: 'Save' }));
    await expectPath(page, '/course/term/outline');
    await chapter.locator('.outline-board__lesson').filter({ hasText: LESSON }).waitFor();
    const lessons = (await outline()).flatMap((one) => one.lessons).filter((lesson) => lesson.title === LESSON);
    expect(lessons).toHaveLength(1);
  });

  it('an exam (/edu/edit-exam)', async () => {
    await page.goto(`${baseUrl}/edu/edit-exam`);
    await waitForShell(page);
    const form = view().locator('form.exam-edit');
    await form.getByLabel('Title', { exact: true }).fill(EXAM);
    await form.getByLabel('Pass score').fill('5');
    const section = form.getByTestId('section-1');
    await section.getByRole('button', { name: 'Add a draw rule' }).click();
    const rule = section.getByTestId('rule-1-1');
    await rule.getByLabel('Count of rule 1').fill('1');
    await rule.getByLabel('Score of rule 1').fill('5');
    await rule.locator('.draw-rule__count').getByText(/available/).waitFor();
    await doubleClick(form.getByRole('button', { name: 'Save' }));
    await expect.poll(() => new URL(page.url()).searchParams.get('id')).not.toBeNull();
    const found = await api<Paged<{ title: string }>>(admin, 'GET', `/api/exams?q=${encodeURIComponent(EXAM)}`);
    expect(found.content.filter((exam) => exam.title === EXAM)).toHaveLength(1);
  });

  it('a certificate (/edu/applicant-cert)', async () => {
    await createLearner(HOLDER.username, HOLDER.nickName, DEPT);
    const templates = await api<Paged<{ id: number }>>(admin, 'GET', '/api/cert-templates');
    const template = templates.content[0];
    if (template === undefined) throw new Error('the demo seed has no certificate template');
    await page.goto(`${baseUrl}/edu/applicant-cert?template=${template.id}`);
    await waitForShell(page);
    const form = view().locator('form.cert-issue');
    await form.getByRole('combobox', { name: 'People' }).click();
    await page.keyboard.type(HOLDER.username);
    await selectOption(page, HOLDER.username).click();
    await page.keyboard.press('Escape');
    await doubleClick(form.getByRole('button', { name: 'Issue' }));
    await form.getByText('1 certificate issued').waitFor();
    const issued = await api<Paged<{ username: string }>>(admin, 'GET', `/api/certificates?q=${encodeURIComponent(HOLDER.username)}`);
    expect(issued.totalElements).toBe(1);
  });
});
