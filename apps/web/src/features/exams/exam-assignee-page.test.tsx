import type { Term } from '@cloud-classroom/shared/courses';
import type { Dept } from '@cloud-classroom/shared/depts';
import type { Exam, ExamAssignee, ExamRule } from '@cloud-classroom/shared/exams';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import ExamAssigneePage from './exam-assignee-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const EXAM = {
  id: 7,
  title: 'Fire drill',
  status: 'published',
  openAt: null,
  closeAt: null,
} as Exam;

const assignee = (fields: Partial<ExamAssignee> & Pick<ExamAssignee, 'id' | 'nickName'>): ExamAssignee => ({
  userId: fields.id + 100,
  username: fields.nickName.toLowerCase().replace(' ', '.'),
  deptName: 'Sales',
  source: 'staff',
  ruleId: null,
  dueAt: null,
  extraMinutes: 0,
  extraAttempts: 0,
  openAt: null,
  closeAt: null,
  createTime: '2026-04-01 10:00:00',
  ...fields,
});
const DANA = assignee({ id: 1, nickName: 'Dana Fox', extraMinutes: 15, openAt: '2026-06-01 09:00:00', closeAt: '2026-06-02 18:00:00' });
const ED = assignee({ id: 2, nickName: 'Ed Stone', source: 'rule', ruleId: 4, dueAt: '2026-05-31 18:00:00' });

const RULE: ExamRule = { id: 4, target: 'dept', ids: [2], names: ['Sales'], dueAt: null, assigneeCount: 12, createTime: '2026-04-01 10:00:00' };

const dept = (id: number, name: string): Dept => ({ id, name, pid: null, deptSort: id, enabled: true, hasChildren: false, subCount: 0, ...AUDIT }) as unknown as Dept;
const term = (id: number, name: string): Term => ({ id, courseId: 3, name, startAt: '2026-03-01 09:00:00', endAt: null, capacity: null, enrolMode: 'assigned', enrolled: 0, ...AUDIT }) as unknown as Term;

function stubAssignees() {
  return stubRoutes({
    'GET api/exams/7': () => EXAM,
    'GET api/exams/7/assignees': () => ({ content: [DANA, ED], totalElements: 2 }),
    'POST api/exams/7/assignees': () => jsonResponse(201, { created: 3, existing: 1, ruleId: null }),
    'PUT api/exams/7/assignees': () => new Response(null, { status: 204 }),
    'DELETE api/exams/7/assignees': () => undefined,
    'GET api/exams/7/assignees/rules': () => [RULE],
    'DELETE api/exams/7/assignees/rules': () => undefined,
    'GET api/users': () => ({ content: [{ id: 8, username: 'gus', nickName: 'Gus Hale' }], totalElements: 1 }),
    'GET api/dept': () => ({ content: [dept(2, 'Sales'), dept(6, 'Support')], totalElements: 2 }),
    'POST api/dept/superior': () => [dept(2, 'Sales'), dept(6, 'Support')],
    'GET api/roles/all': () => [{ id: 4, name: 'Learners', level: 3 }],
    'GET api/courses': () => ({ content: [{ id: 3, title: 'Warehouse safety' }], totalElements: 1 }),
    'GET api/terms': () => ({ content: [term(11, 'Spring 2026'), term(12, 'Autumn 2026')], totalElements: 2 }),
  });
}

const renderPage = (address = '/edu/applicant-exam?id=7') =>
  renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/edu/applicant-exam" element={<ExamAssigneePage />} />
      </Routes>
    </MemoryRouter>,
  );
const rowFound = async (text: string) => (await screen.findByText(text, { selector: 'td, td *' })).closest('tr')!;
const findDialog = async (title: string) => {
  await waitFor(() => expect(screen.getAllByRole('dialog').some((dialog) => dialog.textContent?.includes(title))).toBe(true));
  return screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes(title))!;
};
const pick = async (dialog: HTMLElement, label: string, option: string) => {
  fireEvent.mouseDown(await within(dialog).findByLabelText(label, { selector: 'input' }));
  await waitFor(() => expect(screen.getAllByTitle(option).some((element) => element.closest('.ant-select-dropdown, .ant-select-tree'))).toBe(true));
  fireEvent.click(screen.getAllByTitle(option).find((element) => element.closest('.ant-select-dropdown, .ant-select-tree'))!);
};

