import type { Course, Term } from '@cloud-classroom/shared/courses';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { downloadFile } from '../../lib/download';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import CourseListPage from './course-list-page';
import { useSelectedCourseStore } from './selected-course-store';
import TermListPage from './term-list-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.mock('../../lib/download', () => ({ downloadFile: vi.fn(async () => {}) }));

const course = (id: number, title: string): Course => ({
  id,
  title,
  categoryId: null,
  categoryName: null,
  status: 'published',
  required: false,
  cover: null,
  summary: '',
  description: '',
  ownerId: 1,
  ownerName: 'admin',
  maxPlaybackRate: 2,
  allowSkip: false,
  chapterCount: 1,
  lessonCount: 3,
  termCount: 2,
  ...AUDIT,
});
const fire = course(1, 'Fire safety');
const pitch = course(2, 'Sales pitch');

const term = (fields: Partial<Term> & Pick<Term, 'id' | 'courseId' | 'name'>): Term => ({
  startAt: '2026-03-01 09:00:00',
  endAt: '2026-03-31 18:00:00',
  capacity: null,
  enrolMode: 'open',
  enrolled: 0,
  ...AUDIT,
  ...fields,
});
const terms: Record<string, Term[]> = {
  1: [term({ id: 11, courseId: 1, name: 'Spring 2026', capacity: 30, enrolMode: 'approval', enrolled: 12 }), term({ id: 12, courseId: 1, name: 'Autumn 2026' })],
  2: [term({ id: 21, courseId: 2, name: 'Sales bootcamp', enrolMode: 'assigned', enrolled: 4 })],
};

function stubTerms({ deleteAnswer, putAnswer }: { deleteAnswer?: () => unknown; putAnswer?: () => unknown } = {}) {
  return stubRoutes({
    'GET api/categories': () => [],
    'GET api/courses': () => ({ content: [fire, pitch], totalElements: 2 }),
    'GET api/courses/1': () => fire,
    'GET api/courses/2': () => pitch,
    'GET api/courses/3': () => jsonResponse(404, { status: 404, message: 'course 3 does not exist', timestamp: 0 }),
    'GET api/terms': ({ params }) => {
      const content = terms[params.get('courseId') ?? ''] ?? [];
      return { content, totalElements: content.length };
    },
    'POST api/terms': () => undefined,
    'PUT api/terms': putAnswer ?? (() => undefined),
    'DELETE api/terms': deleteAnswer ?? (() => undefined),
  });
}

const renderIn = (page: React.ReactNode) => renderWithProviders(<MemoryRouter>{page}</MemoryRouter>);
const rowOf = (text: string) => screen.getByText(text, { selector: 'td, td *' }).closest('tr')!;
const rowFound = async (text: string) => (await screen.findByText(text, { selector: 'td, td *' })).closest('tr')!;

/** Types a time into one end of the range picker and confirms it with the panel's OK. */
async function pickTime(input: HTMLElement, text: string) {
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  fill(input, text);
  const ok = await waitFor(() => {
    const button = document.querySelector<HTMLButtonElement>('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-ok button');
    expect(button).toBeTruthy();
    return button!;
  });
  fireEvent.click(ok);
}

// antd renders a lot of DOM; on a busy machine jsdom needs more than the default 5 s.
vi.setConfig({ testTimeout: 60_000 });

