import type { Dict, DictDetail } from '@cloud-classroom/shared/dicts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import DictPage from './dict-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

const userStatus: Dict = { id: 1, name: 'user_status', description: 'account status', ...AUDIT };
const deptStatus: Dict = { id: 2, name: 'dept_status', description: 'department status', ...AUDIT };

const detail = (id: number, label: string, value: string, dictId: number, labelEn: string | null = null): DictDetail => ({
  id,
  label,
  labelEn,
  value,
  dictSort: id,
  dict: { id: dictId },
  ...AUDIT,
});

const entries: Record<string, DictDetail[]> = {
  user_status: [detail(11, '激活', 'true', 1, 'Active'), detail(12, 'Locked', 'false', 1)],
  dept_status: [detail(21, 'Enabled', 'true', 2)],
};

function stubDicts() {
  let dicts = [userStatus, deptStatus];
  const api = stubRoutes({
    'GET api/dict': () => ({ content: dicts, totalElements: dicts.length }),
    'GET api/dictDetail': ({ params }) => {
      const content = entries[params.get('dictName') ?? ''] ?? [];
      return { content, totalElements: content.length };
    },
    'POST api/dict': () => undefined,
    'PUT api/dict': ({ body }) => {
      const { id, name } = body as Dict;
      dicts = dicts.map((dict) => (dict.id === id ? { ...dict, name } : dict));
    },
    'DELETE api/dict': () => undefined,
    'POST api/dictDetail': () => undefined,
    'PUT api/dictDetail': () => undefined,
    'DELETE api/dictDetail/12': () => undefined,
  });
  return api;
}

async function pickDict(name: string) {
  fireEvent.click(await screen.findByText(name));
}

// antd renders a lot of DOM; on a busy machine jsdom needs more than the default 5 s.
vi.setConfig({ testTimeout: 60_000 });

describe('DictPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows a dictionary’s entries once it is clicked', async () => {
    const api = stubDicts();
    renderWithProviders(<DictPage />);
    expect(await screen.findByText('Click a dictionary on the left to see its entries')).toBeTruthy();
    expect(api.callsTo('GET api/dictDetail')).toHaveLength(0);

    await pickDict('user_status');
    expect(await screen.findByText('Locked')).toBeTruthy();
    expect(screen.getByText('Entries of user_status')).toBeTruthy();
    // An entry's English label in English; the Chinese one only where there is none.
    expect(screen.getByText('Active')).toBeTruthy();
    expect(screen.queryByText('激活')).toBeNull();
    const call = api.callsTo('GET api/dictDetail')[0]!;
    expect([call.params.get('dictName'), call.params.get('sort'), call.params.get('page')]).toEqual(['user_status', 'dictSort,asc', '0']);

    await pickDict('dept_status');
    expect(await screen.findByText('Entries of dept_status')).toBeTruthy();
    expect(await screen.findByText('Enabled')).toBeTruthy();
    expect(screen.queryByText('Locked')).toBeNull();
  });

  it('searches dictionaries by name or description', async () => {
    const api = stubDicts();
    renderWithProviders(<DictPage />);
    await screen.findByText('user_status');
    fill(screen.getByLabelText('Search by name or description'), 'status');
    fireEvent.click(screen.getAllByText('Search')[0]!.closest('button')!);
    await waitFor(() => expect(api.callsTo('GET api/dict').at(-1)?.params.get('blurry')).toBe('status'));
  });

  it('adds a dictionary, refusing it without a name', async () => {
    const api = stubDicts();
    renderWithProviders(<DictPage />);
    await screen.findByText('user_status');
    clickText('Add');
    const dialog = await screen.findByRole('dialog');
    clickText('confirm');
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    fill(within(dialog).getByLabelText('Name'), 'job_status');
    fill(within(dialog).getByLabelText('Description'), 'job status');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('POST api/dict')).toHaveLength(1));
    expect(api.callsTo('POST api/dict')[0]?.body).toEqual({ name: 'job_status', description: 'job status' });
  });

  it('adds an entry to the picked dictionary and deletes one by its id', async () => {
    const api = stubDicts();
    renderWithProviders(<DictPage />);
    await pickDict('user_status');
    const panel = (await screen.findByText('Entries of user_status')).closest('.ant-card') as HTMLElement;
    await within(panel).findByText('Locked');

    clickText('Add', panel);
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByDisplayValue('user_status') as HTMLInputElement).disabled).toBe(true);
    clickText('confirm');
    // Each field's message appears when its own validation settles, not all at once.
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(2));
    fill(within(dialog).getByLabelText('Label'), '待定');
    fill(within(dialog).getByLabelText('English label'), ' Pending ');
    fill(within(dialog).getByLabelText('Value'), 'pending');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('POST api/dictDetail')).toHaveLength(1));
    expect(api.callsTo('POST api/dictDetail')[0]?.body).toEqual({ label: '待定', labelEn: 'Pending', value: 'pending', dictSort: 999, dict: { id: 1 } });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    clickText('Delete', within(panel).getByText('Locked').closest('tr')!);
    clickText('confirm', await screen.findByRole('dialog'));
    await waitFor(() => expect(api.callsTo('DELETE api/dictDetail/12')).toHaveLength(1));
    expect(api.callsTo('DELETE api/dictDetail/12')[0]?.body).toBeUndefined();
  });

  it('asks for the entries under the new name after the picked dictionary is renamed', async () => {
    const api = stubDicts();
    renderWithProviders(<DictPage />);
    await pickDict('user_status');
    await screen.findByText('Locked');
    clickText('Edit', screen.getByText('user_status', { selector: 'td, td *' }).closest('tr')!);
    const dialog = await screen.findByRole('dialog');
    fill(within(dialog).getByLabelText('Name'), 'account_status');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('PUT api/dict')[0]?.body).toEqual({ id: 1, name: 'account_status', description: 'account status' }));
    expect(await screen.findByText('Entries of account_status')).toBeTruthy();
    await waitFor(() => expect(api.callsTo('GET api/dictDetail').at(-1)?.params.get('dictName')).toBe('account_status'));
  });

  it('deletes a dictionary, saying its entries go too, and forgets it as the picked one', async () => {
    const api = stubDicts();
    renderWithProviders(<DictPage />);
    await pickDict('user_status');
    await screen.findByText('Entries of user_status');
    clickText('Delete', screen.getByText('user_status', { selector: 'td, td *' }).closest('tr')!);
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('Delete the dictionary "user_status"? Its entries are deleted too.')).toBeTruthy();
    clickText('confirm', confirm);
    await waitFor(() => expect(api.callsTo('DELETE api/dict')[0]?.body).toEqual([1]));
    expect(await screen.findByText('Click a dictionary on the left to see its entries')).toBeTruthy();
  });

  it('shows a list-only user no write buttons on either side', async () => {
    stubDicts();
    signInAs(['dict:list']);
    renderWithProviders(<DictPage />);
    await pickDict('user_status');
    await screen.findByText('Locked');
    expect(screen.queryByText('Add')).toBeNull();
    expect(screen.queryByText('Edit')).toBeNull();
    expect(screen.queryByText('Delete')).toBeNull();
    expect(screen.getByText('Export')).toBeTruthy();
  });
});
