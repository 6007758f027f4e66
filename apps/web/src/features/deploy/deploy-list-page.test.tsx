import type { DeployPackage } from '@cloud-classroom/shared/deploy';
import { act, cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi, stubBrowser, type ApiCall } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { FakeXhr } from '../../test/fake-xhr';
import { useUserStore } from '../auth/user-store';
import DeployListPage from './deploy-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

configure({ asyncUtilTimeout: 5000 });

// The file picker's accept list would hide the wrong files this test means to offer.
const userEvent = userEventLib.setup({ applyAccept: false });

const SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const item = (id: number, extra: Partial<DeployPackage> = {}): DeployPackage => ({
  id,
  name: 'Desktop client',
  version: `2.${id}.0`,
  platform: 'windows',
  releaseNotes: '',
  fileName: `classroom-2.${id}.0.exe`,
  size: 1572864,
  sha256: SHA,
  downloads: 12,
  createBy: 'admin',
  createTime: '2026-01-07 09:00:00',
  updateTime: '2026-01-07 09:00:00',
  ...extra,
});

let rows: DeployPackage[] = [];

function answer(call: ApiCall): unknown {
  const route = `${call.method} ${call.path}`;
  if (route === 'GET api/deploy') return { content: rows, totalElements: rows.length };
  if (route === 'PUT api/deploy' || route === 'DELETE api/deploy') return undefined;
  throw new Error(`unexpected ${route}`);
}

const dialogWith = async (text: string) => {
  await waitFor(() => expect(screen.getAllByRole('dialog').some((dialog) => dialog.textContent?.includes(text))).toBe(true));
  return screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes(text))!;
};
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('installation media page', { timeout: 120_000 }, () => {
  let calls: ApiCall[];
  beforeEach(() => {
    stubBrowser();
    rows = [item(1), item(2, { name: 'User guide', platform: 'any', version: '1.0', fileName: 'guide.pdf', downloads: 3 })];
    useUserStore.setState({ roles: ['deploy:list', 'deploy:add', 'deploy:edit', 'deploy:del'] });
    calls = stubApi(answer);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.mocked(downloadFile).mockClear();
  });

  it('lists the versions with their platform, size, checksum, downloads and a download link', async () => {
    renderWithProviders(<DeployListPage />);
    await screen.findByText('classroom-2.1.0.exe');
    const row = rowOf('classroom-2.1.0.exe');
    expect(within(row).getByText('Windows')).toBeTruthy();
    expect(within(row).getByText('1.50 MiB')).toBeTruthy();
    expect(within(row).getByText(SHA)).toBeTruthy();
    expect(within(row).getByText('12')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe('/api/public/downloads/1/file');
    expect(within(rowOf('guide.pdf')).getByText('All platforms')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Public download page/ }).getAttribute('href')).toBe('/download');
  });

  it('refuses a missing file or one of another kind, and bad fields, before uploading', async () => {
    FakeXhr.install();
    renderWithProviders(<DeployListPage />);
    await screen.findByText('guide.pdf');
    await userEvent.click(screen.getByRole('button', { name: /Upload package/ }));
    const dialog = await dialogWith('Upload an installation package');
    fireEvent.change(within(dialog).getByLabelText('Version'), { target: { value: '1.0 final' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    expect(await within(dialog).findByText('Please choose a file to upload')).toBeTruthy();
    expect(await within(dialog).findByText(/Letters, digits and/)).toBeTruthy();
    await userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['<html>'], 'page.html', { type: 'text/html' }));
    expect(await within(dialog).findByText(/This kind of file is not accepted/)).toBeTruthy();
    expect(FakeXhr.instances).toHaveLength(0);
  });

  it('publishes a version: the fields before the file, with a progress bar of the bytes sent', async () => {
    FakeXhr.install();
    renderWithProviders(<DeployListPage />);
    await screen.findByText('guide.pdf');
    await userEvent.click(screen.getByRole('button', { name: /Upload package/ }));
    const dialog = await dialogWith('Upload an installation package');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '  Desktop client ' } });
    fireEvent.change(within(dialog).getByLabelText('Version'), { target: { value: '2.3.0' } });
    fireEvent.change(within(dialog).getByLabelText('Release notes'), { target: { value: 'Offline lessons' } });
    await userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['MZ'], 'setup.exe', { type: 'application/octet-stream' }));
    expect(within(dialog).getByText(/setup\.exe/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));

    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    const xhr = FakeXhr.last();
    expect([xhr.method, xhr.url]).toEqual(['POST', '/api/deploy/upload']);
    const form = xhr.body as FormData;
    expect([...form.keys()]).toEqual(['name', 'version', 'platform', 'releaseNotes', 'file']);
    expect([form.get('name'), form.get('version'), form.get('platform'), form.get('releaseNotes')]).toEqual(['Desktop client', '2.3.0', 'windows', 'Offline lessons']);
    expect((form.get('file') as File).name).toBe('setup.exe');

    act(() => xhr.sendProgress(30, 120));
    const bar = await within(dialog).findByRole('progressbar');
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('25'));

    rows = [item(3), ...rows];
    act(() => xhr.respond(201, item(3)));
    expect(await screen.findByText('Package published')).toBeTruthy();
    expect(await screen.findByText('classroom-2.3.0.exe')).toBeTruthy();
  });

  it("shows the server's refusal naming a field under that field", async () => {
    FakeXhr.install();
    renderWithProviders(<DeployListPage />);
    await screen.findByText('guide.pdf');
    await userEvent.click(screen.getByRole('button', { name: /Upload package/ }));
    const dialog = await dialogWith('Upload an installation package');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Desktop client' } });
    fireEvent.change(within(dialog).getByLabelText('Version'), { target: { value: '2.1.0' } });
    await userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['MZ'], 'setup.exe'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    act(() => FakeXhr.last().respond(409, { status: 409, message: 'version: Desktop client 2.1.0 for windows is published already', timestamp: 0 }));
    expect(await within(dialog).findByText(/is published already/)).toBeTruthy();
    expect(screen.getAllByRole('dialog').includes(dialog)).toBe(true);
  });

  it('edits what describes a version', async () => {
    renderWithProviders(<DeployListPage />);
    await screen.findByText('guide.pdf');
    await userEvent.click(within(rowOf('guide.pdf')).getByRole('button', { name: 'Edit' }));
    const dialog = await dialogWith('Edit installation package');
    expect((within(dialog).getByLabelText('Version') as HTMLInputElement).value).toBe('1.0');
    fireEvent.change(within(dialog).getByLabelText('Version'), { target: { value: '1.1' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ id: 2, name: 'User guide', version: '1.1', platform: 'any', releaseNotes: '' }),
    );
  });

  it('deletes a version after a confirmation, and exports with the filter', async () => {
    renderWithProviders(<DeployListPage />);
    await screen.findByText('guide.pdf');
    await userEvent.click(within(rowOf('guide.pdf')).getByRole('button', { name: 'Delete' }));
    const dialog = await dialogWith('Delete "User guide 1.0"?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'DELETE')?.body).toEqual([2]));
    await userEvent.click(screen.getByRole('button', { name: /Export/ }));
    expect(downloadFile).toHaveBeenCalledWith('api/deploy/download', { sort: ['createTime,desc'] }, 'installation media');
  });

  it('shows only the list and export to holders of deploy:list alone', async () => {
    useUserStore.setState({ roles: ['deploy:list'] });
    renderWithProviders(<DeployListPage />);
    await screen.findByText('guide.pdf');
    for (const name of [/Upload package/, /Edit/, /Delete/]) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
  });
});
