import { STORAGE_MAX_BYTES, type LocalStorage } from '@cloud-classroom/shared/storage';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi, stubBrowser, type ApiCall } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { useUserStore } from '../auth/user-store';
import StorageListPage from './storage-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

configure({ asyncUtilTimeout: 5000 });

// The file picker's accept list would hide the wrong files this test means to offer.
const userEvent = userEventLib.setup({ applyAccept: false });

const stored = (id: number, name: string, suffix: string, type: LocalStorage['type']): LocalStorage => ({
  id,
  realName: `${'a'.repeat(31)}${id}.${suffix}`,
  name,
  suffix,
  type,
  size: '1.50 MiB',
  bytes: 1572864,
  url: `/file/202601/${'a'.repeat(31)}${id}.${suffix}`,
  createBy: 'admin',
  updateBy: null,
  createTime: '2026-01-07 09:00:00',
  updateTime: '2026-01-07 09:00:00',
});

let files: LocalStorage[] = [];
let releaseUpload: (() => void) | undefined;

async function answer(call: ApiCall): Promise<unknown> {
  const route = `${call.method} ${call.path}`;
  if (route === 'GET api/localStorage') return { content: files, totalElements: files.length };
  if (route === 'POST api/localStorage') {
    await new Promise<void>((resolve) => (releaseUpload = resolve));
    const file = (call.body as FormData).get('file') as File;
    const added = stored(9, call.params.get('name') ?? file.name, 'pdf', '文档');
    files = [added, ...files];
    return added;
  }
  if (route === 'PUT api/localStorage' || route === 'DELETE api/localStorage') return undefined;
  throw new Error(`unexpected ${route}`);
}

const dialogWith = async (text: string) => {
  await waitFor(() => expect(screen.getAllByRole('dialog').some((dialog) => dialog.textContent?.includes(text))).toBe(true));
  return screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes(text))!;
};
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('storage page', { timeout: 120_000 }, () => {
  let calls: ApiCall[];
  beforeEach(() => {
    stubBrowser();
    files = [stored(1, 'campus.png', 'png', '图片'), stored(2, 'Handbook', 'pdf', '文档')];
    useUserStore.setState({ roles: ['storage:list', 'storage:add', 'storage:edit', 'storage:del'] });
    calls = stubApi(answer);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(downloadFile).mockClear();
  });

  it('lists files with a picture preview, their type and size, each name opening its file', async () => {
    renderWithProviders(<StorageListPage />);
    await screen.findByText('Handbook');
    const picture = screen.getByRole('img', { name: 'campus.png' });
    expect(picture.getAttribute('src')).toBe('/file/202601/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1.png');
    expect(within(rowOf('Handbook')).getByText('Document')).toBeTruthy();
    expect(within(rowOf('Handbook')).getByText('1.50 MiB')).toBeTruthy();
    expect(within(rowOf('Handbook')).queryByRole('img', { name: 'Handbook' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Handbook' }).getAttribute('href')).toBe('/file/202601/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2.pdf');
  });

  it('refuses a missing, unsupported or oversized file before uploading', async () => {
    renderWithProviders(<StorageListPage />);
    await screen.findByText('Handbook');
    await userEvent.click(screen.getByRole('button', { name: /Upload/ }));
    const dialog = await dialogWith('Upload a file');
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    expect(await within(dialog).findByText('Please choose a file to upload')).toBeTruthy();

    // The picker swaps its input for a fresh one after each choice.
    const input = () => dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input(), new File(['MZ'], 'setup.exe', { type: 'application/octet-stream' }));
    expect(await within(dialog).findByText(/This kind of file is not accepted/)).toBeTruthy();

    const huge = new File(['%PDF'], 'huge.pdf', { type: 'application/pdf' });
    Object.defineProperty(huge, 'size', { value: STORAGE_MAX_BYTES + 1 });
    await userEvent.upload(input(), huge);
    expect(await within(dialog).findByText('The file must be at most 100.00 MiB')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('uploads a file under the given name as the multipart field "file", showing that it is under way', async () => {
    renderWithProviders(<StorageListPage />);
    await screen.findByText('Handbook');
    await userEvent.click(screen.getByRole('button', { name: /Upload/ }));
    const dialog = await dialogWith('Upload a file');
    await userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['%PDF-1.7'], 'rules.pdf', { type: 'application/pdf' }));
    expect(within(dialog).getByText(/rules\.pdf/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '  Exam rules  ' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));

    expect(await within(dialog).findByText('Uploading, please wait…')).toBeTruthy();
    const post = calls.find((call) => call.method === 'POST')!;
    expect(post.path).toBe('api/localStorage');
    expect(post.params.get('name')).toBe('Exam rules');
    expect(((post.body as FormData).get('file') as File).name).toBe('rules.pdf');

    releaseUpload?.();
    expect(await screen.findByText('Uploaded')).toBeTruthy();
    expect(await screen.findByText('Exam rules')).toBeTruthy();
  });

  it('renames a file, refusing an empty name', async () => {
    renderWithProviders(<StorageListPage />);
    await screen.findByText('Handbook');
    await userEvent.click(within(rowOf('Handbook')).getByRole('button', { name: 'Edit' }));
    const dialog = await dialogWith('Rename file');
    const name = within(dialog).getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('Handbook');
    fireEvent.change(name, { target: { value: '   ' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    fireEvent.change(name, { target: { value: ' Staff handbook ' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ id: 2, name: 'Staff handbook' }));
    expect(await screen.findByText('File renamed')).toBeTruthy();
  });

  it('deletes a file after a confirmation', async () => {
    renderWithProviders(<StorageListPage />);
    await screen.findByText('Handbook');
    await userEvent.click(within(rowOf('Handbook')).getByRole('button', { name: 'Delete' }));
    const dialog = await dialogWith('Delete "Handbook"?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'DELETE')?.body).toEqual([2]));
  });

  it('exports with the current filter', async () => {
    renderWithProviders(<StorageListPage />);
    await screen.findByText('Handbook');
    fireEvent.change(screen.getByLabelText('Name, suffix, type or uploader'), { target: { value: 'pdf' } });
    await userEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'GET').at(-1)?.params.get('blurry')).toBe('pdf'));
    await userEvent.click(screen.getByRole('button', { name: /Export/ }));
    expect(downloadFile).toHaveBeenCalledWith('api/localStorage/download', { blurry: 'pdf', sort: ['createTime,desc'] }, 'files');
  });

  it('shows only the list and export to holders of storage:list alone', async () => {
    useUserStore.setState({ roles: ['storage:list'] });
    renderWithProviders(<StorageListPage />);
    await screen.findByText('Handbook');
    for (const name of [/Upload/, /Edit/, /Delete/]) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
  });
});
