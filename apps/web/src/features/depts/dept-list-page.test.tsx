import type { Dept, DeptTree } from '@cloud-classroom/shared/depts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import DeptListPage from './dept-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

function dept(fields: Partial<Dept> & Pick<Dept, 'id' | 'name'>): Dept {
  const subCount = fields.subCount ?? 0;
  return {
    pid: null,
    enabled: true,
    deptSort: 1,
    subCount,
    hasChildren: subCount > 0,
    leaf: subCount === 0,
    label: fields.name,
    ...AUDIT,
    ...fields,
  };
}

const head = dept({ id: 1, name: 'Head office', subCount: 2 });
const branch = dept({ id: 5, name: 'Branch', enabled: false });
const training = dept({ id: 2, pid: 1, name: 'Training', deptSort: 1 });
const finance = dept({ id: 3, pid: 1, name: 'Finance', deptSort: 2 });

function stubDepts() {
  return stubRoutes({
    'GET api/dept': ({ params }) => {
      if (params.get('pid') === '1') return { content: [training, finance], totalElements: 2 };
      if (params.get('name') === 'fin') return { content: [finance], totalElements: 1 };
      return { content: [head, branch], totalElements: 2 };
    },
    'POST api/dept/superior': (): DeptTree[] => [{ ...head, children: [finance] }, branch],
    'POST api/dept': () => undefined,
    'PUT api/dept': () => undefined,
    'DELETE api/dept': () => undefined,
  });
}

// antd renders a lot of DOM; on a busy machine jsdom needs more than the default 5 s.
vi.setConfig({ testTimeout: 60_000 });

describe('DeptListPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
    vi.mocked(downloadFile).mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('pages through the top level and loads a department’s children on expand', async () => {
    const api = stubDepts();
    renderWithProviders(<DeptListPage />);
    expect(await screen.findByText('Head office')).toBeTruthy();
    expect(screen.queryByText('Training')).toBeNull();
    const list = api.callsTo('GET api/dept')[0]!;
    expect([list.params.get('page'), list.params.get('size'), list.params.get('sort')]).toEqual(['0', '10', 'deptSort,asc']);

    fireEvent.click(screen.getByText('Head office').closest('tr')!.querySelector('.ant-table-row-expand-icon')!);
    expect(await screen.findByText('Training')).toBeTruthy();
    const children = api.callsTo('GET api/dept').find((call) => call.params.get('pid') === '1');
    expect(children?.params.get('size')).toBe('9999');
  });

  it('searches by name and exports with the same filter', async () => {
    const api = stubDepts();
    renderWithProviders(<DeptListPage />);
    await screen.findByText('Head office');
    fill(screen.getByLabelText('Name'), 'fin');
    clickText('Search');
    expect(await screen.findByText('Finance')).toBeTruthy();
    expect(api.callsTo('GET api/dept').at(-1)?.params.get('name')).toBe('fin');

    clickText('Export');
    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(1));
    expect(vi.mocked(downloadFile).mock.calls[0]?.slice(0, 3)).toEqual([
      'api/dept/download',
      { name: 'fin', sort: ['deptSort,asc'] },
      'departments',
    ]);
  });

  it('adds a top-level department and refuses an empty name', async () => {
    const api = stubDepts();
    renderWithProviders(<DeptListPage />);
    await screen.findByText('Head office');
    clickText('Add');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText('Parent department')).toBeNull();
    clickText('confirm');
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(api.callsTo('POST api/dept')).toHaveLength(0);

    fill(within(dialog).getByLabelText('Name'), '  Sales ');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('POST api/dept')).toHaveLength(1));
    expect(api.callsTo('POST api/dept')[0]?.body).toEqual({ name: 'Sales', deptSort: 999, enabled: true, pid: null });
  });

  it('asks for the parent when the department is not top level', async () => {
    const api = stubDepts();
    renderWithProviders(<DeptListPage />);
    await screen.findByText('Head office');
    clickText('Add');
    const dialog = await screen.findByRole('dialog');
    fill(within(dialog).getByLabelText('Name'), 'Sales');
    clickText('No', within(dialog).getByText('Top level').closest('.ant-form-item') as HTMLElement);
    expect(await within(dialog).findByLabelText('Parent department')).toBeTruthy();
    clickText('confirm');
    expect(await within(dialog).findByText('Please choose the parent department')).toBeTruthy();
    expect(api.callsTo('POST api/dept')).toHaveLength(0);
    // The picker starts from the top level.
    expect(api.callsTo('GET api/dept').some((call) => !call.params.has('pid') && call.params.get('size') === '9999')).toBe(true);
  });

  it('edits a sub-department keeping its parent, with the picker built around it', async () => {
    const api = stubDepts();
    renderWithProviders(<DeptListPage />);
    fireEvent.click((await screen.findByText('Head office')).closest('tr')!.querySelector('.ant-table-row-expand-icon')!);
    const financeRow = (await screen.findByText('Finance')).closest('tr')!;
    clickText('Edit', financeRow);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(api.callsTo('POST api/dept/superior')[0]?.body).toEqual([3]));
    expect(api.callsTo('POST api/dept/superior')[0]?.params.get('exclude')).toBe('true');
    fill(within(dialog).getByLabelText('Sort order'), '7');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('PUT api/dept')).toHaveLength(1));
    expect(api.callsTo('PUT api/dept')[0]?.body).toEqual({ id: 3, name: 'Finance', deptSort: 7, enabled: true, pid: 1 });
  });

  it('disables a department from its switch after confirmation', async () => {
    const api = stubDepts();
    renderWithProviders(<DeptListPage />);
    await screen.findByText('Head office');
    fireEvent.click(screen.getByLabelText('Head office: Enabled'));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('Disable the department "Head office"?')).toBeTruthy();
    expect(within(confirm).getAllByText('Disable department').length).toBeGreaterThan(0);
    clickText('confirm', confirm);
    await waitFor(() => expect(api.callsTo('PUT api/dept')).toHaveLength(1));
    expect(api.callsTo('PUT api/dept')[0]?.body).toEqual({ id: 1, name: 'Head office', pid: null, deptSort: 1, enabled: false });
  });

  it('says a delete takes the subtree and sends the ids', async () => {
    const api = stubDepts();
    renderWithProviders(<DeptListPage />);
    clickText('Delete', (await screen.findByText('Branch')).closest('tr')!);
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText(/Every department below them is deleted too/)).toBeTruthy();
    clickText('confirm', confirm);
    await waitFor(() => expect(api.callsTo('DELETE api/dept')[0]?.body).toEqual([5]));
  });

  it('gives a list-only user no write buttons and a read-only switch', async () => {
    stubDepts();
    signInAs(['dept:list']);
    renderWithProviders(<DeptListPage />);
    await screen.findByText('Head office');
    expect(screen.queryByText('Add')).toBeNull();
    expect(screen.queryByText('Delete')).toBeNull();
    expect(screen.queryByText('Edit')).toBeNull();
    expect((screen.getByLabelText('Head office: Enabled') as HTMLButtonElement).disabled).toBe(true);
  });
});
