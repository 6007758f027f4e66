import type { Applicant, ImportResult } from '@cloud-classroom/shared/applicants';
import type { Term } from '@cloud-classroom/shared/courses';
import type { User } from '@cloud-classroom/shared/users';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import { useSelectedCourseStore } from '../courses/selected-course-store';
import ApplicantEditPage from './applicant-edit-page';
import ApplicantListPage from './applicant-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

// antd renders a lot of DOM; on a busy machine jsdom needs more than the default 5 s.
vi.setConfig({ testTimeout: 60_000 });

const term = (id: number, name: string): Term => ({
  id,
  courseId: 1,
  name,
  startAt: '2026-03-01 09:00:00',
  endAt: '2026-03-31 18:00:00',
  capacity: null,
  enrolMode: 'approval',
  enrolled: 2,
  ...AUDIT,
});
const TERMS = [term(11, 'Spring 2026'), term(12, 'Autumn 2026')];

const applicant = (fields: Partial<Applicant> & Pick<Applicant, 'id' | 'username' | 'nickName'>): Applicant => ({
  termId: 11,
  termName: 'Spring 2026',
  courseId: 1,
  courseTitle: 'Fire safety',
  userId: fields.id * 10,
  deptName: 'Sales',
  status: 'applied',
  source: 'self',
  ruleId: null,
  dueAt: null,
  overdue: false,
  reason: null,
  percent: 0,
  completedAt: null,
  ...AUDIT,
  ...fields,
});
const ANN = applicant({ id: 1, username: 'ann', nickName: 'Ann Lee' });
const BOB = applicant({
  id: 2,
  username: 'bob',
  nickName: 'Bob Ray',
  status: 'in_progress',
  source: 'rule',
  dueAt: '2026-02-01 18:00:00',
  overdue: true,
  percent: 40,
  deptName: null,
});
const CID = applicant({ id: 3, username: 'cid', nickName: 'Cid Moe', status: 'rejected', source: 'import', reason: 'Wrong team' });

const user = (id: number, username: string, nickName: string): User => ({
  id,
  username,
  nickName,
  gender: null,
  phone: null,
  email: null,
  avatarName: null,
  enabled: true,
  pwdResetTime: null,
  dept: null,
  roles: [],
  ...AUDIT,
});

function stubApplicants(answers: { approve?: () => unknown; reject?: () => unknown; importAnswer?: (dryRun: boolean) => ImportResult; put?: () => unknown } = {}) {
  return stubRoutes({
    'GET api/terms': () => ({ content: TERMS, totalElements: TERMS.length }),
    'GET api/applicants': () => ({ content: [ANN, BOB, CID], totalElements: 3 }),
    'PUT api/applicants/approve': answers.approve ?? (() => undefined),
    'PUT api/applicants/reject': answers.reject ?? (() => undefined),
    'PUT api/applicants': answers.put ?? (() => new Response(null, { status: 204 })),
    'DELETE api/applicants': () => undefined,
    'POST api/applicants': () => jsonResponse(201, { created: 1, existing: 1 }),
    'POST api/applicants/import': ({ params }) =>
      (answers.importAnswer ?? (() => ({ total: 2, valid: 2, created: 0, errors: [], rows: [], examples: [] })))(params.get('dryRun') === 'true'),
    'GET api/users': ({ params }) => {
      const everyone = [user(7, 'dana', 'Dana Fox'), user(8, 'ed', 'Ed Stone')];
      const q = params.get('blurry') ?? '';
      const content = everyone.filter((person) => person.username.includes(q) || person.nickName.includes(q));
      return { content, totalElements: content.length };
    },
  });
}

