import type { AssignmentRule } from '@cloud-classroom/shared/applicants';
import type { Term } from '@cloud-classroom/shared/courses';
import type { Dept } from '@cloud-classroom/shared/depts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { AUDIT, clickText, signInAs, stubRoutes } from '../../test/page-test-kit';
import { useSelectedCourseStore } from '../courses/selected-course-store';
import RuleListPage from './rule-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const term = (id: number, name: string): Term => ({
  id,
  courseId: 1,
  name,
  startAt: '2026-03-01 09:00:00',
  endAt: '2026-03-31 18:00:00',
  capacity: null,
  enrolMode: 'assigned',
  enrolled: 0,
  ...AUDIT,
});
const TERMS = [term(11, 'Spring 2026'), term(12, 'Autumn 2026')];

const rule = (fields: Partial<AssignmentRule> & Pick<AssignmentRule, 'id' | 'target' | 'ids' | 'names'>): AssignmentRule => ({
  termId: 11,
  termName: 'Spring 2026',
  examId: null,
  dueAt: null,
  applicantCount: 0,
  othersOutsideScope: 0,
  ...AUDIT,
  ...fields,
});
const SALES_RULE = rule({ id: 1, target: 'dept', ids: [2, 3, 4, 5], names: ['Sales', 'North', 'South', 'East'], applicantCount: 42, dueAt: '2026-03-31 18:00:00' });
const PEOPLE_RULE = rule({ id: 2, target: 'users', ids: [7], names: ['Dana Fox'], othersOutsideScope: 2, termId: 12, termName: 'Autumn 2026', applicantCount: 1 });

const dept = (id: number, name: string): Dept =>
  ({ id, name, pid: null, deptSort: id, enabled: true, hasChildren: false, subCount: 0, ...AUDIT }) as unknown as Dept;

function stubRules({ postAnswer }: { postAnswer?: () => unknown } = {}) {
  return stubRoutes({
    'GET api/terms': () => ({ content: TERMS, totalElements: TERMS.length }),
    'GET api/assignment-rules': () => ({ content: [SALES_RULE, PEOPLE_RULE], totalElements: 2 }),
    'POST api/assignment-rules': postAnswer ?? (() => jsonResponse(201, { id: 3 })),
    'PUT api/assignment-rules': () => new Response(null, { status: 204 }),
    'DELETE api/assignment-rules': () => undefined,
    'GET api/dept': () => ({ content: [dept(2, 'Sales'), dept(6, 'Support')], totalElements: 2 }),
    'POST api/dept/superior': () => [dept(2, 'Sales'), dept(6, 'Support')],
    'GET api/roles/all': () => [
      { id: 1, name: 'Administrators', level: 1 },
      { id: 4, name: 'Learners', level: 3 },
    ],
    'GET api/users': () => ({ content: [{ id: 8, username: 'ed', nickName: 'Ed Stone' }], totalElements: 1 }),
  });
}

const renderPage = () => renderWithProviders(<MemoryRouter><RuleListPage /></MemoryRouter>);
const rowFound = async (text: string) => (await screen.findByText(text, { selector: 'td, td *' })).closest('tr')!;
const findDialog = async (title: string) => {
  await waitFor(() => expect(screen.getAllByRole('dialog').some((dialog) => dialog.textContent?.includes(title))).toBe(true));
  return screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes(title))!;
};
const findInPopup = async (title: string) => {
  await waitFor(() => expect(screen.getAllByTitle(title).some((element) => element.closest('.ant-select-dropdown, .ant-select-tree'))).toBe(true));
  return screen.getAllByTitle(title).find((element) => element.closest('.ant-select-dropdown, .ant-select-tree'))!;
};

