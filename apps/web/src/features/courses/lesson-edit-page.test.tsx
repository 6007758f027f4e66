import type { Lesson, Outline } from '@cloud-classroom/shared/courses';
import type { Media } from '@cloud-classroom/shared/media';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { FakeXhr } from '../../test/fake-xhr';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import { useSelectedCourseStore } from './selected-course-store';
import LessonEditPage from './lesson-edit-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const VIDEO: Media = { id: 3, name: 'welcome.mp4', mime: 'video/mp4', kind: 'video', size: 5 * 1024 * 1024, durationSeconds: 754, createBy: 'admin', createTime: '2025-01-02 10:00:00' };
const UPLOADED: Media = { ...VIDEO, id: 9, name: 'forklift.mp4', durationSeconds: 95 };

const LESSON: Lesson = {
  id: 7,
  courseId: 5,
  chapterId: 1,
  sort: 1,
  title: 'Welcome',
  type: 'video',
  durationSeconds: 754,
  pages: null,
  completionPercent: 80,
  preview: false,
  media: VIDEO,
  content: '<p>Watch it <strong>all</strong>.</p>',
  required: true,
  ...AUDIT,
};

const OUTLINE: Outline = [
  { id: 1, title: 'Getting started', sort: 1, lessons: [] },
  { id: 2, title: 'On the floor', sort: 2, lessons: [] },
];

