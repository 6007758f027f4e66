import type { Menu } from '@cloud-classroom/shared/menus';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import MenuListPage from './menu-list-page';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

function menu(fields: Partial<Menu> & Pick<Menu, 'id' | 'title'>): Menu {
  const subCount = fields.subCount ?? 0;
  return {
    pid: null,
    type: 0,
    titleEn: null,
    componentName: null,
    component: null,
    path: fields.title.toLowerCase(),
    icon: null,
    menuSort: 1,
    permission: null,
    iFrame: false,
    cache: false,
    hidden: false,
    subCount,
    hasChildren: subCount > 0,
    leaf: subCount === 0,
    label: fields.title,
    ...AUDIT,
    ...fields,
  };
}

const system = menu({ id: 1, title: 'System', icon: 'system', subCount: 2 });
const tools = menu({ id: 10, title: 'Tools', icon: 'sys-tools' });
const users = menu({ id: 2, pid: 1, type: 1, title: 'Users', component: 'system/user/index', componentName: 'User', permission: 'user:list', subCount: 1 });
const roles = menu({ id: 3, pid: 1, type: 1, title: 'Roles', component: 'system/role/index', permission: 'roles:list' });

function stubMenus() {
  return stubRoutes({
    'GET api/menus': ({ params }) =>
      params.get('blurry') === 'u' ? { content: [system, users], totalElements: 2 } : { content: [system, tools], totalElements: 2 },
    'GET api/menus/lazy': ({ params }) => (params.get('pid') === '1' ? [users, roles] : params.get('pid') === '0' ? [system, tools] : []),
    'POST api/menus/superior': () => [system, tools],
    'POST api/menus': () => undefined,
    'PUT api/menus': () => undefined,
    'DELETE api/menus': () => undefined,
  });
}

async function openAddDialog() {
  await screen.findByText('System');
  clickText('Add');
  return screen.findByRole('dialog');
}

// antd renders a lot of DOM; on a busy machine jsdom needs more than the default 5 s.
vi.setConfig({ testTimeout: 60_000 });

