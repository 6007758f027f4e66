import type { Menu } from '@cloud-classroom/shared/menus';
import type { Role } from '@cloud-classroom/shared/roles';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi, stubBrowser, type ApiCall } from '../../components/list-page/list-page-test-kit';
import { useUserStore } from '../auth/user-store';
import RoleListPage from './role-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

const stamp = { createBy: 'admin', updateBy: 'admin', createTime: '2025-03-01 09:00:00', updateTime: '2025-03-01 09:00:00' };

function role(id: number, name: string, level: number, menus: number[] = []): Role {
  return { id, name, level, dataScope: '全部', description: `${name} role`, descriptionEn: null, depts: [], menus: menus.map((menu) => ({ id: menu, title: `m${menu}` })), ...stamp };
}

function menu(id: number, title: string, type: 0 | 1 | 2, pid: number | null, subCount = 0): Menu {
  return {
    id, pid, type, title, titleEn: null, componentName: null, component: null, path: null, icon: null, menuSort: id, permission: null,
    iFrame: false, cache: false, hidden: false, subCount, hasChildren: subCount > 0, leaf: subCount === 0, label: title, ...stamp,
  };
}

const roles = [{ ...role(1, 'Administrators', 1), description: '管理员：全部权限', descriptionEn: 'Everything, in English' }, role(2, 'Teachers', 3, [1, 2, 3]), { ...role(3, 'Tutors', 4), dataScope: '本级' as const }];
const menusByParent: Record<string, Menu[]> = {
  top: [menu(1, 'System', 0, null, 2), menu(10, 'Courses', 1, null)],
  '1': [menu(2, 'Users', 1, 1, 2), menu(5, 'Roles', 1, 1)],
  '2': [menu(3, 'Add user', 2, 2), menu(4, 'Delete user', 2, 2)],
};

function answer(call: ApiCall): unknown {
  const route = `${call.method} ${call.path}`;
  if (route === 'GET api/roles') return { content: roles, totalElements: roles.length };
  if (route === 'GET api/roles/level') return { level: 3 };
  if (route === 'GET api/roles/2') return roles[1];
  if (route === 'GET api/roles/1') return roles[0];
  if (route === 'GET api/menus/lazy') return menusByParent[call.params.get('pid') ?? 'top'] ?? [];
  if (route === 'GET api/dept') {
    const content = [{ id: 7, pid: null, name: 'Teaching', enabled: true, deptSort: 1, subCount: 0, hasChildren: false, leaf: true, label: 'Teaching', ...stamp }];
    return { content, totalElements: 1 };
  }
  return undefined;
}

// antd's test build gives every modal title the same id, so dialogs are found by their title text.
const findDialog = async (title: string) => {
  await waitFor(() => expect(screen.getAllByRole('dialog').some((dialog) => dialog.textContent?.includes(title))).toBe(true));
  return screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes(title))!;
};
const treeNode = (title: string) => screen.getByText(title).closest('.ant-tree-treenode')!;
const checkbox = (title: string) => treeNode(title).querySelector('.ant-tree-checkbox')!;
const isTicked = (title: string) => checkbox(title).classList.contains('ant-tree-checkbox-checked');

