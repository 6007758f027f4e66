import type { CategoryTree, Course } from '@cloud-classroom/shared/courses';
import type { Media } from '@cloud-classroom/shared/media';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import CourseListPage from './course-list-page';
import { useSelectedCourseStore } from './selected-course-store';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

const category = (id: number, name: string, pid: number | null, children?: CategoryTree[]): CategoryTree => ({
  id,
  pid,
  name,
  sort: id,
  subCount: children?.length ?? 0,
  courseCount: 1,
  children,
  ...AUDIT,
});
const categories = [category(1, 'Safety', null, [category(2, 'Fire drills', 1)]), category(3, 'Sales', null)];

function course(fields: Partial<Course> & Pick<Course, 'id' | 'title'>): Course {
  return {
    categoryId: null,
    categoryName: null,
    status: 'draft',
    required: false,
    cover: null,
    summary: '',
    description: '',
    ownerId: 1,
    ownerName: 'admin',
    maxPlaybackRate: 2,
    allowSkip: false,
    chapterCount: 0,
    lessonCount: 0,
    termCount: 0,
    ...AUDIT,
    ...fields,
  };
}

const fire = course({
  id: 1,
  title: 'Fire safety',
  categoryId: 2,
  categoryName: 'Fire drills',
  status: 'published',
  required: true,
  cover: 7,
  summary: 'Exits and extinguishers',
  description: '<p>Every year</p>',
  maxPlaybackRate: 1.5,
  allowSkip: true,
  lessonCount: 6,
  termCount: 2,
});
const pitch = course({ id: 2, title: 'Sales pitch', categoryId: 3, categoryName: 'Sales', ownerName: 'Lee' });

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const media = (id: number): Media => ({ id, name: 'cover.png', mime: 'image/png', kind: 'image', size: 8, createBy: 'admin', createTime: AUDIT.createTime });

function stubCourses({ deleteAnswer }: { deleteAnswer?: () => unknown } = {}) {
  return stubRoutes({
    'GET api/categories': () => categories,
    'GET api/courses': ({ params }) => {
      const q = params.get('q');
      const content = [fire, pitch].filter((row) => (q === null || row.title.toLowerCase().includes(q)) && (params.get('status') ?? row.status) === row.status);
      return { content, totalElements: content.length };
    },
    'POST api/courses': () => undefined,
    'PUT api/courses': () => undefined,
    'DELETE api/courses': deleteAnswer ?? (() => undefined),
    'POST api/media': () => media(9),
  });
}

function renderPage() {
  return renderWithProviders(
    <MemoryRouter>
      <CourseListPage />
    </MemoryRouter>,
  );
}

const rowOf = (text: string) => screen.getByText(text, { selector: 'td, td *' }).closest('tr')!;
const rowFound = async (text: string) => (await screen.findByText(text, { selector: 'td, td *' })).closest('tr')!;

// antd renders a lot of DOM; on a busy machine jsdom needs more than the default 5 s.
vi.setConfig({ testTimeout: 60_000 });

