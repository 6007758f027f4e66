import type { ProgressResult, SiteLesson } from '@cloud-classroom/shared/progress';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../components/list-page/list-page-test-kit';
import { configureHttpClient } from '../../../lib/http-client';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { signIn } from '../../../test/site-test-kit';
import { useUserStore } from '../../auth/user-store';
import { courseOfRefusal, lessonIdOf, PlayPage } from './play-page';

// The header's notification bell asks for its list on every page; not this page's own request.
const NOTIFICATIONS = 'api/site/notifications';

const progress = { coveredSeconds: 0, percent: 0, completed: false, position: 0, pagesRead: [] };

function lessonOf(overrides: Partial<SiteLesson>): SiteLesson {
  return {
    id: 5,
    title: '火灾逃生',
    type: 'video',
    courseId: 3,
    courseTitle: '安全培训',
    chapterTitle: '第一章 基础',
    mediaId: 9,
    durationSeconds: 120,
    pages: null,
    content: '',
    completionPercent: 90,
    preview: false,
    required: true,
    maxPlaybackRate: 1.5,
    allowSkip: false,
    pageDwellSeconds: 5,
    previousLessonId: 4,
    nextLessonId: 6,
    progress,
    ...overrides,
  };
}

const answer = (overrides: Partial<ProgressResult> = {}): ProgressResult => ({ ...progress, acceptedSeconds: 0, superseded: false, ...overrides });
const refusal = (status: number, message: string) => jsonResponse(status, { status, message, timestamp: '2025-01-01 00:00:00' });

function renderAt(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <PlayPage />
    </MemoryRouter>,
  );
}

/** jsdom plays no media: the element's state is set by hand, and play/pause only record the call. */
function mediaState(video: HTMLVideoElement, state: { paused?: boolean; currentTime?: number; duration?: number; seeking?: boolean }) {
  for (const [key, value] of Object.entries(state)) Object.defineProperty(video, key, { value, writable: true, configurable: true });
}

describe("the player's address", () => {
  it.each([
    { value: '5', id: 5 },
    { value: '2147483647', id: 2147483647 },
    { value: '2147483648', id: undefined },
    { value: '0', id: undefined },
    { value: '-3', id: undefined },
    { value: '5abc', id: undefined },
    { value: null, id: undefined },
  ])('reads the lesson id $value as $id', ({ value, id }) => {
    expect(lessonIdOf(value)).toBe(id);
  });

  it('takes the course of a refusal from the address first, then from the message', () => {
    expect(courseOfRefusal('8', 'id: enrol in course 3 first')).toBe(8);
    expect(courseOfRefusal(null, 'id: enrol in course 3 first')).toBe(3);
    expect(courseOfRefusal(null, 'id: enrol in the course to study this lesson')).toBeUndefined();
  });
});