function renderPage(address = '/course/term/applicant') {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/course/term/applicant" element={<ApplicantListPage />} />
        <Route path="/edu/edit-applicant" element={<ApplicantEditPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const rowFound = async (text: string) => (await screen.findByText(text, { selector: 'td, td *' })).closest('tr')!;
const checkRow = (row: HTMLElement) => fireEvent.click(within(row).getByRole('checkbox'));
// antd's test build gives every modal title the same id, so dialogs are found by their title text.
const findDialog = async (title: string) => {
  await waitFor(() => expect(screen.getAllByRole('dialog').some((dialog) => dialog.textContent?.includes(title))).toBe(true));
  return screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes(title))!;
};
const findInPopup = async (title: string) => {
  await waitFor(() => expect(screen.getAllByTitle(title).some((element) => element.closest('.ant-select-dropdown'))).toBe(true));
  return screen.getAllByTitle(title).find((element) => element.closest('.ant-select-dropdown'))!;
};
const xlsx = (name = 'people.xlsx') => new File(['PK'], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

describe('ApplicantListPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
    useSelectedCourseStore.getState().select({ id: 1, name: 'Fire safety' });
    vi.mocked(downloadFile).mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useSelectedCourseStore.getState().select(undefined);
    localStorage.clear();
  });

  it('lists the course’s applicants with status, source, due date, progress and reason', async () => {
    const api = stubApplicants();
    renderPage();
    expect(await screen.findByText('Applicants of Fire safety')).toBeTruthy();
    const ann = await rowFound('Ann Lee');
    expect(within(ann).getByText('ann')).toBeTruthy();
    expect(within(ann).getByText('Sales')).toBeTruthy();
    expect(within(ann).getByText('Applied')).toBeTruthy();
    expect(within(ann).getByText('Own application')).toBeTruthy();
    expect(within(ann).getByText('None')).toBeTruthy();

    const bob = await rowFound('Bob Ray');
    expect(within(bob).getByText('In progress')).toBeTruthy();
    expect(within(bob).getByText('Rule')).toBeTruthy();
    const due = within(bob).getByText(/2026-02-01 18:00:00/);
    expect(due.textContent).toContain('Overdue');
    expect(due.closest('.ant-typography-danger')).toBeTruthy();
    expect(within(bob).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');

    const cid = await rowFound('Cid Moe');
    expect(within(cid).getByText('Rejected')).toBeTruthy();
    expect(within(cid).getByText('Wrong team')).toBeTruthy();

    const first = api.callsTo('GET api/applicants')[0]!;
    expect([first.params.get('courseId'), first.params.get('page'), first.params.get('sort')]).toEqual(['1', '0', 'createTime,desc']);
  });

  it('filters by term, keyword, status, source and overdue, and exports with the same filter', async () => {
    const api = stubApplicants();
    renderPage();
    await rowFound('Ann Lee');
    fireEvent.mouseDown(screen.getByLabelText('Term', { selector: 'input' }));
    fireEvent.click(await findInPopup('Autumn 2026'));
    fill(screen.getByLabelText('Username or nick name'), 'ann');
    fireEvent.mouseDown(screen.getByLabelText('Status', { selector: 'input' }));
    fireEvent.click(await findInPopup('Completed'));
    fireEvent.mouseDown(screen.getByLabelText('Source', { selector: 'input' }));
    fireEvent.click(await findInPopup('Spreadsheet'));
    fireEvent.click(screen.getByRole('switch', { name: 'Overdue only' }));
    clickText('Search');
    await waitFor(() => expect(api.callsTo('GET api/applicants').at(-1)?.params.get('q')).toBe('ann'));
    const last = api.callsTo('GET api/applicants').at(-1)!;
    expect(Object.fromEntries(last.params)).toMatchObject({ courseId: '1', termId: '12', status: 'completed', source: 'import', overdue: 'true', page: '0' });

    clickText('Export');
    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(1));
    expect(vi.mocked(downloadFile).mock.calls[0]?.slice(0, 3)).toEqual([
      'api/applicants/download',
      { courseId: 1, termId: 12, q: 'ann', status: 'completed', source: 'import', overdue: true, sort: ['createTime,desc'] },
      'applicants-Fire safety',
    ]);

    // Switched off, "overdue only" leaves the filter out rather than asking for the punctual ones.
    fireEvent.click(screen.getByRole('switch', { name: 'Overdue only' }));
    clickText('Search');
    await waitFor(() => expect(api.callsTo('GET api/applicants').at(-1)?.params.has('overdue')).toBe(false));
  });

  it("opens with \"overdue only\" on from the dashboard's address", async () => {
    const api = stubApplicants();
    renderPage('/course/term/applicant?overdue=1');
    await rowFound('Ann Lee');
    expect(api.callsTo('GET api/applicants')[0]?.params.get('overdue')).toBe('true');
    expect(screen.getByRole('switch', { name: 'Overdue only' }).getAttribute('aria-checked')).toBe('true');
  });

  it('approves the selected enrolments after asking', async () => {
    const api = stubApplicants();
    renderPage();
    const approve = screen.getByRole('button', { name: /Approve/ });
    expect(approve.hasAttribute('disabled')).toBe(true);
    checkRow(await rowFound('Ann Lee'));
    checkRow(await rowFound('Cid Moe'));
    fireEvent.click(approve);
    const dialog = await findDialog('Approve the 2 selected enrolments?');
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('PUT api/applicants/approve')).toHaveLength(1));
    expect(api.callsTo('PUT api/applicants/approve')[0]?.body).toEqual([1, 3]);
    await waitFor(() => expect(api.callsTo('GET api/applicants').length).toBeGreaterThan(1));
  });

  it('rejects only with a reason, which it sends with the ids', async () => {
    const api = stubApplicants();
    renderPage();
    checkRow(await rowFound('Ann Lee'));
    clickText('Reject');
    const dialog = await findDialog('Reject (1)');
    clickText('confirm', dialog);
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    fill(within(dialog).getByLabelText('Reason'), '   ');
    clickText('confirm', dialog);
    await waitFor(() => expect(within(dialog).queryAllByText(/required/).length).toBeGreaterThan(0));
    expect(api.callsTo('PUT api/applicants/reject')).toHaveLength(0);

    fill(within(dialog).getByLabelText('Reason'), ' Not in the sales team ');
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('PUT api/applicants/reject')).toHaveLength(1));
    expect(api.callsTo('PUT api/applicants/reject')[0]?.body).toEqual({ ids: [1], reason: 'Not in the sales team' });
    await waitFor(() => expect(screen.queryByText('Reject (1)')).toBeNull());
  });

  it('enrols people found by name into a term, with a due date, and says how many were new', async () => {
    const api = stubApplicants();
    renderPage();
    await rowFound('Ann Lee');
    clickText('Enrol people');
    const dialog = await findDialog('Only people in your data scope');
    clickText('confirm', dialog);
    await waitFor(() => expect(within(dialog).getAllByText('This field is required').length).toBeGreaterThan(0));
    expect(api.callsTo('POST api/applicants')).toHaveLength(0);

    fireEvent.mouseDown(within(dialog).getByLabelText('Term', { selector: 'input' }));
    fireEvent.click(await findInPopup('Spring 2026'));
    const people = within(dialog).getByLabelText('People', { selector: 'input' });
    fireEvent.mouseDown(people);
    fill(people, 'dana');
    await waitFor(() => expect(api.callsTo('GET api/users').some((call) => call.params.get('blurry') === 'dana')).toBe(true));
    fireEvent.click(await findInPopup('Dana Fox (dana)'));
    fireEvent.mouseDown(people);
    fill(people, 'ed');
    fireEvent.click(await findInPopup('Ed Stone (ed)'));
    // The first person keeps their name while the search shows others.
    expect(within(dialog).getByText('Dana Fox (dana)')).toBeTruthy();

    const due = within(dialog).getByLabelText('Due');
    fireEvent.mouseDown(due);
    fireEvent.focus(due);
    fill(due, '2026-04-30 18:00');
    const ok = await waitFor(() => {
      const button = document.querySelector<HTMLButtonElement>('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-ok button');
      expect(button).toBeTruthy();
      return button!;
    });
    fireEvent.click(ok);
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('POST api/applicants')).toHaveLength(1));
    expect(api.callsTo('POST api/applicants')[0]?.body).toEqual({ termId: 11, userIds: [7, 8], dueAt: '2026-04-30 18:00:00' });
    expect(await screen.findByText('Enrolled 1; 1 already were')).toBeTruthy();
  });

  it('lets someone who may enrol but not manage users pick people (the server lists them within their data scope)', async () => {
    const api = stubApplicants();
    signInAs(['applicant:list', 'applicant:add']);
    renderPage();
    await rowFound('Ann Lee');
    clickText('Enrol people');
    const dialog = await findDialog('Only people in your data scope');
    expect(within(dialog).queryByText('Choosing people needs the permission to list users')).toBeNull();
    await waitFor(() => expect(api.callsTo('GET api/users').length).toBeGreaterThan(0));
  });

  it('checks an import first, lists its errors by row and keeps the import disabled until a clean sheet', async () => {
    let dirty = true;
    const api = stubApplicants({
      importAnswer: (dryRun) =>
        dirty
          ? {
              total: 3,
              valid: 1,
              created: 0,
              errors: [
                { row: 2, column: 'username', message: 'username: no user zed' },
                { row: 4, column: 'dueAt', message: "dueAt: expected 'yyyy-MM-dd HH:mm:ss'" },
              ],
              rows: [],
              examples: [],
            }
          : {
              total: 2,
              valid: 2,
              created: dryRun ? 0 : 2,
              errors: [],
              rows: [
                { sheet: '学员导入模板', row: 3, type: null, text: 'ann' },
                { sheet: '学员导入模板', row: 4, type: null, text: 'bob' },
              ],
              examples: [{ sheet: '学员导入模板', row: 2 }],
            },
    });
    renderPage();
    await rowFound('Ann Lee');
    fireEvent.mouseDown(screen.getByLabelText('Term', { selector: 'input' }));
    fireEvent.click(await findInPopup('Autumn 2026'));
    clickText('Search');
    await waitFor(() => expect(api.callsTo('GET api/applicants').at(-1)?.params.get('termId')).toBe('12'));
    clickText('Import');
    const dialog = await findDialog('Import people');
    const importButton = () => within(dialog).getByRole('button', { name: 'Import' });
    expect(importButton().hasAttribute('disabled')).toBe(true);

    clickText('Download the template', dialog);
    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(1));
    expect(vi.mocked(downloadFile).mock.calls[0]?.slice(0, 3)).toEqual(['api/applicants/template', {}, 'applicants-template']);

    // The upload remakes its input after each file: find it afresh every time.
    const choose = (file: File) => fireEvent.change(dialog.querySelector<HTMLInputElement>('input[type=file]')!, { target: { files: [file] } });
    choose(xlsx('bad.xlsx'));
    expect(await within(dialog).findByText('3 rows, 1 valid')).toBeTruthy();
    expect(within(dialog).getByText('2 errors: correct the sheet and upload it again')).toBeTruthy();
    const errorRow = within(dialog).getByText('username: no user zed').closest('tr')!;
    expect(within(errorRow).getByText('2')).toBeTruthy();
    expect(within(errorRow).getByText('username')).toBeTruthy();
    expect(within(dialog).getByText('4')).toBeTruthy();
    expect(importButton().hasAttribute('disabled')).toBe(true);
    const check = api.callsTo('POST api/applicants/import')[0]!;
    expect([check.params.get('termId'), check.params.get('dryRun')]).toEqual(['12', 'true']);
    expect((check.body as FormData).get('file')).toBeInstanceOf(File);

    dirty = false;
    choose(xlsx('good.xlsx'));
    expect(await within(dialog).findByText('No errors: ready to import')).toBeTruthy();
    expect(within(dialog).queryByText('username: no user zed')).toBeNull();
    // Who will be enrolled, and the template's example left out.
    const plan = within(dialog).getByRole('region', { name: '学员导入模板: 2 rows to import' });
    expect(within(plan).getByText('Example row 2, not imported')).toBeTruthy();
    expect(within(plan).getByText('bob')).toBeTruthy();
    await waitFor(() => expect(importButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(importButton());
    await waitFor(() => expect(api.callsTo('POST api/applicants/import')).toHaveLength(3));
    expect(api.callsTo('POST api/applicants/import')[2]?.params.get('dryRun')).toBe('false');
    expect(await screen.findByText('Imported 2')).toBeTruthy();
  });

  it('deletes an enrolment after a warning', async () => {
    const api = stubApplicants();
    renderPage();
    clickText('Delete', await rowFound('Cid Moe'));
    const dialog = await findDialog('study records are kept');
    clickText('confirm', dialog);
    await waitFor(() => expect(api.callsTo('DELETE api/applicants')[0]?.body).toEqual([3]));
  });

  it('gives a list-only user no enrol, import, approve, reject, edit or delete', async () => {
    stubApplicants();
    signInAs(['applicant:list']);
    renderPage();
    await rowFound('Ann Lee');
    for (const text of ['Enrol people', 'Import', 'Approve', 'Reject', 'Edit', 'Delete']) expect(screen.queryByText(text)).toBeNull();
    expect(screen.getByText('Export')).toBeTruthy();
  });

  it('edits an enrolment from its row, asking for a reason when rejecting, and shows the server’s refusal under its field', async () => {
    const api = stubApplicants({
      put: () => jsonResponse(400, { status: 400, message: 'dueAt: is before the term starts', timestamp: 0 }),
    });
    renderPage();
    clickText('Edit', await rowFound('Bob Ray'));
    expect(await screen.findByText('Enrolment of Bob Ray')).toBeTruthy();
    expect(screen.getByText('Bob Ray (bob)')).toBeTruthy();
    expect(screen.getByText('Fire safety · Spring 2026')).toBeTruthy();
    expect((screen.getByLabelText('Due') as HTMLInputElement).value).toBe('2026-02-01 18:00');

    fireEvent.mouseDown(screen.getByLabelText('Status', { selector: 'input' }));
    fireEvent.click(await findInPopup('Rejected'));
    clickText('Save');
    expect(await screen.findByText('Give a reason for the rejection')).toBeTruthy();
    expect(api.callsTo('PUT api/applicants')).toHaveLength(0);

    fill(screen.getByLabelText('Reason'), 'Left the company');
    clickText('Save');
    expect(await screen.findByText('is before the term starts')).toBeTruthy();
    expect(api.callsTo('PUT api/applicants')[0]?.body).toEqual({ id: 2, status: 'rejected', dueAt: '2026-02-01 18:00:00', reason: 'Left the company' });
    const dueItem = screen.getByLabelText('Due').closest('.ant-form-item')!;
    expect(within(dueItem as HTMLElement).getByText('is before the term starts')).toBeTruthy();
  });

  it('saves an enrolment and goes back to the list', async () => {
    const api = stubApplicants();
    renderPage();
    clickText('Edit', await rowFound('Ann Lee'));
    await screen.findByText('Enrolment of Ann Lee');
    fireEvent.mouseDown(screen.getByLabelText('Status', { selector: 'input' }));
    fireEvent.click(await findInPopup('Approved'));
    clickText('Save');
    await waitFor(() => expect(api.callsTo('PUT api/applicants')).toHaveLength(1));
    expect(api.callsTo('PUT api/applicants')[0]?.body).toEqual({ id: 1, status: 'approved', dueAt: null, reason: null });
    expect(await screen.findByText('Applicants of Fire safety')).toBeTruthy();
  });

  it('reads an enrolment opened from its address alone (a reload, a bookmark)', async () => {
    const api = stubRoutes({ [`GET api/applicants/${BOB.id}`]: () => BOB });
    renderWithProviders(
      <MemoryRouter initialEntries={[`/edu/edit-applicant?id=${BOB.id}`]}>
        <Routes>
          <Route path="/edu/edit-applicant" element={<ApplicantEditPage />} />
        </Routes>
      </MemoryRouter>,
    );
    expect((await screen.findAllByText(BOB.nickName, { exact: false })).length).toBeGreaterThan(0);
    expect(api.callsTo(`GET api/applicants/${BOB.id}`)).toHaveLength(1);
  });

  it('sends an editor opened for an enrolment that is gone back to the list', async () => {
    stubApplicants();
    renderWithProviders(
      <MemoryRouter initialEntries={['/edu/edit-applicant?id=99']}>
        <Routes>
          <Route path="/course/term/applicant" element={<p>the applicants</p>} />
          <Route path="/edu/edit-applicant" element={<ApplicantEditPage />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(await screen.findByText('This enrolment was not found; please open it from the applicants list.')).toBeTruthy();
    clickText('Back to the applicants');
    expect(await screen.findByText('the applicants')).toBeTruthy();
  });

  it('names statuses and sources in Chinese too', async () => {
    const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
    await initTestI18n('zh-CN');
    try {
      stubApplicants();
      renderPage();
      const bob = await rowFound('Bob Ray');
      expect(within(bob).getByText('学习中')).toBeTruthy();
      expect(within(bob).getByText('分配规则')).toBeTruthy();
      expect(screen.getByText('报名管理：Fire safety')).toBeTruthy();
    } finally {
      await initTestI18n('en-US');
    }
  });
});
