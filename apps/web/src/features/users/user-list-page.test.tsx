import type { Dept } from '@cloud-classroom/shared/depts';
import type { Role } from '@cloud-classroom/shared/roles';
import type { User } from '@cloud-classroom/shared/users';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi, stubBrowser, type ApiCall } from '../../components/list-page/list-page-test-kit';
import { configureHttpClient } from '../../lib/http-client';
import { useUserStore } from '../auth/user-store';
import UserListPage from './user-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

const stamp = { createBy: 'admin', updateBy: 'admin', createTime: '2025-03-01 09:00:00', updateTime: '2025-03-01 09:00:00' };

function dept(id: number, name: string, pid: number | null, subCount = 0): Dept {
  return { id, pid, name, enabled: true, deptSort: id, subCount, hasChildren: subCount > 0, leaf: subCount === 0, label: name, ...stamp };
}

const adminRole = { id: 1, name: 'Administrators', level: 1, dataScope: '全部' as const };
const staffRole = { id: 2, name: 'Teaching staff', level: 3, dataScope: '本级' as const };

function user(id: number, username: string, extra: Partial<User> = {}): User {
  return {
    id,
    username,
    nickName: `${username} nick`,
    gender: '男',
    phone: '13800000000',
    email: `${username}@example.com`,
    avatarName: null,
    enabled: true,
    pwdResetTime: null,
    dept: { id: 2, name: 'Teaching' },
    roles: [staffRole],
    ...stamp,
    ...extra,
  };
}

const users = [user(1, 'root', { roles: [adminRole] }), user(2, 'alice'), user(3, 'bob', { enabled: false })];
const roles: Role[] = [adminRole, staffRole].map((role) => ({ ...role, description: null, descriptionEn: null, depts: [], menus: [], ...stamp }));

function answer(call: ApiCall): unknown {
  const route = `${call.method} ${call.path}`;
  if (route === 'GET api/users') return { content: users, totalElements: users.length };
  if (route === 'GET api/roles/level') return { level: 3 };
  if (route === 'GET api/roles/all') return roles;
  if (route === 'GET api/dept') {
    const pid = call.params.get('pid');
    if (call.params.get('name')) return { content: [dept(4, 'Science', 2)], totalElements: 1 };
    const content = pid === null ? [dept(2, 'Teaching', null, 1), dept(3, 'Office', null)] : [dept(4, 'Science', 2)];
    return { content, totalElements: content.length };
  }
  if (route === 'POST api/users') return { password: 'Fresh-Pass-123' };
  if (route === 'PUT api/users/resetPwd') return { passwords: [{ id: 2, username: 'alice', password: 'Reset-Pass-456' }] };
  return undefined;
}

// antd's test build gives every modal title the same id, so dialogs are found by their title text.
const findDialog = async (title: string) => {
  await waitFor(() => expect(screen.getAllByRole('dialog').some((dialog) => dialog.textContent?.includes(title))).toBe(true));
  return screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes(title))!;
};
/** An option of an open select's popup (the department tree beside the list shows the same names). */
const findInPopup = async (title: string) => {
  await waitFor(() => expect(screen.getAllByTitle(title).some((element) => element.closest('.ant-select-dropdown'))).toBe(true));
  return screen.getAllByTitle(title).find((element) => element.closest('.ant-select-dropdown'))!;
};
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;
const listCalls = (calls: ApiCall[]) => calls.filter((call) => call.method === 'GET' && call.path === 'api/users');

