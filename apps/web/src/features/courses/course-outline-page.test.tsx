import type { Course, Outline, OutlineLesson } from '@cloud-classroom/shared/courses';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { configureHttpClient } from '../../lib/http-client';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import { useSelectedCourseStore } from './selected-course-store';
import CourseOutlinePage from './course-outline-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const lesson = (id: number, title: string, extra: Partial<OutlineLesson> = {}): OutlineLesson => ({
  id,
  title,
  type: 'text',
  durationSeconds: null,
  pages: null,
  completionPercent: 90,
  preview: false,
  ...extra,
});

const OUTLINE: Outline = [
  {
    id: 1,
    title: 'Getting started',
    sort: 1,
    lessons: [
      lesson(11, 'Welcome video', { type: 'video', durationSeconds: 754, preview: true }),
      lesson(12, 'Site rules', { type: 'document', pages: 3, completionPercent: 100 }),
    ],
  },
  { id: 2, title: 'On the floor', sort: 2, lessons: [lesson(21, 'Lifting safely')] },
];

const COURSE: Course = {
  id: 5,
  title: 'Warehouse safety',
  categoryId: null,
  categoryName: null,
  status: 'draft',
  required: true,
  cover: null,
  summary: '',
  description: '',
  ownerId: null,
  ownerName: null,
  maxPlaybackRate: 2,
  allowSkip: false,
  chapterCount: 2,
  lessonCount: 3,
  termCount: 0,
  ...AUDIT,
};

/** `afterPut`: what reloading the outline after a PUT answers (by default the same outline). */
function stubOutline(answerPut: () => unknown = () => undefined, afterPut: () => unknown = () => OUTLINE) {
  let put = false;
  return stubRoutes({
    'GET api/courses/5': () => COURSE,
    'GET api/courses/5/outline': () => (put ? afterPut() : OUTLINE),
    'PUT api/courses/5/outline': () => {
      put = true;
      return answerPut();
    },
    'POST api/chapters': () => jsonResponse(201, { id: 3 }),
    'PUT api/chapters': () => undefined,
  });
}

function renderPage() {
  return renderWithProviders(
    <MemoryRouter>
      <CourseOutlinePage />
    </MemoryRouter>,
  );
}

const chapterCard = (title: string) => screen.getByRole('region', { name: title });
const lessonRow = (title: string) => screen.getByText(title).closest('li') as HTMLElement;
const lessonTitles = (chapter: string) => [...chapterCard(chapter).querySelectorAll('.outline-board__lesson-title')].map((node) => node.textContent);