describe('MenuListPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the top level and loads a menu’s children when it is expanded', async () => {
    const api = stubMenus();
    renderWithProviders(<MenuListPage />);
    expect(await screen.findByText('System')).toBeTruthy();
    expect(screen.getByText('Tools')).toBeTruthy();
    expect(screen.queryByText('Users')).toBeNull();

    const systemRow = screen.getByText('System').closest('tr')!;
    fireEvent.click(systemRow.querySelector('.ant-table-row-expand-icon')!);
    expect(await screen.findByText('Users')).toBeTruthy();
    expect(screen.getByText('system/user/index')).toBeTruthy();
    expect(api.callsTo('GET api/menus/lazy').map((call) => call.params.get('pid'))).toEqual(['1']);
  });

  it('sends the fuzzy filter to GET api/menus', async () => {
    const api = stubMenus();
    renderWithProviders(<MenuListPage />);
    await screen.findByText('System');
    fill(screen.getByLabelText('Fuzzy search'), 'sys');
    clickText('Search');
    await waitFor(() => expect(api.callsTo('GET api/menus').at(-1)?.params.get('blurry')).toBe('sys'));
  });

  it('nests a filtered match under its listed parent and exports with the filter', async () => {
    const api = stubMenus();
    renderWithProviders(<MenuListPage />);
    await screen.findByText('System');
    fill(screen.getByLabelText('Fuzzy search'), 'u');
    clickText('Search');
    const usersRow = (await screen.findByText('Users')).closest('tr')!;
    expect(usersRow.className).toContain('ant-table-row-level-1');
    expect(screen.getByText('System').closest('tr')!.className).toContain('ant-table-row-level-0');
    expect(api.callsTo('GET api/menus/lazy')).toHaveLength(0);

    clickText('Export');
    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(1));
    expect(vi.mocked(downloadFile).mock.calls[0]?.slice(0, 3)).toEqual(['api/menus/download', { blurry: 'u', sort: [] }, 'menus']);
  });

  it('shows the fields of each menu type and refuses a page without route or component', async () => {
    const api = stubMenus();
    renderWithProviders(<MenuListPage />);
    const dialog = await openAddDialog();

    // Directory: icon and route path; no permission, no component.
    expect(within(dialog).getByLabelText('Icon')).toBeTruthy();
    expect(within(dialog).getByLabelText('Route path')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Permission')).toBeNull();
    expect(within(dialog).queryByLabelText('Component path')).toBeNull();

    clickText('Page', dialog);
    expect(await within(dialog).findByLabelText('Component path')).toBeTruthy();
    expect(within(dialog).getByLabelText('Component name')).toBeTruthy();
    expect(within(dialog).getByLabelText('Permission')).toBeTruthy();

    fill(within(dialog).getByLabelText('Title'), 'Courses');
    clickText('confirm');
    expect(await within(dialog).findByText('Please enter the route path')).toBeTruthy();
    expect(within(dialog).getByText('Please enter the component path')).toBeTruthy();

    clickText('Button', dialog);
    expect(await within(dialog).findByLabelText('Button name')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Route path')).toBeNull();
    expect(within(dialog).queryByLabelText('Icon')).toBeNull();
    expect(api.callsTo('POST api/menus')).toHaveLength(0);
  });

  it('adds a page with every field the form shows, the icon picked from the picker', async () => {
    const api = stubMenus();
    renderWithProviders(<MenuListPage />);
    const dialog = await openAddDialog();
    clickText('Page', dialog);
    fill(await within(dialog).findByLabelText('Component path'), 'edu/course/index');
    fill(within(dialog).getByLabelText('Title'), ' 课程 ');
    fill(within(dialog).getByLabelText('English title'), ' Courses ');
    fill(within(dialog).getByLabelText('Route path'), 'course');
    fill(within(dialog).getByLabelText('Component name'), 'Course');
    fill(within(dialog).getByLabelText('Permission'), 'course:list');

    fireEvent.click(within(dialog).getByLabelText('Icon'));
    fill(await screen.findByLabelText('Search icons'), 'educ');
    const education = await screen.findByTitle('education');
    expect([...document.querySelectorAll('[role="option"]')].map((option) => option.textContent)).toEqual(['education']);
    fireEvent.click(education);

    clickText('confirm');
    await waitFor(() => expect(api.callsTo('POST api/menus')).toHaveLength(1));
    expect(api.callsTo('POST api/menus')[0]?.body).toEqual({
      type: 1,
      title: '课程',
      titleEn: 'Courses',
      pid: 0,
      menuSort: 999,
      icon: 'education',
      iFrame: false,
      cache: false,
      hidden: false,
      path: 'course',
      component: 'edu/course/index',
      componentName: 'Course',
      permission: 'course:list',
    });
    // Saved: the list is asked again.
    await waitFor(() => expect(api.callsTo('GET api/menus').length).toBeGreaterThan(1));
  });

  it('requires an http(s) address for an external link', async () => {
    const api = stubMenus();
    renderWithProviders(<MenuListPage />);
    const dialog = await openAddDialog();
    fill(within(dialog).getByLabelText('Title'), 'Docs');
    const external = within(dialog).getByText('External link').closest('.ant-form-item') as HTMLElement;
    clickText('Yes', external);
    fill(await within(dialog).findByPlaceholderText('An address starting with http:// or https://'), 'docs.example.com');
    clickText('confirm');
    expect(await within(dialog).findByText('An external link must start with http:// or https://')).toBeTruthy();
    expect(api.callsTo('POST api/menus')).toHaveLength(0);

    fill(within(dialog).getByLabelText('Route path'), 'https://docs.example.com');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('POST api/menus')).toHaveLength(1));
    expect(api.callsTo('POST api/menus')[0]?.body).toMatchObject({ type: 0, iFrame: true, path: 'https://docs.example.com', component: null });
  });

  it('edits a menu with the parent picker built around it', async () => {
    const api = stubMenus();
    renderWithProviders(<MenuListPage />);
    const toolsRow = (await screen.findByText('Tools')).closest('tr')!;
    clickText('Edit', toolsRow);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(api.callsTo('POST api/menus/superior')[0]?.body).toEqual([10]));
    expect((within(dialog).getByLabelText('Title') as HTMLInputElement).value).toBe('Tools');
    fill(within(dialog).getByLabelText('Title'), 'Toolbox');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('PUT api/menus')).toHaveLength(1));
    expect(api.callsTo('PUT api/menus')[0]?.body).toMatchObject({ id: 10, title: 'Toolbox', icon: 'sys-tools', pid: 0, type: 0 });
  });

  it('shows each menu by its English title in English, the Chinese one where there is none, and edits both', async () => {
    const courses = menu({ id: 30, title: '课程管理', titleEn: 'Courses' });
    const exams = menu({ id: 31, title: '考试管理' });
    const api = stubRoutes({
      'GET api/menus': () => ({ content: [courses, exams], totalElements: 2 }),
      'GET api/menus/lazy': () => [courses, exams],
      'POST api/menus/superior': () => [exams],
      'PUT api/menus': () => undefined,
    });
    renderWithProviders(<MenuListPage />);
    const coursesRow = (await screen.findByText('Courses')).closest('tr')!;
    expect(screen.getByText('考试管理')).toBeTruthy();
    expect(screen.queryByText('课程管理')).toBeNull();

    clickText('Edit', coursesRow);
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Title') as HTMLInputElement).value).toBe('课程管理');
    expect((within(dialog).getByLabelText('English title') as HTMLInputElement).value).toBe('Courses');
    fill(within(dialog).getByLabelText('English title'), '  ');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('PUT api/menus')).toHaveLength(1));
    expect(api.callsTo('PUT api/menus')[0]?.body).toMatchObject({ id: 30, title: '课程管理', titleEn: null });
  });

  it('warns that deleting a menu takes its subtree and sends its id', async () => {
    const api = stubMenus();
    renderWithProviders(<MenuListPage />);
    const systemRow = (await screen.findByText('System')).closest('tr')!;
    clickText('Delete', systemRow);
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText(/Every menu and button below them is deleted too/)).toBeTruthy();
    clickText('confirm', confirm);
    await waitFor(() => expect(api.callsTo('DELETE api/menus')[0]?.body).toEqual([1]));
  });

  it('hides the write buttons from a user who may only list menus', async () => {
    stubMenus();
    signInAs(['menu:list']);
    renderWithProviders(<MenuListPage />);
    await screen.findByText('System');
    expect(screen.queryByText('Add')).toBeNull();
    expect(screen.queryByText('Delete')).toBeNull();
    expect(screen.queryByText('Edit')).toBeNull();
    expect(screen.getByText('Export')).toBeTruthy();
  });
});
