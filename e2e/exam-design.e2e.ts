import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot, skipAfterAFailure } from './browser.js';
import { api, apiLogin, baseUrl, englishContext, messageNotice, openDialog, selectOption, waitForShell } from './session.js';

/**
 * A teacher builds an exam from a question bank of their own: imports a workbook (a first upload
 * with two bad rows is checked and refused row by row, the corrected one imported), builds a
 * paper of fixed questions and a draw rule with its live count, previews the drawn paper, assigns
 * it to a learner by name and publishes it, and the learner finds it among their exams. The key
 * screens must fit a phone too.
 */

const RUN = Date.now().toString(36);
/** This run's knowledge point: the draw rule and the filters find this run's questions only. */
const TAG = `e2e-${RUN}`;
const TITLE = `Ladder exam ${RUN}`;
/**
 * The learner the exam goes to. The teacher's data scope is 培训部 with its sub-departments, and
 * 研发部: of the demo learners learner3 (赵磊, 学员服务组) and learner1 (研发部) are within it;
 * learner2 (市场部) is neither found by the people picker nor assignable by a teacher (the server
 * answers 403).
 */
const LEARNER = { username: 'learner3', nickName: '赵磊' } as const;

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 375, height: 812 };
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Row = { stem: string; options: string[]; answer: string; score: string | number; difficulty: number };

/** Eight good single-choice questions, each with this run's tag. */
const GOOD: Row[] = [
  ['How many points of contact should you keep on a ladder?', ['One', 'Two', 'Three', 'Four'], 'C'],
  ['At what angle should a leaning ladder stand?', ['1 in 4', '1 in 2', 'Upright', 'Flat'], 'A'],
  ['What do you check before climbing?', ['The feet and rungs', 'The weather forecast', 'Nothing', 'The paint colour'], 'A'],
  ['How far should a ladder reach past the landing?', ['1 m', '10 cm', 'Not at all', '3 m'], 'A'],
  ['Who may hold the foot of a ladder?', ['A second person', 'Nobody', 'A bucket', 'A cat'], 'A'],
  ['Where should your belt buckle stay?', ['Between the stiles', 'Outside the stiles', 'Behind you', 'Anywhere'], 'A'],
  ['What ground suits a ladder?', ['Firm and level', 'Loose gravel', 'Ice', 'A table'], 'A'],
  ['When do you replace a ladder?', ['When a rung is cracked', 'Every day', 'Never', 'When it is dusty'], 'A'],
].map(([stem, options, answer], index) => {
  // The options turned round by one more place each time, so the right one is not always A.
  const given = options as string[];
  const turned = given.map((_text, at) => given[(at + index) % given.length] as string);
  const right = given[(answer as string).charCodeAt(0) - 65] as string;
  return { stem: `${stem} (${RUN}-${index + 1})`, options: turned, answer: String.fromCharCode(65 + turned.indexOf(right)), score: 2, difficulty: (index % 3) + 1 };
});

/** The planted mistakes, at their places in the first upload; row numbers are Excel's (note row 1, header row 2). */
const BAD: { at: number; row: Row; column: string; problem: RegExp }[] = [
  {
    at: 2,
    row: { stem: `Which colour is a safe ladder? (${RUN}-bad-key)`, options: ['Any', 'Red', 'Blue', 'Green'], answer: 'E', score: 2, difficulty: 1 },
    column: '答案',
    problem: /E is not among the options/,
  },
  {
    at: 7,
    row: { stem: `How heavy may a climber be? (${RUN}-bad-score)`, options: ['150 kg', '50 kg'], answer: 'A', score: 'lots', difficulty: 1 },
    column: '分值',
    problem: /not a number/,
  },
];
const WITH_BAD: Row[] = [...GOOD];
for (const { at, row } of BAD) WITH_BAD.splice(at, 0, row);
const badRowNumber = (at: number) => at + 3;