describe('CourseOutlinePage', () => {
  beforeEach(() => {
    signInAs(['admin']);
    useSelectedCourseStore.setState({ course: { id: 5, name: 'Warehouse safety' } });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    configureHttpClient({ notifyError: () => {} });
  });

  it('lists the chapters with their lessons: type, length, completion and the preview tag', async () => {
    stubBrowser();
    stubOutline();
    renderPage();
    expect(await screen.findByText('Outline: Warehouse safety')).toBeTruthy();
    expect(await screen.findByText('Getting started')).toBeTruthy();
    expect(screen.getByText('2 chapters · 3 lessons')).toBeTruthy();
    expect(lessonTitles('Getting started')).toEqual(['Welcome video', 'Site rules']);
    expect(lessonTitles('On the floor')).toEqual(['Lifting safely']);
    expect(within(lessonRow('Welcome video')).getByText(/Video · 12:34 · Completes at 90%/)).toBeTruthy();
    expect(within(lessonRow('Welcome video')).getByText('Free preview')).toBeTruthy();
    expect(within(lessonRow('Site rules')).getByText(/Document · 3 pages · Completes at 100%/)).toBeTruthy();
    // On a desktop the order changes by dragging: each handle is a keyboard-operable button.
    const handle = screen.getByRole('button', { name: 'Drag the lesson "Site rules"' });
    expect(handle.getAttribute('tabindex')).toBe('0');
    expect(screen.getByRole('button', { name: 'Drag the chapter "On the floor"' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Move up' })).toBeNull();
  });

  it('counts one chapter and one lesson in the singular', async () => {
    stubBrowser();
    stubRoutes({ 'GET api/courses/5': () => COURSE, 'GET api/courses/5/outline': () => OUTLINE.slice(1) });
    renderPage();
    expect(await screen.findByText('1 chapter · 1 lesson')).toBeTruthy();
  });

  it('moves a lesson into the next chapter with the phone’s buttons and saves the whole order', async () => {
    stubBrowser(375);
    const api = stubOutline();
    renderPage();
    await screen.findByText('Site rules');
    expect(screen.queryByRole('button', { name: 'Drag the lesson "Site rules"' })).toBeNull();

    fireEvent.click(within(lessonRow('Site rules')).getByRole('button', { name: 'Move down' }));
    await waitFor(() => expect(api.callsTo('PUT api/courses/5/outline')).toHaveLength(1));
    expect(api.callsTo('PUT api/courses/5/outline')[0]?.body).toEqual({
      chapters: [
        { id: 1, lessons: [11] },
        { id: 2, lessons: [12, 21] },
      ],
    });
  });

  it('moves a chapter up and puts the old order back when the server refuses it', async () => {
    stubBrowser(375);
    const notified = vi.fn<(message: string) => void>();
    configureHttpClient({ notifyError: notified });
    let answer: (() => void) | undefined;
    const refused = new Promise<void>((resolve) => (answer = resolve));
    const api = stubOutline(
      async () => {
        await refused;
        return jsonResponse(409, { status: 409, message: 'chapters: the outline has changed; reload it', timestamp: 0 });
      },
      // The reload after the refusal never answers: only the rollback can show the old order.
      () => new Promise(() => {}),
    );
    renderPage();
    await screen.findByText('On the floor');
    const [, floorUp] = screen.getAllByRole('button', { name: 'Move up' }).filter((button) => button.closest('.ant-card-head'));
    fireEvent.click(floorUp!);

    // Shown at once, before the server answers.
    await waitFor(() => expect([...document.querySelectorAll('section')].map((section) => section.getAttribute('aria-label'))).toEqual(['On the floor', 'Getting started']));
    expect(api.callsTo('PUT api/courses/5/outline')[0]?.body).toEqual({
      chapters: [
        { id: 2, lessons: [21] },
        { id: 1, lessons: [11, 12] },
      ],
    });
    answer!();
    await waitFor(() => expect(notified).toHaveBeenCalledWith('chapters: the outline has changed; reload it'));
    await waitFor(() => expect([...document.querySelectorAll('section')].map((section) => section.getAttribute('aria-label'))).toEqual(['Getting started', 'On the floor']));
  });

  it('adds a chapter, refusing an empty title, and renames one in place', async () => {
    stubBrowser();
    const api = stubOutline();
    renderPage();
    await screen.findByText('Getting started');
    clickText('Add chapter');
    clickText('confirm');
    expect(await screen.findByText('This field is required')).toBeTruthy();
    fill(screen.getByLabelText('Chapter title'), '  Wrapping up ');
    clickText('confirm');
    await waitFor(() => expect(api.callsTo('POST api/chapters')[0]?.body).toEqual({ courseId: 5, title: 'Wrapping up' }));

    fireEvent.click(within(chapterCard('On the floor')).getByRole('button', { name: 'Rename chapter' }));
    const editor = within(chapterCard('On the floor')).getByRole('textbox');
    fill(editor, 'In the warehouse');
    fireEvent.keyDown(editor, { key: 'Enter', keyCode: 13 });
    fireEvent.keyUp(editor, { key: 'Enter', keyCode: 13 });
    await waitFor(() => expect(api.callsTo('PUT api/chapters')[0]?.body).toEqual({ id: 2, title: 'In the warehouse' }));
  });
});