describe('the player page', () => {
  const onForbidden = vi.fn();
  let pause: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    setLocale('zh-CN', false);
    signIn();
    configureHttpClient({ onForbidden });
    pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    onForbidden.mockReset();
    useUserStore.getState().resetToken();
  });

  it('explains a lesson of a course the learner is not enrolled in, with the way to the course, instead of leaving for /401', async () => {
    stubRoutes({ 'GET api/site/lessons/5': () => refusal(403, 'lessonId: enrol in course 3 to study this lesson') });
    renderAt('/play?lesson=5');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('本课时仅对已报名的学员开放')).toBeTruthy();
    expect(within(alert).getByRole('link', { name: '查看课程' }).getAttribute('href')).toBe('/preview/3');
    expect(onForbidden).not.toHaveBeenCalled();
  });

  it('takes the course of a refused lesson from the link that led there when the refusal does not name it', async () => {
    stubRoutes({ 'GET api/site/lessons/5': () => refusal(403, 'lessonId: not enrolled') });
    renderAt('/play?lesson=5&course=8');
    expect((await screen.findByRole('link', { name: '查看课程' })).getAttribute('href')).toBe('/preview/8');
  });

  it('says a lesson does not exist, for a 404 and for a lesson id that cannot be one (without asking the server)', async () => {
    const { calls } = stubRoutes({ 'GET api/site/lessons/77': () => refusal(404, 'id: no lesson 77') });
    renderAt('/play?lesson=77');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('内容不存在或已下架')).toBeTruthy();
    expect(within(alert).getByRole('link', { name: '返回首页' }).getAttribute('href')).toBe('/home');
    cleanup();

    renderAt('/play?lesson=99999999999');
    expect(within(await screen.findByRole('alert')).getByText('内容不存在或已下架')).toBeTruthy();
    cleanup();
    renderAt('/play');
    expect(within(await screen.findByRole('alert')).getByText('内容不存在或已下架')).toBeTruthy();
    expect(calls.map((call) => call.path).filter((path) => path !== NOTIFICATIONS)).toEqual(['api/site/lessons/77']);
  });

  it('plays a video lesson: breadcrumb, speed capped by the course, resume, reports and the progress they bring', async () => {
    setLocale('en-US', false);
    const { callsTo } = stubRoutes({
      'GET api/site/lessons/5': () => lessonOf({ progress: { ...progress, position: 42, coveredSeconds: 42, percent: 35 } }),
      'POST api/site/lessons/5/progress': () => answer({ percent: 36, coveredSeconds: 43, position: 43 }),
    });
    renderAt('/play?lesson=5');

    expect(await screen.findByRole('heading', { name: '火灾逃生', level: 1 })).toBeTruthy();
    expect(document.title).toBe('火灾逃生 - Cloud Classroom');
    const crumbs = screen.getByRole('navigation', { name: 'Where you are' });
    expect(within(crumbs).getByRole('link', { name: '安全培训' }).getAttribute('href')).toBe('/learning/3');
    expect(within(crumbs).getByText('第一章 基础')).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Previous lesson' }).getAttribute('href')).toBe('/play?lesson=4');
    expect(screen.getByRole('link', { name: 'Next lesson →' }).getAttribute('href')).toBe('/play?lesson=6');
    expect(screen.getByRole('progressbar', { name: '35% done' }).getAttribute('aria-valuenow')).toBe('35');

    const video = document.querySelector('video')!;
    expect(video.getAttribute('src')).toBe('/api/media/9/content');
    expect(video.hasAttribute('playsinline')).toBe(true);
    const speeds = within(screen.getByLabelText('Speed')).getAllByRole('option');
    expect(speeds.map((option) => option.textContent)).toEqual(['0.75×', '1×', '1.25×', '1.5×']);

    // Resumes at the saved position.
    mediaState(video, { duration: 120, currentTime: 0 });
    fireEvent.loadedMetadata(video);
    expect(video.currentTime).toBe(42);

    // A rate set beyond the cap some other way is held to it.
    video.playbackRate = 4;
    fireEvent(video, new Event('ratechange'));
    expect(video.playbackRate).toBe(1.5);

    // Playing opens the session with an empty report.
    mediaState(video, { paused: false });
    fireEvent.play(video);
    await waitFor(() => expect(callsTo('POST api/site/lessons/5/progress')).toHaveLength(1));
    const opening = callsTo('POST api/site/lessons/5/progress')[0]?.body as { sessionId: string; intervals: unknown[]; position: number };
    expect(opening).toEqual({ sessionId: expect.stringMatching(/^[\w-]{8,64}$/), intervals: [], position: 42 });

    // What plays continuously is reported on pause.
    for (const time of [42, 42.25, 42.5, 42.75, 43]) {
      mediaState(video, { currentTime: time });
      fireEvent.timeUpdate(video);
    }
    mediaState(video, { paused: true });
    fireEvent.pause(video);
    await waitFor(() => expect(callsTo('POST api/site/lessons/5/progress')).toHaveLength(2));
    expect(callsTo('POST api/site/lessons/5/progress')[1]?.body).toEqual({ sessionId: opening.sessionId, intervals: [[42, 43]], position: 43 });
    expect(await screen.findByRole('progressbar', { name: '36% done' })).toBeTruthy();
  });

  it('pulls a seek past what was watched back when the course does not allow skipping', async () => {
    stubRoutes({
      'GET api/site/lessons/5': () => lessonOf({ progress: { ...progress, position: 30, coveredSeconds: 30 } }),
      'POST api/site/lessons/5/progress': () => answer(),
    });
    renderAt('/play?lesson=5');
    await screen.findByRole('heading', { name: '火灾逃生', level: 1 });
    const video = document.querySelector('video')!;
    mediaState(video, { currentTime: 34, seeking: true });
    fireEvent.seeking(video);
    expect(video.currentTime).toBe(34);
    expect(screen.queryByRole('status')).toBeNull();

    mediaState(video, { currentTime: 90 });
    fireEvent.seeking(video);
    expect(video.currentTime).toBe(30);
    expect(screen.getByRole('status').textContent).toBe('本课程不允许跳过未观看的内容，已回到你看到的最远位置。');
  });

  it('lets a course that allows skipping seek anywhere', async () => {
    stubRoutes({ 'GET api/site/lessons/5': () => lessonOf({ allowSkip: true, maxPlaybackRate: 2 }) });
    renderAt('/play?lesson=5');
    await screen.findByRole('heading', { name: '火灾逃生', level: 1 });
    const video = document.querySelector('video')!;
    mediaState(video, { currentTime: 100, seeking: true });
    fireEvent.seeking(video);
    expect(video.currentTime).toBe(100);
    expect(within(screen.getByLabelText('倍速')).getAllByRole('option').at(-1)?.textContent).toBe('2×');
  });

  it('pauses and says so when another device or tab has taken the lesson over', async () => {
    stubRoutes({
      'GET api/site/lessons/5': () => lessonOf({}),
      'POST api/site/lessons/5/progress': () => answer({ superseded: true }),
    });
    renderAt('/play?lesson=5');
    await screen.findByRole('heading', { name: '火灾逃生', level: 1 });
    const video = document.querySelector('video')!;
    mediaState(video, { paused: false });
    fireEvent.play(video);
    expect(await screen.findByText('该课时正在其他设备或标签页播放，学习时长将记在那里。')).toBeTruthy();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain('该课时正在其他设备或标签页播放，学习时长将记在那里。');
    await waitFor(() => expect(pause).toHaveBeenCalled());
  });

  it('shows a text lesson, reports its one page while it is open, and shows the completion the answer brings', async () => {
    const { callsTo } = stubRoutes({
      'GET api/site/lessons/7': () =>
        lessonOf({ id: 7, type: 'text', mediaId: null, content: '<h2>安全守则</h2><p>离开时关闭电源。</p>', nextLessonId: null }),
      'POST api/site/lessons/7/progress': () => answer({ percent: 100, completed: true, pagesRead: [1] }),
    });
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    renderAt('/play?lesson=7');
    expect(await screen.findByRole('heading', { name: '安全守则', level: 2 })).toBeTruthy();
    expect(screen.getByText('离开时关闭电源。')).toBeTruthy();
    expect(document.querySelector('video')).toBeNull();
    expect(screen.getByRole('link', { name: '返回课程' }).getAttribute('href')).toBe('/learning/3');
    await waitFor(() => expect(callsTo('POST api/site/lessons/7/progress')).toHaveLength(1));
    expect(callsTo('POST api/site/lessons/7/progress')[0]?.body).toEqual({ sessionId: expect.any(String), page: 1 });
    expect(await screen.findByText('已完成')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: '已完成 100%' }).getAttribute('aria-valuenow')).toBe('100');

    // Leaving the page sends what is open with keepalive, so the server hears it after the tab is gone.
    act(() => window.dispatchEvent(new Event('pagehide')));
    await waitFor(() => expect(callsTo('POST api/site/lessons/7/progress')).toHaveLength(2));
    expect(fetchSpy.mock.calls.at(-1)?.[1]).toMatchObject({ keepalive: true });
  });
});