// antd in jsdom is slow, the more so on a busy machine.
describe('role list page', { timeout: 180_000 }, () => {
  let calls: ApiCall[];
  beforeEach(() => {
    stubBrowser();
    useUserStore.setState({ roles: ['roles:list', 'roles:add', 'roles:edit', 'roles:del'] });
    calls = stubApi(answer);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists roles with their data scope and sorts by level first', async () => {
    renderWithProviders(<RoleListPage />);
    expect(await screen.findByText('Teachers')).toBeTruthy();
    expect(screen.getAllByText('All')).toHaveLength(2);
    // A description in the reader's language, the Chinese one where there is no English.
    expect(screen.getByText('Everything, in English')).toBeTruthy();
    expect(screen.queryByText('管理员：全部权限')).toBeNull();
    expect(screen.getByText('Teachers role')).toBeTruthy();
    const first = calls.find((call) => call.path === 'api/roles');
    expect(first?.params.getAll('sort')).toEqual(['level,asc', 'id,asc']);
    expect(first?.params.get('page')).toBe('0');
  });

  it('checks a new role before sending: name, level within reach, departments for a custom scope', async () => {
    renderWithProviders(<RoleListPage />);
    await screen.findByText('Teachers');
    await userEvent.click(screen.getByRole('button', { name: /Add/ }));
    const dialog = await findDialog('New role');
    fireEvent.mouseDown(within(dialog).getByLabelText('Data scope'));
    await userEvent.click(await screen.findByTitle('Chosen departments'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));

    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(await within(dialog).findByText('Choose at least one department for a custom data scope')).toBeTruthy();
    // Levels above the caller's own (3) cannot be entered.
    expect(within(dialog).getByText(/you can manage roles of level 3 or above/)).toBeTruthy();
    expect(within(dialog).getByLabelText('Level').getAttribute('aria-valuemin')).toBe('3');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Tutors' } });
    fireEvent.change(within(dialog).getByLabelText('Level'), { target: { value: '4' } });
    fireEvent.click(within(dialog).getByText('Teaching').closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox')!);
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({
      path: 'api/roles',
      body: { name: 'Tutors', level: 4, dataScope: '自定义', description: null, descriptionEn: null, depts: [{ id: 7 }] },
    });
  });

  it('edits one role after another, each dialog showing and sending its own role', async () => {
    renderWithProviders(<RoleListPage />);
    await screen.findByText('Tutors');
    const rowOf = (text: string) => screen.getAllByText(text).find((element) => element.closest('tr'))!.closest('tr')!;
    const name = (dialog: HTMLElement) => (within(dialog).getByLabelText('Name') as HTMLInputElement).value;

    await userEvent.click(within(rowOf('Teachers')).getByRole('button', { name: 'Edit' }));
    let dialog = await findDialog('Edit role');
    await waitFor(() => expect(name(dialog)).toBe('Teachers'));
    expect((within(dialog).getByLabelText('Level') as HTMLInputElement).value).toBe('3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'cancel' }));

    await userEvent.click(within(rowOf('Tutors')).getByRole('button', { name: 'Edit' }));
    dialog = await findDialog('Edit role');
    await waitFor(() => expect(name(dialog)).toBe('Tutors'));
    expect((within(dialog).getByLabelText('Level') as HTMLInputElement).value).toBe('4');
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: 'api/roles',
      body: { id: 3, name: 'Tutors', level: 4, dataScope: '本级', description: 'Tutors role', descriptionEn: null, depts: [] },
    });
  });

  it('forgets the role shown in the menu panel when that role is deleted', async () => {
    let deleted: number[] = [];
    calls = stubApi((call) => {
      if (call.method === 'DELETE') deleted = call.body as number[];
      if (call.method === 'GET' && call.path === 'api/roles') {
        const left = roles.filter((role) => !deleted.includes(role.id));
        return { content: left, totalElements: left.length };
      }
      if (call.method === 'GET' && call.path === 'api/roles/3') {
        return deleted.includes(3) ? jsonResponse(404, { status: 404, message: 'role 3 not found', timestamp: 0 }) : roles[2];
      }
      return answer(call);
    });
    renderWithProviders(<RoleListPage />);
    await userEvent.click(await screen.findByText('Tutors'));
    expect(await screen.findByText('Menus and buttons of "Tutors"')).toBeTruthy();

    const row = screen.getAllByText('Tutors').find((element) => element.closest('tr'))!.closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(deleted).toEqual([3]));
    expect(await screen.findByText('Click a role in the list to assign its menus and buttons')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Tutors')).toBeNull());
    expect(screen.queryByText('Menus and buttons of "Tutors"')).toBeNull();
    expect(screen.queryByText('role 3 not found')).toBeNull();
    const afterDelete = calls.slice(calls.findIndex((call) => call.method === 'DELETE'));
    expect(afterDelete.some((call) => call.path === 'api/roles/3')).toBe(false);
  });

  it("shows the clicked role's menus and saves the ticks, whole subtrees at a time", async () => {
    renderWithProviders(<RoleListPage />);
    expect(screen.getByText('Click a role in the list to assign its menus and buttons')).toBeTruthy();
    await userEvent.click(await screen.findByText('Teachers'));
    expect(await screen.findByText('Menus and buttons of "Teachers"')).toBeTruthy();
    await screen.findByText('Delete user');
    expect(['System', 'Users', 'Add user'].map(isTicked)).toEqual([true, true, true]);
    expect(['Delete user', 'Roles', 'Courses'].map(isTicked)).toEqual([false, false, false]);

    fireEvent.click(checkbox('Roles'));
    fireEvent.click(checkbox('Users'));
    await waitFor(() => expect(isTicked('Add user')).toBe(false));
    fireEvent.click(checkbox('Courses'));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(calls.filter((call) => call.path === 'api/roles/menu')).toHaveLength(1));
    const saved = calls.find((call) => call.path === 'api/roles/menu')!;
    expect(saved.method).toBe('PUT');
    expect(saved.body).toEqual({ id: 2, menus: [{ id: 1 }, { id: 5 }, { id: 10 }] });
  });

  it('ticking a button ticks the pages and directories above it', async () => {
    renderWithProviders(<RoleListPage />);
    await userEvent.click(await screen.findByText('Teachers'));
    await screen.findByText('Delete user');
    fireEvent.click(checkbox('Users'));
    await waitFor(() => expect(isTicked('Users')).toBe(false));
    expect(isTicked('System')).toBe(true);
    fireEvent.click(checkbox('System'));
    await waitFor(() => expect(isTicked('System')).toBe(false));
    fireEvent.click(checkbox('Delete user'));
    await waitFor(() => expect(['Delete user', 'Users', 'System'].map(isTicked)).toEqual([true, true, true]));
    expect(isTicked('Add user')).toBe(false);
  });

  it('offers no changes to roles above the caller', async () => {
    renderWithProviders(<RoleListPage />);
    await screen.findByText('Administrators');
    const adminRow = screen.getByText('Administrators').closest('tr')!;
    expect(within(adminRow).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(screen.getByText('Teachers').closest('tr')!).getByRole('button', { name: 'Edit' })).toBeTruthy();
    await userEvent.click(screen.getByText('Administrators'));
    await screen.findByText('Menus and buttons of "Administrators"');
    expect((screen.getByRole('button', { name: /Save/ }) as HTMLButtonElement).disabled).toBe(true);
  });
});