function stubLessons() {
  return stubRoutes({
    'GET api/lessons/7': () => LESSON,
    'GET api/lessons/8': () => jsonResponse(404, { status: 404, message: 'lesson 8 not found', timestamp: 0 }),
    'GET api/courses/5/outline': () => OUTLINE,
    'PUT api/lessons': () => new Response(null, { status: 204 }),
    'POST api/lessons': () => jsonResponse(201, { id: 12 }),
    'GET api/media': () => ({ content: [VIDEO], totalElements: 1 }),
  });
}

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/edu/edit-lesson" element={<LessonEditPage />} />
        <Route path="/course/term/outline" element={<p>the outline</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const mediaField = () => screen.getByText('Video', { selector: 'label' }).closest('.ant-form-item') as HTMLElement;

describe('LessonEditPage', () => {
  beforeEach(() => {
    stubBrowser();
    signInAs(['admin']);
    useSelectedCourseStore.setState({ course: { id: 5, name: 'Warehouse safety' } });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('loads a lesson, previews it as a learner sees it, and saves the edited lesson', async () => {
    const api = stubLessons();
    renderAt('/edu/edit-lesson?id=7');
    expect(await screen.findByText('Edit lesson: Welcome')).toBeTruthy();
    expect(within(mediaField()).getByText('welcome.mp4')).toBeTruthy();
    expect(within(mediaField()).getByText('5.00 MiB · 12:34')).toBeTruthy();

    const preview = screen.getByText('As a learner sees it').closest('.ant-card') as HTMLElement;
    expect(preview.querySelector('video')?.getAttribute('src')).toBe('/api/media/3/content');
    expect(within(preview).getByText('all').tagName).toBe('STRONG');
    expect(within(preview).getByText('Completes at 80%')).toBeTruthy();

    fill(screen.getByLabelText('Title'), 'Welcome aboard');
    expect(await within(preview).findByText('Welcome aboard')).toBeTruthy();
    fireEvent.click(screen.getByRole('switch'));
    clickText('Save');
    await waitFor(() => expect(api.callsTo('PUT api/lessons')).toHaveLength(1));
    expect(api.callsTo('PUT api/lessons')[0]?.body).toEqual({
      id: 7,
      chapterId: 1,
      title: 'Welcome aboard',
      type: 'video',
      mediaId: 3,
      content: '<p>Watch it <strong>all</strong>.</p>',
      completionPercent: 80,
      preview: true,
      required: true,
    });
    expect(await screen.findByText('the outline')).toBeTruthy();
  });

  it('refuses a video lesson without its video, naming the field', async () => {
    const api = stubLessons();
    renderAt('/edu/edit-lesson?chapter=2');
    expect(await screen.findByText('Add lesson')).toBeTruthy();
    fill(screen.getByLabelText('Title'), 'Forklifts');
    clickText('Save');
    expect(await within(mediaField()).findByText('A video lesson needs its video')).toBeTruthy();
    expect(api.callsTo('POST api/lessons')).toHaveLength(0);
  });

  it('shows the server’s mediaId refusal under the file', async () => {
    const api = stubRoutes({
      'GET api/lessons/7': () => LESSON,
      'GET api/courses/5/outline': () => OUTLINE,
      'PUT api/lessons': () => jsonResponse(400, { status: 400, message: 'mediaId: no such media', timestamp: 0 }),
    });
    renderAt('/edu/edit-lesson?id=7');
    await screen.findByText('Edit lesson: Welcome');
    clickText('Save');
    expect(await within(mediaField()).findByText('no such media')).toBeTruthy();
    expect(api.callsTo('PUT api/lessons')).toHaveLength(1);
  });

  it('uploads a video with a progress bar of the bytes sent, then adds the lesson with it', async () => {
    FakeXhr.install();
    const api = stubLessons();
    renderAt('/edu/edit-lesson?chapter=2');
    await screen.findByText('Add lesson');
    fill(screen.getByLabelText('Title'), 'Forklifts');
    const input = mediaField().querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'.repeat(100)], 'forklift.mp4', { type: 'video/mp4' })] } });

    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    expect([FakeXhr.last().method, FakeXhr.last().url]).toEqual(['POST', '/api/media']);
    act(() => FakeXhr.last().sendProgress(50, 200));
    const bar = await screen.findByRole('progressbar');
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('25'));
    expect(screen.getByText('Uploading forklift.mp4')).toBeTruthy();

    act(() => FakeXhr.last().respond(201, UPLOADED));
    expect(await within(mediaField()).findByText('forklift.mp4')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    clickText('Save');
    await waitFor(() => expect(api.callsTo('POST api/lessons')).toHaveLength(1));
    expect(api.callsTo('POST api/lessons')[0]?.body).toMatchObject({ chapterId: 2, title: 'Forklifts', type: 'video', mediaId: 9, completionPercent: 90, preview: false });
  });

  it('cancels an upload, and refuses a file of the wrong kind before sending it', async () => {
    FakeXhr.install();
    stubLessons();
    renderAt('/edu/edit-lesson?chapter=2');
    await screen.findByText('Add lesson');
    const input = () => mediaField().querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input(), { target: { files: [new File(['%PDF'], 'rules.pdf', { type: 'application/pdf' })] } });
    expect(await screen.findByText('Choose an MP4 or WebM video')).toBeTruthy();
    expect(FakeXhr.instances).toHaveLength(0);

    fireEvent.change(input(), { target: { files: [new File(['x'], 'forklift.mp4', { type: 'video/mp4' })] } });
    await screen.findByRole('progressbar');
    clickText('Cancel upload');
    expect(FakeXhr.last().aborted).toBe(true);
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    expect(within(mediaField()).getByText('No file chosen yet')).toBeTruthy();
  });

  it('picks a PDF from the library for a document lesson', async () => {
    const pdf: Media = { id: 4, name: 'rules.pdf', mime: 'application/pdf', kind: 'document', size: 2048, pages: 12, createBy: 'admin', createTime: '2025-01-03 09:00:00' };
    const api = stubRoutes({
      'GET api/courses/5/outline': () => OUTLINE,
      'GET api/media': () => ({ content: [pdf], totalElements: 1 }),
      'POST api/lessons': () => jsonResponse(201, { id: 12 }),
    });
    renderAt('/edu/edit-lesson?chapter=1');
    await screen.findByText('Add lesson');
    clickText('Document');
    
    fill(screen.getByLabelText('Title'), 'Site rules');
    clickText('Choose from the library');
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('rules.pdf')).toBeTruthy();
    expect(api.callsTo('GET api/media').at(-1)?.params.get('kind')).toBe('document');
    clickText('Choose', dialog);
    const field = screen.getByText('PDF document', { selector: 'label' }).closest('.ant-form-item') as HTMLElement;
    expect(await within(field).findByText('2.00 KiB · 12 pages')).toBeTruthy();
    clickText('Save');
    await waitFor(() => expect(api.callsTo('POST api/lessons')[0]?.body).toMatchObject({ chapterId: 1, type: 'document', mediaId: 4 }));
  });

  it('says so when the lesson is gone', async () => {
    stubLessons();
    renderAt('/edu/edit-lesson?id=8');
    expect(await screen.findByText('This lesson no longer exists.')).toBeTruthy();
  });
});