describe('RuleListPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
    useSelectedCourseStore.getState().select({ id: 1, name: 'Fire safety' });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useSelectedCourseStore.getState().select(undefined);
    localStorage.clear();
  });

  it('lists the rules of the course’s terms: target, names, term, due date and how many they enrolled', async () => {
    const api = stubRules();
    renderPage();
    expect(await screen.findByText('Assignment rules of Fire safety')).toBeTruthy();
    const sales = await rowFound('Sales, North, South');
    expect(within(sales).getByText('Department')).toBeTruthy();
    expect(within(sales).getByText('and 1 more')).toBeTruthy();
    expect(within(sales).getByText('42')).toBeTruthy();
    expect(within(sales).getByText('2026-03-31 18:00:00')).toBeTruthy();
    const people = await rowFound('Dana Fox');
    expect(within(people).getByText('Named people')).toBeTruthy();
    // The people it names outside the caller's departments are counted, never named.
    expect(within(people).getByText('and 2 outside your departments')).toBeTruthy();
    expect(within(people).getByText('Autumn 2026')).toBeTruthy();
    expect(api.callsTo('GET api/assignment-rules')[0]?.params.get('courseId')).toBe('1');
  });

  it('adds a rule, its chooser following the target type', async () => {
    const api = stubRules();
    renderPage();
    await rowFound('Dana Fox');
    clickText('Add');
    const dialog = await findDialog('Add an assignment rule');
    // Departments first, explaining that sub-departments and later joiners count.
    expect(within(dialog).getByText('Includes sub-departments and people who join later')).toBeTruthy();
    expect(within(dialog).getByLabelText('Departments', { selector: 'input' })).toBeTruthy();

    clickText('Role', dialog);
    expect(await within(dialog).findByText('People given these roles later are enrolled too')).toBeTruthy();
    expect(within(dialog).queryByText('Includes sub-departments and people who join later')).toBeNull();
    fireEvent.mouseDown(within(dialog).getByLabelText('Roles', { selector: 'input' }));
    fireEvent.click(await findInPopup('Learners'));

    clickText('Named people', dialog);
    expect(await within(dialog).findByLabelText('People', { selector: 'input' })).toBeTruthy();
    expect(within(dialog).queryByLabelText('Roles', { selector: 'input' })).toBeNull();

    // Back to roles: the choice made there is still there.
    clickText('Role', dialog);
    expect(await within(dialog).findByText('Learners')).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByLabelText('Term', { selector: 'input' }));
    fireEvent.click(await findInPopup('Autumn 2026'));
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('POST api/assignment-rules')).toHaveLength(1));
    expect(api.callsTo('POST api/assignment-rules')[0]?.body).toEqual({ target: 'role', ids: [4], termId: 12, dueAt: null });
  });

  it('asks for at least one department and a term', async () => {
    const api = stubRules();
    renderPage();
    await rowFound('Dana Fox');
    clickText('Add');
    const dialog = await findDialog('Add an assignment rule');
    clickText('confirm', dialog);
    await waitFor(() => expect(within(dialog).getAllByText(/required|at least/).length).toBe(2));
    expect(api.callsTo('POST api/assignment-rules')).toHaveLength(0);

    fireEvent.mouseDown(within(dialog).getByLabelText('Departments', { selector: 'input' }));
    fireEvent.click(await findInPopup('Sales'));
    fireEvent.mouseDown(within(dialog).getByLabelText('Term', { selector: 'input' }));
    fireEvent.click(await findInPopup('Spring 2026'));
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('POST api/assignment-rules')).toHaveLength(1));
    expect(api.callsTo('POST api/assignment-rules')[0]?.body).toEqual({ target: 'dept', ids: [2], termId: 11, dueAt: null });
  });

  it('keeps the department and role pickers closed for someone who may change rules but not add them', async () => {
    const api = stubRules();
    signInAs(['applicant:list', 'applicant:edit']);
    renderPage();
    fireEvent.click(within(await rowFound('Dana Fox')).getByText('Edit'));
    const dialog = await findDialog('Edit the assignment rule');
    clickText('Department', dialog);
    expect(await within(dialog).findByText('Choosing departments needs the permission to list them')).toBeTruthy();
    clickText('Role', dialog);
    expect(await within(dialog).findByText('Choosing roles needs the permission to list them')).toBeTruthy();
    expect(api.callsTo('GET api/dept')).toHaveLength(0);
    expect(api.callsTo('POST api/dept/superior')).toHaveLength(0);
    expect(api.callsTo('GET api/roles/all')).toHaveLength(0);
  });

  it('edits a named-people rule showing the people by name', async () => {
    const api = stubRules();
    renderPage();
    fireEvent.click(within(await rowFound('Dana Fox')).getByText('Edit'));
    const dialog = await findDialog('Edit the assignment rule');
    expect(within(dialog).getByText('Dana Fox')).toBeTruthy();
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('PUT api/assignment-rules')).toHaveLength(1));
    expect(api.callsTo('PUT api/assignment-rules')[0]?.body).toEqual({ id: 2, target: 'users', ids: [7], termId: 12, dueAt: null });
  });

  it('warns that enrolments already made stay when deleting a rule', async () => {
    const api = stubRules();
    renderPage();
    fireEvent.click(within(await rowFound('Dana Fox')).getByText('Delete'));
    const dialog = await findDialog('Enrolments the rule already made stay');
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('DELETE api/assignment-rules')[0]?.body).toEqual([2]));
  });

  it('shows a server refusal of the ids under the chosen target’s field', async () => {
    const api = stubRules({ postAnswer: () => jsonResponse(400, { status: 400, message: 'ids: no role 4', timestamp: 0 }) });
    renderPage();
    await rowFound('Dana Fox');
    clickText('Add');
    const dialog = await findDialog('Add an assignment rule');
    clickText('Role', dialog);
    fireEvent.mouseDown(await within(dialog).findByLabelText('Roles', { selector: 'input' }));
    fireEvent.click(await findInPopup('Learners'));
    fireEvent.mouseDown(within(dialog).getByLabelText('Term', { selector: 'input' }));
    fireEvent.click(await findInPopup('Spring 2026'));
    clickText('confirm', dialog);
    const roleItem = within(dialog).getByLabelText('Roles', { selector: 'input' }).closest('.ant-form-item') as HTMLElement;
    expect(await within(roleItem).findByText('no role 4')).toBeTruthy();
    expect(api.callsTo('POST api/assignment-rules')).toHaveLength(1);
  });

  it('names target types in Chinese too', async () => {
    const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
    await initTestI18n('zh-CN');
    try {
      stubRules();
      renderPage();
      const people = await rowFound('Dana Fox');
      expect(within(people).getByText('指定人员')).toBeTruthy();
      expect(screen.getByText('分配规则：Fire safety')).toBeTruthy();
    } finally {
      await initTestI18n('en-US');
    }
  });
});
