import type { CertRule, CertTemplate } from '@cloud-classroom/shared/certificates';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { AUDIT, clickText, signInAs, stubRoutes } from '../../test/page-test-kit';
import RuleListPage from './rule-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const TEMPLATE: CertTemplate = {
  id: 4,
  name: 'Standard',
  numberPattern: 'CC-{yyyy}-{seq:6}',
  validityMonths: null,
  version: 1,
  layout: { pageSize: 'A4', orientation: 'landscape', backgroundImage: null, fields: [] },
  certificateCount: 0,
  ...AUDIT,
};

const rule = (fields: Partial<CertRule> & Pick<CertRule, 'id' | 'targetName'>): CertRule => ({
  templateId: 4,
  templateName: 'Standard',
  examId: null,
  termId: null,
  issuedCount: 0,
  ...AUDIT,
  ...fields,
});
const EXAM_RULE = rule({ id: 1, examId: 7, targetName: 'Fire drill', issuedCount: 12 });
const TERM_RULE = rule({ id: 2, termId: 11, targetName: 'Fire safety Spring 2026', createBy: 'teacher' });

const page = <T,>(content: T[]) => ({ content, totalElements: content.length });

function stubRules({ postAnswer }: { postAnswer?: () => unknown } = {}) {
  return stubRoutes({
    'GET api/cert-rules': () => page([EXAM_RULE, TERM_RULE]),
    'POST api/cert-rules': postAnswer ?? (() => jsonResponse(201, { id: 3 })),
    'DELETE api/cert-rules': () => undefined,
    'GET api/cert-templates': () => page([TEMPLATE]),
    'GET api/exams': () => page([{ id: 7, title: 'Fire drill' }]),
    'GET api/courses': () => page([{ id: 1, title: 'Fire safety' }]),
    'GET api/terms': () => page([{ id: 11, courseId: 1, name: 'Spring 2026' }]),
  });
}

const renderPage = () => renderWithProviders(<MemoryRouter><RuleListPage /></MemoryRouter>);
const rowFound = async (text: string) => (await screen.findByText(text, { selector: 'td, td *' })).closest('tr')!;
const findDialog = async (title: string) => {
  await waitFor(() => expect(screen.getAllByRole('dialog').some((dialog) => dialog.textContent?.includes(title))).toBe(true));
  return screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes(title))!;
};
const pick = async (dialog: HTMLElement, label: string, option: string) => {
  // A term's select opens once its course is chosen.
  await waitFor(() => expect(within(dialog).getByLabelText(label, { selector: 'input' }).closest('.ant-select-disabled')).toBeNull());
  fireEvent.mouseDown(within(dialog).getByLabelText(label, { selector: 'input' }));
  await waitFor(() => expect(screen.getAllByTitle(option).some((element) => element.closest('.ant-select-dropdown'))).toBe(true));
  fireEvent.click(screen.getAllByTitle(option).find((element) => element.closest('.ant-select-dropdown'))!);
};

describe('RuleListPage (certificates)', () => {
  beforeEach(() => {
    stubBrowser(1366);
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('lists each rule’s template, trigger, how many it issued and who made it', async () => {
    stubRules();
    renderPage();
    const exam = await rowFound('Fire drill');
    expect(within(exam).getByText('Exam passed')).toBeTruthy();
    expect(within(exam).getByText('Standard')).toBeTruthy();
    expect(within(exam).getByText('12')).toBeTruthy();
    const term = await rowFound('Fire safety Spring 2026');
    expect(within(term).getByText('Term completed')).toBeTruthy();
    expect(within(term).getByText('teacher')).toBeTruthy();
  });

  it('adds a rule for an exam, and one for a course’s term, sending only the chosen trigger', async () => {
    const api = stubRules();
    renderPage();
    await rowFound('Fire drill');
    clickText('Add');
    let dialog = await findDialog('Add an issuing rule');
    await pick(dialog, 'Template', 'Standard');
    await pick(dialog, 'Exam', 'Fire drill');
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('POST api/cert-rules')).toHaveLength(1));
    expect(api.callsTo('POST api/cert-rules')[0]?.body).toEqual({ templateId: 4, examId: 7, termId: null });
    expect(await screen.findByText('Rule saved: people who already qualify are getting their certificates')).toBeTruthy();

    await waitFor(() => expect(screen.queryAllByRole('dialog').filter((element) => element.textContent?.includes('Add an issuing rule'))).toHaveLength(0));
    clickText('Add');
    dialog = await findDialog('Add an issuing rule');
    await pick(dialog, 'Template', 'Standard');
    clickText('Term completed', dialog);
    await pick(dialog, 'Course', 'Fire safety');
    await pick(dialog, 'Term', 'Spring 2026');
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('POST api/cert-rules')).toHaveLength(2));
    expect(api.callsTo('POST api/cert-rules')[1]?.body).toEqual({ templateId: 4, examId: null, termId: 11 });
  });

  it('asks for the template and the exam before sending, and shows a refusal under the template', async () => {
    const api = stubRules({ postAnswer: () => jsonResponse(409, { status: 409, message: 'templateId: this template is issued there by a rule already', timestamp: 0 }) });
    renderPage();
    await rowFound('Fire drill');
    clickText('Add');
    const dialog = await findDialog('Add an issuing rule');
    clickText('confirm', dialog);
    await waitFor(() => expect(dialog.querySelectorAll('.ant-form-item-explain-error')).toHaveLength(2));
    expect(api.callsTo('POST api/cert-rules')).toHaveLength(0);

    await pick(dialog, 'Template', 'Standard');
    await pick(dialog, 'Exam', 'Fire drill');
    clickText('confirm', dialog);
    const templateItem = within(dialog).getByLabelText('Template', { selector: 'input' }).closest('.ant-form-item') as HTMLElement;
    expect(await within(templateItem).findByText('this template is issued there by a rule already')).toBeTruthy();
  });

  it('deletes a rule after saying what it issued stays', async () => {
    const api = stubRules();
    renderPage();
    fireEvent.click(within(await rowFound('Fire drill')).getByText('Delete'));
    const dialog = await findDialog('what it issued stays');
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('DELETE api/cert-rules')[0]?.body).toEqual([1]));
  });

  it('offers neither adding nor deleting to someone who may only list certificates', async () => {
    stubRules();
    signInAs(['cert:list']);
    renderPage();
    const exam = await rowFound('Fire drill');
    expect(within(exam).queryByText('Delete')).toBeNull();
    expect(screen.queryByText('Add')).toBeNull();
  });
});