describe('TermListPage', () => {
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

  it('lists the terms of the course chosen on the course list', async () => {
    const api = stubTerms();
    renderIn(<CourseListPage />);
    clickText('Sales pitch', await rowFound('Sales pitch'));
    expect(useSelectedCourseStore.getState().course).toEqual({ id: 2, name: 'Sales pitch' });
    cleanup();

    renderIn(<TermListPage />);
    expect(await screen.findByText('Terms of Sales pitch')).toBeTruthy();
    const row = await rowFound('Sales bootcamp');
    expect(within(row).getByText('Assigned')).toBeTruthy();
    expect(within(row).getByText('Unlimited')).toBeTruthy();
    expect(within(row).getByText('4')).toBeTruthy();
    expect(screen.queryByText('Spring 2026')).toBeNull();
    const list = api.callsTo('GET api/terms')[0]!;
    expect([list.params.get('courseId'), list.params.get('page'), list.params.get('sort')]).toEqual(['2', '0', 'startAt,desc']);
  });

  it('shows capacity, enrolment mode and dates, searches within the course and exports its terms', async () => {
    const api = stubTerms();
    useSelectedCourseStore.getState().select({ id: 1, name: 'Fire safety' });
    renderIn(<TermListPage />);
    const row = await rowFound('Spring 2026');
    expect(within(row).getByText('30')).toBeTruthy();
    expect(within(row).getByText('Approval')).toBeTruthy();
    expect(within(row).getByText('2026-03-01 09:00:00')).toBeTruthy();

    fill(screen.getByLabelText('Search by name'), 'spring');
    clickText('Search');
    await waitFor(() => expect(api.callsTo('GET api/terms').at(-1)?.params.get('q')).toBe('spring'));
    expect(api.callsTo('GET api/terms').at(-1)?.params.get('courseId')).toBe('1');

    clickText('Export');
    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(1));
    expect(vi.mocked(downloadFile).mock.calls[0]?.slice(0, 3)).toEqual([
      'api/terms/download',
      { courseId: 1, q: 'spring', sort: ['startAt,desc'] },
      'terms-Fire safety',
    ]);
  });

  it('adds a term to the course, asking for its name and when it runs', async () => {
    const api = stubTerms();
    useSelectedCourseStore.getState().select({ id: 1, name: 'Fire safety' });
    renderIn(<TermListPage />);
    await rowFound('Spring 2026');
    clickText('Add');
    const dialog = await screen.findByRole('dialog');
    clickText('confirm');
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(await within(dialog).findByText('Please choose the start and the end')).toBeTruthy();
    expect(api.callsTo('POST api/terms')).toHaveLength(0);

    fill(within(dialog).getByLabelText('Name'), ' Summer 2026 ');
    await pickTime(within(dialog).getByPlaceholderText('Start'), '2026-06-01 09:00');
    await pickTime(within(dialog).getByPlaceholderText('End'), '2026-06-30 17:30');
    fill(within(dialog).getByLabelText('Capacity'), '25');
    clickText('Assigned', dialog);
    expect(await within(dialog).findByText('Only learners an administrator assigns may study')).toBeTruthy();
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('POST api/terms')).toHaveLength(1));
    expect(api.callsTo('POST api/terms')[0]?.body).toEqual({
      courseId: 1,
      name: 'Summer 2026',
      startAt: '2026-06-01 09:00:00',
      endAt: '2026-06-30 17:30:00',
      capacity: 25,
      enrolMode: 'assigned',
    });
  });

  it('edits a term with its values and PUTs it, an empty capacity meaning no limit', async () => {
    const api = stubTerms();
    useSelectedCourseStore.getState().select({ id: 1, name: 'Fire safety' });
    renderIn(<TermListPage />);
    clickText('Edit', await rowFound('Spring 2026'));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Spring 2026');
    expect((within(dialog).getByPlaceholderText('Start') as HTMLInputElement).value).toBe('2026-03-01 09:00');
    expect((within(dialog).getByPlaceholderText('End') as HTMLInputElement).value).toBe('2026-03-31 18:00');
    expect((within(dialog).getByLabelText('Capacity') as HTMLInputElement).value).toBe('30');
    fill(within(dialog).getByLabelText('Capacity'), '');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('PUT api/terms')).toHaveLength(1));
    expect(api.callsTo('PUT api/terms')[0]?.body).toEqual({
      id: 11,
      courseId: 1,
      name: 'Spring 2026',
      startAt: '2026-03-01 09:00:00',
      endAt: '2026-03-31 18:00:00',
      capacity: null,
      enrolMode: 'approval',
    });
  });

  it('shows the server’s refusal of the times under them', async () => {
    const api = stubTerms({ putAnswer: () => jsonResponse(400, { status: 400, message: 'endAt: must be after the start', timestamp: 0 }) });
    useSelectedCourseStore.getState().select({ id: 1, name: 'Fire safety' });
    renderIn(<TermListPage />);
    clickText('Edit', await rowFound('Autumn 2026'));
    const dialog = await screen.findByRole('dialog');
    clickText('confirm');
    expect(await within(dialog).findByText('must be after the start')).toBeTruthy();
    expect(api.callsTo('PUT api/terms')).toHaveLength(1);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('explains a refused delete in a dialog, with the server’s words', async () => {
    const api = stubTerms({
      deleteAnswer: () => jsonResponse(409, { status: 409, message: 'ids: term 11 has people enrolled', timestamp: 0 }),
    });
    useSelectedCourseStore.getState().select({ id: 1, name: 'Fire safety' });
    renderIn(<TermListPage />);
    clickText('Delete', await rowFound('Spring 2026'));
    clickText('confirm', await screen.findByRole('dialog'));
    await waitFor(() => expect(api.callsTo('DELETE api/terms')[0]?.body).toEqual([11]));
    expect(await screen.findByText('The term cannot be deleted: people are enrolled in it.')).toBeTruthy();
    expect(screen.getByText('The server said: ids: term 11 has people enrolled')).toBeTruthy();
  });

  it('says so when the chosen course no longer exists', async () => {
    stubTerms();
    useSelectedCourseStore.getState().select({ id: 3, name: 'Gone' });
    renderIn(<TermListPage />);
    expect(await screen.findByText('The chosen course no longer exists; please choose a course again.')).toBeTruthy();
  });

  it('gives a list-only user no add, edit or delete', async () => {
    stubTerms();
    signInAs(['course:list']);
    useSelectedCourseStore.getState().select({ id: 1, name: 'Fire safety' });
    renderIn(<TermListPage />);
    await rowFound('Spring 2026');
    expect(screen.queryByText('Add')).toBeNull();
    expect(screen.queryByText('Edit')).toBeNull();
    expect(screen.queryByText('Delete')).toBeNull();
    expect(screen.getByText('Export')).toBeTruthy();
  });

  it('names the enrolment modes in Chinese too', async () => {
    const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
    await initTestI18n('zh-CN');
    try {
      stubTerms();
      useSelectedCourseStore.getState().select({ id: 1, name: 'Fire safety' });
      renderIn(<TermListPage />);
      const row = await rowFound('Spring 2026');
      expect(within(row).getByText('报名审核')).toBeTruthy();
      expect(within(rowOf('Autumn 2026')).getByText('自由报名')).toBeTruthy();
      expect(within(rowOf('Autumn 2026')).getByText('不限')).toBeTruthy();
      expect(screen.getByText('开课计划：Fire safety')).toBeTruthy();
    } finally {
      await initTestI18n('en-US');
    }
  });
});
