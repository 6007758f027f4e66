import type { Backup, DatabaseStatus } from '@cloud-classroom/shared/database';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi, stubBrowser, type ApiCall } from '../../components/list-page/list-page-test-kit';
import { useUserStore } from '../auth/user-store';
import BackupListPage from './backup-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

configure({ asyncUtilTimeout: 5000 });

const backup = (name: string, kind: Backup['kind']): Backup => ({
  name,
  kind,
  format: 'sqlite',
  size: 1572864,
  sha256: 'ab12cd34ef56'.padEnd(64, '0'),
  migration: '0022-database-backups',
  migrations: 19,
  note: null,
  createBy: 'admin',
  createTime: '2026-11-26 10:00:00',
});

const SQLITE: DatabaseStatus = {
  dialect: 'sqlite',
  canBackUp: true,
  tool: 'SQLite VACUUM INTO',
  problem: null,
  schedule: { enabled: false, time: '03:00', keep: 7 },
  nextRun: null,
  timeZone: 'Asia/Shanghai',
};

let status: DatabaseStatus;
let backups: Backup[];

async function answer(call: ApiCall): Promise<unknown> {
  const route = `${call.method} ${call.path}`;
  if (route === 'GET api/database/status') return status;
  if (route === 'GET api/database') return { content: backups, totalElements: backups.length };
  if (route === 'POST api/database') {
    const made = backup('cc-20261126-100500-000-manual.sqlite', 'manual');
    backups = [made, ...backups];
    return made;
  }
  if (route === 'PUT api/database/schedule') {
    status = { ...status, schedule: call.body as DatabaseStatus['schedule'], nextRun: '2026-11-27 02:30' };
    return undefined;
  }
  throw new Error(`unexpected ${route}`);
}

describe('database backups page', { timeout: 120_000 }, () => {
  let calls: ApiCall[];
  beforeEach(() => {
    stubBrowser();
    status = SQLITE;
    backups = [backup('cc-20261125-190000-000-scheduled.sqlite', 'scheduled')];
    useUserStore.setState({ roles: ['database:list', 'database:add', 'database:edit', 'database:del'] });
    calls = stubApi(answer);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists backups with their kind, size and SHA-256, each name a download link; backs up now', async () => {
    renderWithProviders(<BackupListPage />);
    const link = await screen.findByRole('link', { name: 'cc-20261125-190000-000-scheduled.sqlite' });
    expect(link.getAttribute('href')).toBe('/api/database/files/cc-20261125-190000-000-scheduled.sqlite');
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('Scheduled')).toBeTruthy();
    expect(within(row).getByText('1.50 MiB')).toBeTruthy();
    expect(within(row).getByText('ab12cd34ef56…')).toBeTruthy();
    expect(screen.getByText('Scheduled backups are off')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /Back up now/ }));
    await screen.findByRole('link', { name: 'cc-20261126-100500-000-manual.sqlite' });
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual(['api/database']);
  });

  it('saves the schedule and shows the next run in the organisation’s zone', async () => {
    renderWithProviders(<BackupListPage />);
    await screen.findByText('Scheduled backups are off');
    fireEvent.click(screen.getByRole('switch'));
    fireEvent.change(screen.getByLabelText('Daily at'), { target: { value: '02:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    await screen.findByText('Next backup: 2026-11-27 02:30 (Asia/Shanghai)');
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ enabled: true, time: '02:30', keep: 7 });
  });

  it('says why a PostgreSQL server without pg_dump cannot back up, and offers no backup', async () => {
    status = { ...SQLITE, dialect: 'postgres', canBackUp: false, tool: 'pg_dump', problem: 'pg_dump is not installed on this server (not on its PATH).' };
    renderWithProviders(<BackupListPage />);
    await screen.findByText('This server cannot back up its database');
    expect(screen.getByText('pg_dump is not installed on this server (not on its PATH).')).toBeTruthy();
    await waitFor(() => expect((screen.getByRole('button', { name: /Back up now/ }) as HTMLButtonElement).disabled).toBe(true));
  });
});