describe('CourseListPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
    vi.mocked(downloadFile).mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useSelectedCourseStore.getState().select(undefined);
    localStorage.clear();
  });

  it('lists courses with their cover, category, status, type and counts', async () => {
    const api = stubCourses();
    renderPage();
    const row = await rowFound('Fire safety');
    expect(within(row).getByText('Fire drills')).toBeTruthy();
    expect(within(row).getByText('Published')).toBeTruthy();
    expect(within(row).getByText('Required')).toBeTruthy();
    expect(within(row).getByText('6')).toBeTruthy();
    expect(within(rowOf('Sales pitch')).getByText('Draft')).toBeTruthy();
    expect(within(rowOf('Sales pitch')).getByText('Elective')).toBeTruthy();
    expect(within(rowOf('Sales pitch')).getByText('Lee')).toBeTruthy();
    // The browser loads the cover itself, the session coming from the token cookie.
    expect(within(row).getByRole('img', { name: 'Fire safety' }).getAttribute('src')).toBe('/api/media/7/content');
    // A cover that cannot be loaded says so instead of showing a broken image.
    fireEvent.error(within(row).getByRole('img', { name: 'Fire safety' }));
    expect(within(row).getByRole('img', { name: 'The cover cannot be shown' })).toBeTruthy();
    const list = api.callsTo('GET api/courses')[0]!;
    expect([list.params.get('page'), list.params.get('size'), list.params.get('sort')]).toEqual(['0', '10', 'updateTime,desc']);
  });

  it('filters by keyword, category and status, and exports with the same filter', async () => {
    const api = stubCourses();
    renderPage();
    await screen.findByText('Fire safety');
    fill(screen.getByLabelText('Search by title or summary'), 'fire');
    fireEvent.mouseDown(screen.getByLabelText('Status', { selector: 'input' }));
    fireEvent.click(await screen.findByTitle('Published'));
    fireEvent.mouseDown(screen.getByLabelText('Category', { selector: 'input' }));
    fireEvent.click(await screen.findByTitle('Safety'));
    clickText('Search');
    await waitFor(() => expect(screen.queryByText('Sales pitch')).toBeNull());
    const last = api.callsTo('GET api/courses').at(-1)!;
    expect([last.params.get('q'), last.params.get('status'), last.params.get('categoryId'), last.params.get('page')]).toEqual(['fire', 'published', '1', '0']);

    clickText('Export');
    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(1));
    expect(vi.mocked(downloadFile).mock.calls[0]?.slice(0, 3)).toEqual([
      'api/courses/download',
      { q: 'fire', status: 'published', categoryId: 1, sort: ['updateTime,desc'] },
      'courses',
    ]);
  });

  it('adds a course, refusing it without a title, with the schema’s defaults', async () => {
    const api = stubCourses();
    renderPage();
    await screen.findByText('Fire safety');
    clickText('Add');
    const dialog = await screen.findByRole('dialog');
    clickText('confirm');
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(api.callsTo('POST api/courses')).toHaveLength(0);

    fill(within(dialog).getByLabelText('Title'), '  First aid ');
    fill(within(dialog).getByLabelText('Summary'), 'Bandages');
    clickText('Required', dialog);
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('POST api/courses')).toHaveLength(1));
    expect(api.callsTo('POST api/courses')[0]?.body).toEqual({
      title: 'First aid',
      categoryId: null,
      status: 'draft',
      required: true,
      cover: null,
      summary: 'Bandages',
      description: '',
      maxPlaybackRate: 2,
      allowSkip: false,
    });
  });

  it('edits a course showing its values, uploads a new cover and PUTs the whole course', async () => {
    const api = stubCourses();
    renderPage();
    clickText('Edit', await rowFound('Fire safety'));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Title') as HTMLInputElement).value).toBe('Fire safety');
    expect((within(dialog).getByLabelText('Summary') as HTMLTextAreaElement).value).toBe('Exits and extinguishers');
    // The description is rich text: the editor (loaded with the dialog) shows the stored HTML.
    expect(await within(dialog).findByText('Every year')).toBeTruthy();
    expect(within(dialog).getByTitle('Fire drills')).toBeTruthy();
    expect(within(dialog).getByRole('img', { name: 'Course cover' }).getAttribute('src')).toBe('/api/media/7/content');

    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.accept).toContain('image/webp');
    fireEvent.change(input, { target: { files: [new File([PNG], 'new cover.png', { type: 'image/png' })] } });
    await waitFor(() => expect(api.callsTo('POST api/media')).toHaveLength(1));
    expect(((api.callsTo('POST api/media')[0]?.body as FormData).get('file') as File).name).toBe('new cover.png');
    await waitFor(() => expect(within(dialog).getByRole('img', { name: 'Course cover' }).getAttribute('src')).toBe('/api/media/9/content'));

    fill(within(dialog).getByLabelText('Title'), 'Fire safety 2026');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('PUT api/courses')).toHaveLength(1));
    expect(api.callsTo('PUT api/courses')[0]?.body).toEqual({
      id: 1,
      title: 'Fire safety 2026',
      categoryId: 2,
      status: 'published',
      required: true,
      cover: 9,
      summary: 'Exits and extinguishers',
      description: '<p>Every year</p>',
      maxPlaybackRate: 1.5,
      allowSkip: true,
    });
  });

  it('refuses a cover that is not a PNG, JPEG or WebP image before uploading it, and removes one', async () => {
    const api = stubCourses();
    renderPage();
    clickText('Edit', await rowFound('Fire safety'));
    const dialog = await screen.findByRole('dialog');
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
    fireEvent.change(input, { target: { files: [new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' })] } });
    expect(await within(dialog).findByText('A cover must be a PNG, JPEG or WebP image')).toBeTruthy();
    expect(api.callsTo('POST api/media')).toHaveLength(0);

    clickText('Remove', dialog);
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('PUT api/courses')).toHaveLength(1));
    expect(api.callsTo('PUT api/courses')[0]?.body).toMatchObject({ id: 1, cover: null });
  });

  it('publishes a draft and archives a published course from their rows', async () => {
    const api = stubCourses();
    renderPage();
    clickText('Publish', await rowFound('Sales pitch'));
    clickText('confirm', await screen.findByRole('dialog'));
    await waitFor(() => expect(api.callsTo('PUT api/courses')).toHaveLength(1));
    expect(api.callsTo('PUT api/courses')[0]?.body).toMatchObject({ id: 2, title: 'Sales pitch', status: 'published', categoryId: 3 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    clickText('Archive', rowOf('Fire safety'));
    expect(await screen.findByText('Archive the course "Fire safety"? Nobody can enrol in it any more.')).toBeTruthy();
    clickText('confirm', screen.getByRole('dialog'));
    await waitFor(() => expect(api.callsTo('PUT api/courses')).toHaveLength(2));
    expect(api.callsTo('PUT api/courses')[1]?.body).toMatchObject({ id: 1, status: 'archived', cover: 7, description: '<p>Every year</p>' });
  });

  it('chooses a course by its title: the store keeps it, its row stands out and the banner names it', async () => {
    stubCourses();
    renderPage();
    expect(await screen.findByText(/No course chosen/)).toBeTruthy();
    await rowFound('Sales pitch');
    clickText('Sales pitch');
    expect(useSelectedCourseStore.getState().course).toEqual({ id: 2, name: 'Sales pitch' });
    expect(await screen.findByText('Current course: Sales pitch')).toBeTruthy();
    expect(rowOf('Sales pitch').className).toContain('course-list-row-current');
    expect(within(rowOf('Sales pitch')).getByText('Current')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Terms' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Outline' })).toBeTruthy();

    clickText('Manage', rowOf('Fire safety'));
    expect(useSelectedCourseStore.getState().course).toEqual({ id: 1, name: 'Fire safety' });
    clickText('Clear');
    expect(useSelectedCourseStore.getState().course).toBeUndefined();
  });

  it('explains a refused delete in a dialog, with the server’s words', async () => {
    const api = stubCourses({
      deleteAnswer: () => jsonResponse(409, { status: 409, message: 'ids: course 1 has people enrolled', timestamp: 0 }),
    });
    renderPage();
    clickText('Delete', await rowFound('Fire safety'));
    clickText('confirm', await screen.findByRole('dialog'));
    await waitFor(() => expect(api.callsTo('DELETE api/courses')[0]?.body).toEqual([1]));
    expect((await screen.findAllByText('Cannot delete')).length).toBeGreaterThan(0);
    expect(screen.getByText(/The course cannot be deleted: people are enrolled in it/)).toBeTruthy();
    expect(screen.getByText('The server said: ids: course 1 has people enrolled')).toBeTruthy();
  });

  it('forgets the chosen course once it is deleted', async () => {
    const api = stubCourses();
    useSelectedCourseStore.getState().select({ id: 2, name: 'Sales pitch' });
    renderPage();
    fireEvent.click(within(await rowFound('Sales pitch')).getByRole('checkbox'));
    clickText('Delete', document.querySelector<HTMLElement>('.list-toolbar')!);
    clickText('confirm', await screen.findByRole('dialog'));
    await waitFor(() => expect(api.callsTo('DELETE api/courses')[0]?.body).toEqual([2]));
    await waitFor(() => expect(useSelectedCourseStore.getState().course).toBeUndefined());
  });

  it('gives a list-only user no add, edit, delete or status buttons, but lets them choose a course', async () => {
    stubCourses();
    signInAs(['course:list']);
    renderPage();
    await screen.findByText('Fire safety');
    expect(screen.queryByText('Add')).toBeNull();
    expect(screen.queryByText('Edit')).toBeNull();
    expect(screen.queryByText('Delete')).toBeNull();
    expect(screen.queryByText('Publish')).toBeNull();
    expect(screen.getByText('Export')).toBeTruthy();
    clickText('Manage', rowOf('Fire safety'));
    expect(useSelectedCourseStore.getState().course?.id).toBe(1);
  });

  it('on a phone folds the filters and the row actions', async () => {
    stubBrowser(375);
    stubCourses();
    renderPage();
    await screen.findByText('Fire safety');
    const toggle = screen.getByRole('button', { name: /Filters/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(rowOf('Fire safety')).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(rowOf('Fire safety')).getByRole('button', { name: 'More actions' })).toBeTruthy();
  });
});