describe('ExamAssigneePage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists the assignees with their source, due date and personal terms, and the exam’s rules', async () => {
    stubAssignees();
    renderPage();
    const dana = await rowFound('Dana Fox');
    expect(within(dana).getByText('By hand')).toBeTruthy();
    expect(within(dana).getByText('+15 minutes')).toBeTruthy();
    expect(within(dana).getByText('Own window: 2026-06-01 09:00 – 2026-06-02 18:00')).toBeTruthy();
    const ed = await rowFound('Ed Stone');
    expect(within(ed).getByText('By a rule')).toBeTruthy();
    expect(within(ed).getByText('2026-05-31 18:00:00')).toBeTruthy();
    expect(within(ed).getByText('As the exam')).toBeTruthy();
    const rule = (await within(document.querySelector('.exam-rules') as HTMLElement).findByText('Sales')).closest('tr')!;
    expect(within(rule).getByText('12')).toBeTruthy();
  });

  it('opens with "overdue only" on from the dashboard\'s address, and lets it be switched off', async () => {
    const api = stubAssignees();
    renderPage('/edu/applicant-exam?id=7&overdue=1');
    await rowFound('Dana Fox');
    expect(api.callsTo('GET api/exams/7/assignees')[0]?.params.get('overdue')).toBe('true');
    const overdue = screen.getByRole('switch', { name: 'Overdue only' });
    expect(overdue.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(overdue);
    clickText('Search');
    await waitFor(() => expect(api.callsTo('GET api/exams/7/assignees').at(-1)?.params.has('overdue')).toBe(false));
  });

  it.each([
    ['Named people', 'People', 'Gus Hale (gus)', { target: 'users', ids: [8], dueAt: null }],
    ['Department', 'Departments', 'Support', { target: 'dept', ids: [6], dueAt: null }],
    ['Role', 'Roles', 'Learners', { target: 'role', ids: [4], dueAt: null }],
  ] as const)('assigns %s and says how many were new', async (target, field, option, body) => {
    const api = stubAssignees();
    renderPage();
    await rowFound('Dana Fox');
    clickText('Assign');
    const dialog = await findDialog('Assign the exam');
    clickText(target, dialog);
    await pick(dialog, field, option);
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('POST api/exams/7/assignees')).toHaveLength(1));
    expect(api.callsTo('POST api/exams/7/assignees')[0]?.body).toEqual(body);
    expect(await screen.findByText('3 assigned, 1 already')).toBeTruthy();
  });

  it('assigns a term’s applicants, the terms of the chosen course', async () => {
    const api = stubAssignees();
    renderPage();
    await rowFound('Dana Fox');
    clickText('Assign');
    const dialog = await findDialog('Assign the exam');
    clickText('A term’s applicants', dialog);
    await pick(dialog, 'Course', 'Warehouse safety');
    await waitFor(() => expect(api.callsTo('GET api/terms')[0]?.params.get('courseId')).toBe('3'));
    await pick(dialog, 'Terms', 'Autumn 2026');
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('POST api/exams/7/assignees')).toHaveLength(1));
    expect(api.callsTo('POST api/exams/7/assignees')[0]?.body).toEqual({ target: 'term', ids: [12], dueAt: null });
  });

  it('gives the selected assignees personal terms', async () => {
    const api = stubAssignees();
    renderPage();
    fireEvent.click(within(await rowFound('Ed Stone')).getByRole('checkbox'));
    fireEvent.click(within(await rowFound('Dana Fox')).getByRole('checkbox'));
    fireEvent.click(screen.getAllByText('Personal terms').map((element) => element.closest('button')).find((button) => button !== null && !button.closest('td'))!);
    const dialog = await findDialog('Personal terms (2 people)');
    fill(within(dialog).getByLabelText('Extra minutes'), '20');
    fill(within(dialog).getByLabelText('Extra attempts'), '1');
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('PUT api/exams/7/assignees')).toHaveLength(1));
    expect(api.callsTo('PUT api/exams/7/assignees')[0]?.body).toEqual({ ids: [2, 1], extraMinutes: 20, extraAttempts: 1, openAt: null, closeAt: null, dueAt: null });
  });
});
