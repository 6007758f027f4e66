import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form, Input } from 'antd';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUserStore } from '../../features/auth/user-store';
import { downloadFile } from '../../lib/download';
import { http } from '../../lib/http-client';
import { FormDialog } from './form-dialog';
import { ListPage } from './list-page';
import { listQuery } from './list-query';
import { jsonResponse, renderWithProviders, stubApi, stubBrowser, type ApiCall } from './list-page-test-kit';
import { SearchBar } from './search-bar';
import { useListPage } from './use-list-page';
import { zodRule } from './zod-rule';
import { userCreateSchema } from '@cloud-classroom/shared/users';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('./list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

type Thing = { id: number; name: string; email: string | null };
type ThingFilter = { blurry?: string };

const thingList = listQuery<Thing>(['things'], 'api/things');

const things: Thing[] = Array.from({ length: 25 }, (_, index) => ({
  id: index + 1,
  name: `thing ${index + 1}`,
  email: `t${index + 1}@example.com`,
}));

function ThingsPage() {
  const list = useListPage<Thing, ThingFilter>({ query: thingList, defaultSort: ['id,desc'] });
  const [open, setOpen] = useState(false);
  return (
    <>
      <ListPage
        list={list}
        rowKey="id"
        columns={[
          { key: 'id', title: 'No.', dataIndex: 'id', sortable: true },
          { key: 'name', title: 'Name', dataIndex: 'name', sortable: true },
          { key: 'email', title: 'E-mail', dataIndex: 'email' },
        ]}
        search={
          <SearchBar list={list}>
            <Form.Item name="blurry">
              <Input placeholder="find" />
            </Form.Item>
          </SearchBar>
        }
        add={{ permission: ['admin', 'dict:add'], onClick: () => setOpen(true) }}
        edit={{ permission: ['admin', 'dict:edit'], onClick: () => {} }}
        del={{ permission: ['admin', 'dict:del'], rowName: (thing) => thing.name }}
        exportFile={{ permission: ['admin', 'dict:list'], fileName: 'things' }}
      />
      <FormDialog<{ email: string }>
        open={open}
        title="New thing"
        onSubmit={(values, request) => http.post('api/things', values, request)}
        onClose={() => setOpen(false)}
      >
        <Form.Item name="email" label="E-mail" rules={[zodRule(userCreateSchema.shape.email)]}>
          <Input />
        </Form.Item>
      </FormDialog>
    </>
  );
}

function answerThings(call: ApiCall) {
  if (call.method === 'POST' && (call.body as { email?: string }).email === 'offline@example.com' && calls.filter((sent) => sent.method === 'POST').length === 1) {
    throw new TypeError('Failed to fetch');
  }
  if (call.method === 'POST' && (call.body as { email?: string }).email === 'taken@example.com') {
    return jsonResponse(409, { status: 409, message: 'email: taken@example.com is already in use', timestamp: 0 });
  }
  if (call.method === 'GET' && call.path === 'api/things') {
    const page = Number(call.params.get('page'));
    const size = Number(call.params.get('size'));
    return { content: things.slice(page * size, page * size + size), totalElements: things.length };
  }
  return undefined;
}

const lists = (calls: ApiCall[]) => calls.filter((call) => call.method === 'GET' && call.path === 'api/things');

// antd in jsdom is slow; a whole page with a dialog takes seconds.
let calls: ApiCall[];

describe('list page pattern', { timeout: 30_000 }, () => {
  beforeEach(() => {
    stubBrowser();
    useUserStore.setState({ roles: ['admin'] });
    calls = stubApi(answerThings);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(downloadFile).mockClear();
  });

  it('asks for page 0 first and sends the 0-based page of the page clicked', async () => {
    renderWithProviders(<ThingsPage />);
    expect(await screen.findByText('thing 1')).toBeTruthy();
    expect(lists(calls)[0]?.params.toString()).toBe('page=0&size=10&sort=id%2Cdesc');
    await userEvent.click(screen.getByTitle('3'));
    expect(await screen.findByText('thing 21')).toBeTruthy();
    expect(lists(calls).at(-1)?.params.get('page')).toBe('2');
  });

  it('says beside the total how many matching rows the reader’s data scope hides', async () => {
    calls = stubApi((call) => (lists([call]).length === 1 ? { content: things.slice(0, 10), totalElements: things.length, outsideScope: 2 } : undefined));
    renderWithProviders(<ThingsPage />);
    expect(await screen.findByText(new RegExp(`${things.length}.*2`))).toBeTruthy();
    expect(screen.getByText(/(另有 2 条在您管理的部门之外|2 more outside your departments)/)).toBeTruthy();
  });

  it('sorts on the server with field,dir strings', async () => {
    renderWithProviders(<ThingsPage />);
    await screen.findByText('thing 1');
    await userEvent.click(screen.getByRole('columnheader', { name: /Name/ }));
    await waitFor(() => expect(lists(calls).at(-1)?.params.getAll('sort')).toEqual(['name,desc']));
    await userEvent.click(screen.getByRole('columnheader', { name: /Name/ }));
    await waitFor(() => expect(lists(calls).at(-1)?.params.getAll('sort')).toEqual(['name,asc']));
  });

  it('reaches ascending on the column the list sorts by by default, and back', async () => {
    renderWithProviders(<ThingsPage />);
    await screen.findByText('thing 1');
    expect(lists(calls).at(-1)?.params.getAll('sort')).toEqual(['id,desc']);
    await userEvent.click(screen.getByRole('columnheader', { name: /No\./ }));
    await waitFor(() => expect(lists(calls).at(-1)?.params.getAll('sort')).toEqual(['id,asc']));
    await userEvent.click(screen.getByRole('columnheader', { name: /No\./ }));
    await waitFor(() => expect(lists(calls).at(-1)?.params.getAll('sort')).toEqual(['id,desc']));
  });

  it('sends the search filter and starts again from page 0', async () => {
    renderWithProviders(<ThingsPage />);
    await screen.findByText('thing 1');
    await userEvent.click(screen.getByTitle('2'));
    await screen.findByText('thing 11');
    await userEvent.type(screen.getByPlaceholderText('find'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(lists(calls).at(-1)?.params.get('blurry')).toBe('abc'));
    expect(lists(calls).at(-1)?.params.get('page')).toBe('0');
  });

  it('deletes the selected rows only after a confirmation naming how many', async () => {
    renderWithProviders(<ThingsPage />);
    await screen.findByText('thing 1');
    const remove = screen.getByRole('button', { name: /Delete/ });
    expect((remove as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(within(screen.getByText('thing 1').closest('tr')!).getByRole('checkbox'));
    await userEvent.click(within(screen.getByText('thing 2').closest('tr')!).getByRole('checkbox'));
    await userEvent.click(remove);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete the 2 selected items?')).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await userEvent.click(within(dialog).getByRole('button', { name: 'cancel' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await userEvent.click(remove);
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1));
    const deletion = calls.find((call) => call.method === 'DELETE')!;
    expect(deletion.path).toBe('api/things');
    expect(deletion.body).toEqual([1, 2]);
    expect(await screen.findByText('Deleted')).toBeTruthy();
  });

  it('names the one row it is about to delete', async () => {
    renderWithProviders(<ThingsPage />);
    await screen.findByText('thing 3');
    await userEvent.click(within(screen.getByText('thing 3').closest('tr')!).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: /Delete/ }));
    expect(within(await screen.findByRole('dialog')).getByText('Delete "thing 3"?')).toBeTruthy();
  });

  it('exports with the current filter and sort', async () => {
    renderWithProviders(<ThingsPage />);
    await screen.findByText('thing 1');
    await userEvent.type(screen.getByPlaceholderText('find'), 'xyz');
    await userEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(lists(calls).at(-1)?.params.get('blurry')).toBe('xyz'));
    await userEvent.click(screen.getByRole('button', { name: /Export/ }));
    expect(downloadFile).toHaveBeenCalledWith('api/things/download', { blurry: 'xyz', sort: ['id,desc'] }, 'things');
  });

  it('hides a column unticked in the column toggle', async () => {
    renderWithProviders(<ThingsPage />);
    await screen.findByText('thing 1');
    expect(screen.getByText('t1@example.com')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'E-mail' }));
    await waitFor(() => expect(screen.queryByText('t1@example.com')).toBeNull());
    expect(screen.getByText('thing 1')).toBeTruthy();
  });

  it('hides the buttons the user has no permission for', async () => {
    useUserStore.setState({ roles: ['dict:list'] });
    renderWithProviders(<ThingsPage />);
    await screen.findByText('thing 1');
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
  });

  it('enables edit only with exactly one row selected', async () => {
    renderWithProviders(<ThingsPage />);
    await screen.findByText('thing 1');
    const edit = screen.getByRole('button', { name: /Edit/ }) as HTMLButtonElement;
    expect(edit.disabled).toBe(true);
    await userEvent.click(within(screen.getByText('thing 1').closest('tr')!).getByRole('checkbox'));
    expect(edit.disabled).toBe(false);
    await userEvent.click(within(screen.getByText('thing 2').closest('tr')!).getByRole('checkbox'));
    expect(edit.disabled).toBe(true);
  });

  it('validates the form dialog with the shared schema before sending, and shows a refused field under it', async () => {
    renderWithProviders(<ThingsPage />);
    await screen.findByText('thing 1');
    await userEvent.click(screen.getByRole('button', { name: /Add/ }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('E-mail'), 'not-an-address');
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    expect(await within(dialog).findByText('please enter a correct e-mail address')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    // A refusal naming the field is shown under it, and the dialog stays open.
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'taken@example.com' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    expect(await within(dialog).findByText('taken@example.com is already in use')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'a@example.com' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { email: 'taken@example.com' },
      { email: 'a@example.com' },
    ]);
  });

  it('sends a double-clicked confirm once, with an idempotency key, and a retry after no answer with the same key', async () => {
    renderWithProviders(<ThingsPage />);
    await screen.findByText('thing 1');
    await userEvent.click(screen.getByRole('button', { name: /Add/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('E-mail'), { target: { value: 'offline@example.com' } });
    const confirm = within(dialog).getByRole('button', { name: 'confirm' });
    // Both clicks land before React re-renders the button as loading.
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    // The first got no answer: confirming again is its retry, under the same key.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'confirm' }).classList.contains('ant-btn-loading')).toBe(false));
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    const keys = calls.filter((call) => call.method === 'POST').map((call) => call.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});
