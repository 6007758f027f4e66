import type { PublicPackage, PublicPackageVersion } from '@cloud-classroom/shared/deploy';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../components/list-page/list-page-test-kit';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { renderAt } from '../../../test/site-test-kit';
import { useUserStore } from '../../auth/user-store';
import { DownloadPage } from './download-page';

const version = (id: number, extra: Partial<PublicPackageVersion> = {}): PublicPackageVersion => ({
  id,
  version: `1.${id}.0`,
  releaseNotes: '',
  fileName: `classroom-1.${id}.0.exe`,
  size: 10_485_760,
  sha256: `${id}`.repeat(64).slice(0, 64),
  createTime: `2026-0${id}-15 09:30:00`,
  url: `api/public/downloads/${id}/file`,
  ...extra,
});

const CLIENT: PublicPackage = {
  name: 'Desktop client',
  platform: 'windows',
  latest: version(3, { releaseNotes: 'Offline lessons\nFaster start', sha256: 'a3f1'.repeat(16), size: 52_428_800 }),
  older: [version(2), version(1)],
};
const GUIDE: PublicPackage = {
  name: 'User guide',
  platform: 'any',
  latest: version(4, { fileName: 'user-guide.pdf', size: 201_263, version: '1.0' }),
  older: [],
};

describe('the download page (/download, public)', () => {
  let answer: PublicPackage[] | Response;
  let routes: ReturnType<typeof stubRoutes>;
  const open = () => renderAt(<DownloadPage />, '/download');

  beforeEach(() => {
    setLocale('en-US', false);
    useUserStore.getState().resetToken();
    answer = [CLIENT, GUIDE];
    routes = stubRoutes({ 'GET api/public/downloads': () => answer });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  it("shows each package's latest version with its size, date and SHA-256, and a download link, signed out", async () => {
    open();
    const client = await screen.findByRole('listitem', { name: 'Desktop client' });
    expect(within(client).getByText('Windows')).toBeTruthy();
    expect(within(client).getByText('classroom-1.3.0.exe')).toBeTruthy();
    expect(within(client).getAllByText('1.3.0')).toHaveLength(1);
    expect(within(client).getByText('50.00 MiB')).toBeTruthy();
    expect(within(client).getByText('2026-03-15')).toBeTruthy();
    expect(within(client).getByText('a3f1'.repeat(16))).toBeTruthy();
    // Release notes keep their lines.
    expect(within(client).getByText(/Offline lessons/).textContent).toBe('Offline lessons\nFaster start');
    const link = within(client).getByRole('link', { name: 'Download Desktop client 1.3.0' });
    expect(link.getAttribute('href')).toBe('/api/public/downloads/3/file');
    expect(link.getAttribute('download')).toBe('classroom-1.3.0.exe');

    const guide = screen.getByRole('listitem', { name: 'User guide' });
    expect(within(guide).getByText('All platforms')).toBeTruthy();
    expect(within(guide).getByText('196.55 KiB')).toBeTruthy();
    expect(within(guide).queryByText(/Older version/)).toBeNull();

    expect(document.title).toBe('Download - Cloud Classroom');
    // No session asked for, and a shell without search or avatar menu.
    expect(routes.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET api/public/downloads']);
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Account menu/ })).toBeNull();
  });

  it('keeps older versions behind a toggle, each with its own facts and link', async () => {
    open();
    const client = await screen.findByRole('listitem', { name: 'Desktop client' });
    const toggle = within(client).getByText('Older versions (2)');
    const details = toggle.closest('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    await userEvent.click(toggle);
    expect(details.open).toBe(true);
    expect(within(details).getByRole('link', { name: 'Download Desktop client 1.2.0' }).getAttribute('href')).toBe('/api/public/downloads/2/file');
    expect(within(details).getByRole('link', { name: 'Download Desktop client 1.1.0' }).getAttribute('href')).toBe('/api/public/downloads/1/file');
    expect(within(details).getByText('2'.repeat(64))).toBeTruthy();
  });

  it('copies a checksum', async () => {
    const writeText = vi.fn(async () => undefined);
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    open();
    await user.click(await screen.findByRole('button', { name: 'Copy the SHA-256 of Desktop client 1.3.0' }));
    expect(writeText).toHaveBeenCalledWith('a3f1'.repeat(16));
    expect(screen.getByRole('button', { name: 'Copy the SHA-256 of Desktop client 1.3.0' }).textContent).toBe('Copied');
  });

  it('sends a signed-out visitor to the login when nothing is published', async () => {
    answer = [];
    open();
    expect(await screen.findByText('Nothing to download yet')).toBeTruthy();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Go to login' }).getAttribute('href')).toBe('/login');
  });

  it('offers a signed-in person the way back home when nothing is published, not a login', async () => {
    useUserStore.setState({ token: 'Bearer t' });
    answer = [];
    open();
    expect((await screen.findByRole('link', { name: 'Back to home' })).getAttribute('href')).toBe('/home');
    expect(screen.queryByRole('link', { name: 'Go to login' })).toBeNull();
    // Opened directly, the page has the session but not its person: no nameless avatar menu.
    expect(screen.queryByRole('button', { name: /Account menu/ })).toBeNull();
  });

  it('says so when the list cannot be loaded, and tries again', async () => {
    answer = jsonResponse(500, { status: 500, message: 'Internal Server Error', timestamp: 0 });
    open();
    const retry = await screen.findByRole('button', { name: 'Try again' });
    answer = [GUIDE];
    await userEvent.click(retry);
    expect(await screen.findByRole('listitem', { name: 'User guide' })).toBeTruthy();
  });

  it('reads in Chinese', async () => {
    setLocale('zh-CN', false);
    open();
    const client = await screen.findByRole('listitem', { name: 'Desktop client' });
    expect(screen.getByRole('heading', { level: 1, name: '安装介质' })).toBeTruthy();
    expect(within(client).getByText('历史版本（2）')).toBeTruthy();
    expect(within(client).getByRole('link', { name: '下载 Desktop client 1.3.0' })).toBeTruthy();
  });
});