/** The server's own template for single-choice questions, its example row replaced by `rows`. */
async function workbookOf(token: string, rows: readonly Row[]): Promise<Buffer> {
  const response = await fetch(`${baseUrl}/api/questions/template?type=single`, { headers: { authorization: token } });
  if (!response.ok) throw new Error(`the template answered ${response.status}: ${await response.text()}`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await response.arrayBuffer());
  const sheet = workbook.getWorksheet('单选题');
  if (sheet === undefined) throw new Error(`the template has no sheet 单选题: ${workbook.worksheets.map((one) => one.name).join(', ')}`);
  const columns = new Map<string, number>();
  sheet.getRow(2).eachCell((cell, column) => columns.set(String(cell.value), column));
  const column = (header: string) => {
    const found = columns.get(header);
    if (found === undefined) throw new Error(`the template has no column ${header}: ${[...columns.keys()].join(', ')}`);
    return found;
  };
  rows.forEach((question, index) => {
    const row = sheet.getRow(index + 3);
    // Every column, so nothing of the example row stays behind.
    for (const number of columns.values()) row.getCell(number).value = null;
    row.getCell(column('题干')).value = question.stem;
    question.options.forEach((text, at) => (row.getCell(column(`选项${String.fromCharCode(65 + at)}`)).value = text));
    row.getCell(column('答案')).value = question.answer;
    row.getCell(column('难度')).value = question.difficulty;
    row.getCell(column('知识点')).value = TAG;
    row.getCell(column('分值')).value = question.score;
    row.commit();
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('journeys: a teacher imports questions, designs an exam, previews, assigns and publishes it', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let teacherToken: string;
  let learnerToken: string;
  let badFile: Buffer;
  let goodFile: Buffer;
  /** The first upload again with other stems: once imported, the good rows' stems are the bank's, and a check finds them duplicates. */
  let phoneFile: Buffer;
  let examId = 0;
  /** Every answer of the exams API that refused its request, in any step. */
  const refusals: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    teacherToken = await apiLogin('teacher');
    learnerToken = await apiLogin(LEARNER.username);
    const onPhone = WITH_BAD.map((row) => ({ ...row, stem: `${row.stem} (phone)` }));
    [badFile, goodFile, phoneFile] = await Promise.all([workbookOf(teacherToken, WITH_BAD), workbookOf(teacherToken, GOOD), workbookOf(teacherToken, onPhone)]);
    context = await englishContext(browser, teacherToken, { viewport: DESKTOP });
    page = await context.newPage();
    page.on('response', (response: Response) => {
      if (response.url().includes('/api/exams') && response.status() >= 400) refusals.push(`${response.request().method()} ${response.url()} → ${response.status()}`);
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  skipAfterAFailure();

  const view = (on: Page = page) => on.locator('.app-view:not([hidden])');
  /** The open dropdown's option with this text (antd keeps closed dropdowns in the page). */
  const option = (on: Page, text: string | RegExp) => selectOption(on, text);
  const fileOf = (name: string, buffer: Buffer) => ({ name, mimeType: XLSX, buffer });
  const scrollWidthOf = (on: Page) => on.evaluate(() => document.documentElement.scrollWidth);

  /** Opens the import page and uploads the workbook with two bad rows: the check lists them. */
  async function checkBadFile(on: Page, file: Buffer): Promise<Locator> {
    await on.goto(`${baseUrl}/edu/import-question`);
    await waitForShell(on);
    const card = view(on).locator('.spreadsheet-import');
    await card.getByRole('button', { name: 'Choose an .xlsx file' }).waitFor();
    await card.locator('input[type=file]').setInputFiles(fileOf(`questions-${RUN}-draft.xlsx`, file));
    const table = card.locator('.ant-table');
    await table.locator('.ant-table-row').first().waitFor();
    return card;
  }

  it('imports a workbook: the check lists the two bad rows, the corrected file is imported and listed', async () => {
    const card = await checkBadFile(page, badFile);
    await card.getByText(`${WITH_BAD.length} rows, ${GOOD.length} valid`).waitFor();
    await card.getByText('2 errors: correct the sheet and upload it again').waitFor();
    const rows = card.locator('.ant-table-row');
    expect(await rows.count()).toBe(BAD.length);
    for (const [index, bad] of BAD.entries()) {
      const cells = await rows.nth(index).locator('td').allInnerTexts();
      expect(cells.slice(0, 2)).toEqual([String(badRowNumber(bad.at)), bad.column]);
      expect(cells[2]).toMatch(bad.problem);
    }
    // All or nothing: a file with bad rows cannot be imported.
    expect(await card.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
    await saveScreenshot(page, 'exam-design-import-check', { fullPage: false });

    await card.locator('input[type=file]').setInputFiles(fileOf(`questions-${RUN}.xlsx`, goodFile));
    await card.getByText(`${GOOD.length} rows, ${GOOD.length} valid`).waitFor();
    // No errors: what it will create is listed instead, row by row.
    await expect.poll(() => card.locator('section .ant-table-row').count()).toBe(GOOD.length);
    expect(await card.getByText('2 errors: correct the sheet and upload it again').count()).toBe(0);
    const run = card.getByRole('button', { name: `Import ${GOOD.length} questions` });
    expect(await run.isEnabled()).toBe(true);
    await run.click();
    const done = view().locator('.ant-result-success');
    await done.getByText(`Imported ${GOOD.length} questions`).waitFor();

    await done.getByRole('button', { name: 'Go to the question bank' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/exam/question');
    await view().locator('.ant-table-row').first().waitFor();
    await view().getByLabel('Knowledge point', { exact: true }).click();
    await page.keyboard.type(TAG);
    await option(page, `${TAG} (${GOOD.length})`).click();
    await view().getByRole('button', { name: /Search$/ }).click();
    const listed = view().locator('.ant-table-row');
    await expect.poll(async () => (await listed.allInnerTexts()).filter((text) => text.includes(RUN)).length).toBe(GOOD.length);
    expect(await listed.count()).toBe(GOOD.length);
    await saveScreenshot(page, 'exam-design-question-list', { fullPage: false });
  });

  /** The draw rule's live count line, once it answers for the paper as it stands. */
  const ruleCount = () => view().getByTestId('rule-1-1').locator('.draw-rule__count');

  it('builds an exam of two fixed questions and a draw rule with its live count, and saves it', async () => {
    await page.goto(`${baseUrl}/edu/edit-exam`);
    await waitForShell(page);
    const form = view().locator('form.exam-edit');
    await form.getByLabel('Title', { exact: true }).fill(TITLE);
    await form.getByLabel('Pass score').fill('12');

    // Two fixed questions, picked from this run's in the bank.
    const section = form.getByTestId('section-1');
    await section.getByRole('button', { name: 'Add questions' }).click();
    const picker = openDialog(page, 'Add questions from the bank');
    await picker.locator('.ant-table-row').first().waitFor();
    await picker.getByLabel('Tags', { exact: true }).click();
    await page.keyboard.type(TAG);
    await option(page, `${TAG} (${GOOD.length})`).click();
    // The search is sent only once the select holds the tag (a click during the dropdown's
    // animation was once lost on a loaded CI machine, and the search went out unfiltered).
    await picker.locator('.ant-select-content-has-value', { hasText: TAG }).waitFor();
    const filtered = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/questions' && url.searchParams.get('tag') === TAG;
    });
    await picker.getByRole('button', { name: /Search$/ }).click();
    expect((await filtered).ok()).toBe(true);
    const offered = picker.locator('.ant-table-row');
    // The filtered list replaces the first page of the whole bank once the answer renders.
    await expect
      .poll(async () => (await offered.allInnerTexts()).every((text) => text.includes(RUN)) && (await offered.count()) === GOOD.length, { timeout: 20_000 })
      .toBe(true);
    const fixed = [await offered.nth(0).locator('.exam-question-cell .ant-typography').first().innerText(), await offered.nth(1).locator('.exam-question-cell .ant-typography').first().innerText()];
    await offered.nth(0).locator('.ant-checkbox-input').check();
    await offered.nth(1).locator('.ant-checkbox-input').check();
    await picker.getByRole('button', { name: 'Add 2 questions' }).click();
    await picker.waitFor({ state: 'hidden' });
    await section.getByText('Fixed questions (2)').waitFor();
    expect(await section.locator('.paper-question').allInnerTexts()).toEqual([expect.stringContaining(fixed[0]!), expect.stringContaining(fixed[1]!)]);

    // A draw rule on the tag: three single-choice questions at 5 points each.
    await section.getByRole('button', { name: 'Add a draw rule' }).click();
    const rule = section.getByTestId('rule-1-1');
    await rule.getByLabel('Tags of rule 1').click();
    await page.keyboard.type(TAG);
    await option(page, `${TAG} (${GOOD.length})`).click();
    await page.keyboard.press('Escape');
    expect(await rule.locator('.paper-field').nth(1).innerText()).toContain('Single choice');
    await rule.getByLabel('Count of rule 1').fill('3');
    await rule.getByLabel('Score of rule 1').fill('5');
    // The two fixed questions cannot be drawn again: what is left of the tag's is available.
    const available = GOOD.length - 2;
    await expect.poll(() => ruleCount().innerText()).toBe(`${available} available / ${GOOD.length} match`);
    expect(await rule.getAttribute('class')).not.toContain('draw-rule--short');
    expect(await ruleCount().locator('.ant-typography-success').count()).toBe(1);

    // More than the bank has: the count says so, in red.
    await rule.getByLabel('Count of rule 1').fill(String(GOOD.length + 1));
    await expect.poll(() => ruleCount().innerText()).toBe(`${available} available / ${GOOD.length} match · fewer than the ${GOOD.length + 1} asked`);
    await expect.poll(() => rule.getAttribute('class')).toContain('draw-rule--short');
    expect(await ruleCount().locator('.ant-typography-danger').count()).toBe(1);
    await saveScreenshot(page, 'exam-design-draw-short', { fullPage: false });
    await rule.getByLabel('Count of rule 1').fill('3');
    await expect.poll(() => ruleCount().innerText()).toBe(`${available} available / ${GOOD.length} match`);
    await expect.poll(() => rule.getAttribute('class')).not.toContain('draw-rule--short');

    // Two fixed at their own 2 points and three drawn at 5.
    await expect.poll(() => form.locator('.paper-totals').innerText()).toMatch(/Total score\s+19\s+Questions\s+5\s+Sections\s+1/);
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await messageNotice(page, 'The exam is saved').waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('id')).toMatch(/^\d+$/);
    examId = Number(new URL(page.url()).searchParams.get('id'));
    await view().getByRole('heading', { name: `Edit: ${TITLE}` }).waitFor();
    expect(refusals).toEqual([]);
    await saveScreenshot(page, 'exam-design-editor');

    const stored = await api<{ title: string; status: string; passScore: number; paper: { sections: { questionIds: number[]; draw: { tags: string[]; type: string; count: number; score: number }[] }[] } }>(
      teacherToken,
      'GET',
      `/api/exams/${examId}`,
    );
    expect(stored).toMatchObject({ title: TITLE, status: 'draft', passScore: 12 });
    expect(stored.paper.sections).toHaveLength(1);
    expect(stored.paper.sections[0]!.questionIds).toHaveLength(2);
    expect(stored.paper.sections[0]!.draw).toEqual([expect.objectContaining({ tags: [TAG], type: 'single', count: 3, score: 5 })]);
  });

  /** The paper's questions by stem, in order. */
  const paperStems = (on: Page = page) => view(on).locator('.exam-preview__paper .question-view__stem').allInnerTexts();

  it('previews the paper with the key, and draws it again', async () => {
    await page.goto(`${baseUrl}/edu/preview-exam?id=${examId}`);
    await waitForShell(page);
    const paper = view().locator('.exam-preview__paper');
    await paper.locator('.question-view').first().waitFor();
    expect(await paper.locator('.question-view').count()).toBe(5);
    const head = view().locator('.exam-preview__head');
    await head.getByText('Total 19').waitFor();
    await head.getByText('Pass 12').waitFor();
    // Every question of the paper is this run's, and each shows its one right option.
    const first = await paperStems();
    expect(first.every((stem) => stem.includes(RUN))).toBe(true);
    expect(new Set(first).size).toBe(5);
    expect(await paper.locator('.question-view__choice--right').count()).toBe(5);
    expect(await paper.locator('.question-view__choice--right').first().innerText()).toContain('✓');
    await saveScreenshot(page, 'exam-design-preview');

    // Three of six drawn: the same set in the same order comes back once in 120 draws.
    const drawn: string[][] = [first];
    for (let attempt = 0; attempt < 5 && drawn.every((stems) => JSON.stringify(stems) === JSON.stringify(first)); attempt += 1) {
      const again = page.waitForResponse((response) => response.url().endsWith(`/api/exams/${examId}/preview`) && response.ok());
      await head.getByRole('button', { name: 'Draw again' }).click();
      await again;
      await expect.poll(async () => (await head.getByRole('button', { name: 'Draw again' }).getAttribute('class')) ?? '').not.toContain('ant-btn-loading');
      await expect.poll(async () => (await paperStems()).length).toBe(5);
      drawn.push(await paperStems());
    }
    const last = drawn.at(-1)!;
    expect(last).not.toEqual(first);
    // The fixed two stay; only the drawn ones change.
    expect(last.slice(0, 2)).toEqual(first.slice(0, 2));
    expect(last.every((stem) => stem.includes(RUN))).toBe(true);
    await saveScreenshot(page, 'exam-design-preview-again', { fullPage: false });
  });

  type SiteExam = { id: number; title: string };
  const learnerExams = () => api<SiteExam[]>(learnerToken, 'GET', '/api/site/exams');

  it('assigns the exam to a learner by name, publishes it, and the learner finds it', async () => {
    await page.goto(`${baseUrl}/edu/applicant-exam?id=${examId}`);
    await waitForShell(page);
    await view().getByRole('heading', { name: `Assignees of ${TITLE}` }).waitFor();
    await view().getByRole('button', { name: /^(usergroup-add )?Assign$/ }).click();
    const dialog = openDialog(page, 'Assign the exam');
    await dialog.getByRole('combobox', { name: /People/ }).click();
    await page.keyboard.type(LEARNER.nickName);
    await option(page, `${LEARNER.nickName} (${LEARNER.username})`).click();
    // The picker stays open for more people (the demo has a class of them): a click beside it closes it.
    await dialog.locator('.ant-modal-title').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor({ state: 'hidden' });
    await dialog.getByRole('button', { name: /^confirm$/i }).click();
    await dialog.waitFor({ state: 'hidden' });
    await messageNotice(page, '1 assigned, 0 already').waitFor();
    const row = view().locator('.ant-table-row').filter({ hasText: LEARNER.username });
    await row.waitFor();
    expect(await row.innerText()).toContain('By hand');
    expect(await view().locator('.ant-table-row').count()).toBe(1);
    await saveScreenshot(page, 'exam-design-assignees', { fullPage: false });
    // A draft is in no learner's list yet, assigned or not.
    expect((await learnerExams()).some((exam) => exam.id === examId)).toBe(false);

    await view().getByRole('button', { name: 'Edit exam' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/edu/edit-exam');
    const form = view().locator('form.exam-edit');
    await form.getByRole('heading', { name: `Edit: ${TITLE}` }).waitFor();
    await form.locator('.ant-radio-button-wrapper').filter({ hasText: /^Published$/ }).click();
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await messageNotice(page, 'The exam is saved').waitFor();
    expect(refusals).toEqual([]);
    const mine = (await learnerExams()).filter((exam) => exam.id === examId);
    expect(mine).toEqual([expect.objectContaining({ id: examId, title: TITLE })]);
  });

  it('fits a phone: the import check, the editor and the preview scroll only downwards', { timeout: 90_000 }, async () => {
    const phone = await englishContext(browser, teacherToken, { viewport: PHONE, isMobile: true, hasTouch: true });
    try {
      const small = await phone.newPage();

      const card = await checkBadFile(small, phoneFile);
      expect(await card.locator('.ant-table-row').count()).toBe(BAD.length);
      expect(await scrollWidthOf(small)).toBeLessThanOrEqual(PHONE.width + 1);
      await saveScreenshot(small, 'exam-design-375-import-check');

      await small.goto(`${baseUrl}/edu/edit-exam?id=${examId}`);
      await waitForShell(small);
      await view(small).getByRole('heading', { name: `Edit: ${TITLE}` }).waitFor();
      await view(small).getByTestId('rule-1-1').locator('.ant-typography-success').waitFor();
      expect(await scrollWidthOf(small)).toBeLessThanOrEqual(PHONE.width + 1);
      await saveScreenshot(small, 'exam-design-375-editor');

      await small.goto(`${baseUrl}/edu/preview-exam?id=${examId}`);
      await waitForShell(small);
      await expect.poll(async () => (await paperStems(small)).length).toBe(5);
      expect(await scrollWidthOf(small)).toBeLessThanOrEqual(PHONE.width + 1);
      await saveScreenshot(small, 'exam-design-375-preview');
    } finally {
      await phone.close();
    }
  });
});
