import type { CloudConfig, CloudFile } from '@cloud-classroom/shared/cloud-storage';
import { act, cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEventLib from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi, stubBrowser, type ApiCall } from '../../components/list-page/list-page-test-kit';
import { FakeXhr } from '../../test/fake-xhr';
import { useUserStore } from '../auth/user-store';
import CloudStoragePage from './cloud-storage-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

configure({ asyncUtilTimeout: 5000 });
const userEvent = userEventLib.setup();

const file = (id: number, name: string): CloudFile => ({
  id,
  key: `202611/0123456789abcdef-${name}`,
  name,
  bucket: 'classroom',
  suffix: name.split('.').pop() ?? '',
  size: 2048,
  url: null,
  createBy: 'admin',
  createTime: '2026-11-26 22:00:00',
  updateTime: '2026-11-26 22:00:00',
});

const CONFIGURED: CloudConfig = {
  endpoint: 'http://127.0.0.1:9000',
  region: 'us-east-1',
  bucket: 'classroom',
  accessKey: 'AK',
  pathStyle: true,
  publicDomain: null,
  secretKeySet: true,
  secretsEnabled: true,
  configured: true,
};

let config: CloudConfig = CONFIGURED;
let rows: CloudFile[] = [];

function answer(call: ApiCall): unknown {
  const route = `${call.method} ${call.path}`;
  if (route === 'GET api/qiNiuContent') return { content: rows, totalElements: rows.length };
  if (route === 'GET api/qiNiuContent/config') return config;
  if (route === 'PUT api/qiNiuContent/config') return config;
  if (route === 'POST api/qiNiuContent/synchronize') return { added: 2, updated: 0, removed: 1 };
  throw new Error(`unexpected ${route}`);
}

const dialogWith = async (text: string) => {
  await waitFor(() => expect(screen.getAllByRole('dialog').some((dialog) => dialog.textContent?.includes(text))).toBe(true));
  return screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes(text))!;
};

describe('cloud storage page', { timeout: 120_000 }, () => {
  let calls: ApiCall[];
  beforeEach(() => {
    stubBrowser();
    config = CONFIGURED;
    rows = [file(1, 'lesson-1.pdf')];
    useUserStore.setState({ roles: ['storage:list', 'storage:add', 'storage:edit', 'storage:del'] });
    calls = stubApi(answer);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('names the bucket, syncs it and says what changed', async () => {
    renderWithProviders(<CloudStoragePage />);
    expect(await screen.findByText('lesson-1.pdf')).toBeTruthy();
    expect(await screen.findByText('Bucket: classroom (http://127.0.0.1:9000)')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Sync/ }));
    expect(await screen.findByText('Synced: 2 added, 0 updated, 1 removed')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST' && call.path === 'api/qiNiuContent/synchronize')).toBe(true);
  });

  it('uploads a file with a progress bar of the bytes sent', async () => {
    FakeXhr.install();
    renderWithProviders(<CloudStoragePage />);
    await screen.findByText('lesson-1.pdf');
    await userEvent.click(screen.getByRole('button', { name: /Upload/ }));
    const dialog = await dialogWith('Upload to cloud storage');
    await userEvent.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    const xhr = FakeXhr.last();
    expect([xhr.method, xhr.url]).toEqual(['POST', '/api/qiNiuContent']);
    expect(((xhr.body as FormData).get('file') as File).name).toBe('notes.txt');
    act(() => xhr.sendProgress(50, 100));
    const bar = await within(dialog).findByRole('progressbar');
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('50'));
    rows = [file(2, 'notes.txt'), ...rows];
    act(() => xhr.respond(201, rows[0]));
    expect(await screen.findByText('notes.txt')).toBeTruthy();
  });

  it('warns that no secret key can be saved without STORAGE_SECRET_KEY, and keeps upload off until configured', async () => {
    config = { ...CONFIGURED, endpoint: '', bucket: '', accessKey: '', secretKeySet: false, secretsEnabled: false, configured: false };
    rows = [];
    renderWithProviders(<CloudStoragePage />);
    expect(await screen.findByText('Cloud storage is not configured yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Upload/ }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: /Settings/ }));
    const dialog = await dialogWith('Cloud storage settings');
    expect(within(dialog).getByText('The server has no STORAGE_SECRET_KEY, so no secret key can be saved')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Bucket'), { target: { value: 'Bad_Bucket' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'confirm' }));
    // The shared schema's rules refuse it in the browser: the bucket's, and the missing fields'.
    await waitFor(() => expect(dialog.querySelectorAll('.ant-form-item-explain-error').length).toBeGreaterThan(0));
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });
});