// antd in jsdom is slow, the more so on a busy machine.
describe('user list page', { timeout: 180_000 }, () => {
  let calls: ApiCall[];
  beforeEach(() => {
    stubBrowser();
    useUserStore.setState({ roles: ['user:list', 'user:add', 'user:edit', 'user:del'], user: users[1] });
    calls = stubApi(answer);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('filters the users by the department clicked in the tree', async () => {
    renderWithProviders(<UserListPage />);
    expect(await screen.findByText('bob')).toBeTruthy();
    await userEvent.click(await screen.findByText('Office'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.params.get('deptId')).toBe('3'));
    expect(listCalls(calls).at(-1)?.params.get('page')).toBe('0');
  });

  it('searches the department tree by name', async () => {
    renderWithProviders(<UserListPage />);
    await screen.findByText('Office');
    const search = screen.getByRole('searchbox', { name: 'Search departments' });
    await userEvent.type(search, 'Sci{Enter}');
    expect(await screen.findByText('Science')).toBeTruthy();
    expect(screen.queryByText('Office')).toBeNull();
    expect(calls.some((call) => call.path === 'api/dept' && call.params.get('name') === 'Sci')).toBe(true);
  });

  it('validates a new user before sending anything', async () => {
    renderWithProviders(<UserListPage />);
    await screen.findByText('bob');
    await userEvent.click(screen.getByRole('button', { name: /Add/ }));
    const dialog = await findDialog('New user');
    fireEvent.change(within(dialog).getByLabelText('User name'), { target: { value: 'c' } });
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'no-at-sign' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    expect(await within(dialog).findByText('please use 2 to 20 letters, digits, _, - or .')).toBeTruthy();
    expect(within(dialog).getByText('please enter a correct e-mail address')).toBeTruthy();
    // Nick name, department and roles are required.
    // Each field's message appears when its own validation settles, not all at once.
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(3));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('refuses the user name "a b!": letters, digits, _, - and . only', async () => {
    renderWithProviders(<UserListPage />);
    await screen.findByText('bob');
    await userEvent.click(screen.getByRole('button', { name: /Add/ }));
    const dialog = await findDialog('New user');
    fireEvent.change(within(dialog).getByLabelText('User name'), { target: { value: 'a b!' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    expect(await within(dialog).findByText('please use 2 to 20 letters, digits, _, - or .')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('creates a user and shows the generated first password once', async () => {
    renderWithProviders(<UserListPage />);
    await screen.findByText('bob');
    await userEvent.click(screen.getByRole('button', { name: /Add/ }));
    const dialog = await findDialog('New user');
    const field = (label: string, value: string) => fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    field('User name', 'carol');
    field('Nick name', 'Carol');
    field('E-mail', 'carol@example.com');
    fireEvent.mouseDown(within(dialog).getByLabelText('Department'));
    await userEvent.click(await findInPopup('Office'));
    fireEvent.mouseDown(within(dialog).getByLabelText('Roles'));
    // A role above the caller's level (3) cannot be given.
    const above = await screen.findByRole('option', { name: 'Administrators' });
    expect(above.getAttribute('aria-disabled')).toBe('true');
    await userEvent.click(await findInPopup('Teaching staff'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));

    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      username: 'carol',
      nickName: 'Carol',
      gender: null,
      phone: null,
      email: 'carol@example.com',
      enabled: true,
      dept: { id: 3 },
      roles: [{ id: 2 }],
    });
    const shown = await findDialog('User created');
    expect(within(shown).getByText('Fresh-Pass-123')).toBeTruthy();
    expect(within(shown).getByText(/first password of "carol"/)).toBeTruthy();
    await userEvent.click(within(shown).getByRole('button', { name: /I have saved it/ }));
    await waitFor(() => expect(screen.queryByText('Fresh-Pass-123')).toBeNull());
  });

  it('edits one row after another, each dialog showing and sending its own user', async () => {
    // root may edit alice and bob; the dialog stays mounted between openings.
    useUserStore.setState({ user: users[0] });
    renderWithProviders(<UserListPage />);
    await screen.findByText('bob');
    const userName = (dialog: HTMLElement) => (within(dialog).getByLabelText('User name') as HTMLInputElement).value;
    const nickName = (dialog: HTMLElement) => (within(dialog).getByLabelText('Nick name') as HTMLInputElement).value;

    await userEvent.click(within(rowOf('alice')).getByRole('button', { name: 'Edit' }));
    let dialog = await findDialog('Edit user');
    await waitFor(() => expect(userName(dialog)).toBe('alice'));
    expect(nickName(dialog)).toBe('alice nick');
    await userEvent.click(within(dialog).getByRole('button', { name: 'cancel' }));

    await userEvent.click(within(rowOf('bob')).getByRole('button', { name: 'Edit' }));
    dialog = await findDialog('Edit user');
    await waitFor(() => expect(userName(dialog)).toBe('bob'));
    expect(nickName(dialog)).toBe('bob nick');
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT' && call.path === 'api/users')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      id: 3,
      username: 'bob',
      nickName: 'bob nick',
      gender: '男',
      phone: '13800000000',
      email: 'bob@example.com',
      enabled: false,
      dept: { id: 2 },
      roles: [{ id: 2 }],
    });

    // Reopened straight after a save: alice again, not bob.
    await userEvent.click(within(rowOf('alice')).getByRole('button', { name: 'Edit' }));
    dialog = await findDialog('Edit user');
    await waitFor(() => expect(userName(dialog)).toBe('alice'));
  });

  it('switches a user on only after confirming, sending the whole user', async () => {
    renderWithProviders(<UserListPage />);
    await screen.findByText('bob');
    const bobSwitch = within(rowOf('bob')).getByRole('switch');
    await userEvent.click(bobSwitch);
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('Enable the user "bob"?')).toBeTruthy();
    expect(within(confirm).getAllByText('Enable user').length).toBeGreaterThan(0);
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PUT' && call.path === 'api/users')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      id: 3,
      username: 'bob',
      nickName: 'bob nick',
      gender: '男',
      phone: '13800000000',
      email: 'bob@example.com',
      enabled: true,
      dept: { id: 2 },
      roles: [{ id: 2 }],
    });
  });

  it('resets a password after confirmation and shows the new one', async () => {
    useUserStore.setState({ user: users[2] });
    renderWithProviders(<UserListPage />);
    await screen.findByText('alice');
    await userEvent.click(within(rowOf('alice')).getByRole('button', { name: 'Reset password' }));
    const dialog = await findDialog('Reset password');
    expect(within(dialog).getByText('Reset the password of "alice"? Their sessions will end.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.filter((call) => call.path === 'api/users/resetPwd')).toHaveLength(1));
    expect(calls.find((call) => call.path === 'api/users/resetPwd')?.body).toEqual({ ids: [2] });
    const shown = await findDialog('New passwords');
    expect(within(shown).getByText('Reset-Pass-456')).toBeTruthy();
  });

  it('offers no changes to users above the caller, nor to themselves, nor without permissions', async () => {
    renderWithProviders(<UserListPage />);
    await screen.findByText('bob');
    // root holds a level-1 role, the caller level 3.
    expect(within(rowOf('root')).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect((within(rowOf('root')).getByRole('switch') as HTMLButtonElement).disabled).toBe(true);
    // alice is the caller.
    expect((within(rowOf('alice')).getByRole('switch') as HTMLButtonElement).disabled).toBe(true);
    expect(within(rowOf('alice')).queryByRole('button', { name: 'Delete' })).toBeNull();
    cleanup();

    useUserStore.setState({ roles: ['user:list'] });
    renderWithProviders(<UserListPage />);
    await screen.findByText('bob');
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Reset password/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
    expect((within(rowOf('bob')).getByRole('switch') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a refusal naming a field under that field, and any other as a notification', async () => {
    const notified = vi.fn<(message: string) => void>();
    configureHttpClient({ notifyError: notified });
    const refusals: Record<string, Response> = {
      '13800000009': jsonResponse(400, { status: 400, message: 'phone: please enter a correct phone number', timestamp: 0 }),
      // The wire's `dept` is the form's `deptId`.
      '13800000008': jsonResponse(400, { status: 400, message: 'dept.id: no such department', timestamp: 0 }),
      '13800000007': jsonResponse(400, { status: 400, message: 'the user cannot be saved now', timestamp: 0 }),
    };
    stubApi((call) => {
      const phone = (call.body as { phone?: string } | undefined)?.phone;
      if (call.method === 'PUT' && call.path === 'api/users' && phone !== undefined) return refusals[phone] ?? answer(call);
      return answer(call);
    });
    try {
      useUserStore.setState({ user: users[0] });
      renderWithProviders(<UserListPage />);
      await screen.findByText('bob');
      await userEvent.click(within(rowOf('bob')).getByRole('button', { name: 'Edit' }));
      const dialog = await findDialog('Edit user');
      const itemOf = (label: string) => within(dialog).getByLabelText(label).closest<HTMLElement>('.ant-form-item')!;
      const send = async (phone: string) => {
        fireEvent.change(within(dialog).getByLabelText('Phone'), { target: { value: phone } });
        await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
      };

      await send('13800000009');
      expect(await within(itemOf('Phone')).findByText('please enter a correct phone number')).toBeTruthy();
      await send('13800000008');
      expect(await within(itemOf('Department')).findByText('no such department')).toBeTruthy();
      expect(notified).not.toHaveBeenCalled();

      await send('13800000007');
      await waitFor(() => expect(notified.mock.calls).toEqual([['the user cannot be saved now']]));
      // Refused every time: the dialog stays for another try.
      expect(screen.getAllByRole('dialog').includes(dialog)).toBe(true);
    } finally {
      configureHttpClient({ notifyError: () => {} });
    }
  });
});
