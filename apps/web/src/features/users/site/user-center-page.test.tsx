import type { MyCourse, MyStudy } from '@cloud-classroom/shared/progress';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../components/list-page/list-page-test-kit';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { renderAt, signIn } from '../../../test/site-test-kit';
import { useUserStore } from '../../auth/user-store';
import { myCertificate } from '../../certificates/site/site-certificate-fixture';
import { siteExam } from '../../exams/site/site-exam-fixture';
import { UserCenterPage } from './user-center-page';

const mine = (courseId: number, title: string, extra: Partial<MyCourse> = {}): MyCourse => ({
  applicantId: courseId * 10,
  courseId,
  title,
  cover: null,
  required: false,
  termId: 1,
  termName: 'Spring',
  status: 'in_progress',
  source: 'self',
  dueAt: null,
  overdue: false,
  reason: null,
  progress: { percent: 40, completedLessons: 2, requiredLessons: 5, completed: false, nextLessonId: 3 },
  lastStudiedAt: null,
  ...extra,
});

const days = Array.from({ length: 14 }, (_, index) => ({ date: `2025-03-${String(index + 1).padStart(2, '0')}`, seconds: index === 13 ? 3900 : index * 60 }));
const study: MyStudy = { todaySeconds: 3900, weekSeconds: 7200, totalSeconds: 36_000, days };

describe('my learning (user center)', () => {
  let routes: ReturnType<typeof stubRoutes>;

  beforeEach(() => {
    setLocale('en-US', false);
    signIn();
    routes = stubRoutes({
      'GET api/site/my/courses': () => [
        mine(1, 'Fire safety'),
        mine(2, 'Ethics', { status: 'applied' }),
        mine(3, 'Data protection', { status: 'approved', dueAt: '2025-01-01 00:00:00', overdue: true, source: 'rule' }),
      ],
      'GET api/site/my/study': () => study,
      'GET api/site/exams': () => [siteExam(4, 'Fire drill test', { closeAt: '2999-01-31 17:30:00' })],
      'GET api/site/my/certificates': () => [
        myCertificate(12, 'Fire safety', { expiresOn: '2028-03-01' }),
        myCertificate(9, 'Ethics', { status: 'revoked', revokedAt: '2026-02-01 09:00:00' }),
      ],
    });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  it('lists my courses with status and progress, and my study time with 14 days of bars', async () => {
    renderAt(<UserCenterPage />, '/user-center');
    await waitFor(() => expect(document.title).toBe('Learning center - Cloud Classroom'));
    const courses = screen.getByRole('region', { name: 'My courses' });
    const cards = await within(courses).findAllByRole('article');
    expect(cards).toHaveLength(3);
    const [fire, ethics, data] = cards as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(fire).getByRole('link', { name: 'Fire safety' }).getAttribute('href')).toBe('/learning/1');
    expect(within(fire).getByText('In progress')).toBeTruthy();
    expect(within(fire).getByRole('progressbar', { name: 'Fire safety: 40% done' })).toBeTruthy();
    // Waiting for approval: no progress yet, and the way leads to the details.
    expect(within(ethics).getByText('Pending approval')).toBeTruthy();
    expect(within(ethics).queryByRole('progressbar')).toBeNull();
    expect(within(ethics).getByRole('link', { name: 'Ethics' }).getAttribute('href')).toBe('/preview/2');
    expect(within(data).getByText('Overdue')).toBeTruthy();
    expect(within(data).getByText('Due 2025-01-01')).toBeTruthy();

    const time = screen.getByRole('region', { name: 'Study time' });
    expect(await within(time).findByText('1 h 5 min')).toBeTruthy();
    expect(within(time).getByText('2 h 0 min')).toBeTruthy();
    expect(within(time).getByText('10 h 0 min')).toBeTruthy();
    expect(within(time).getByRole('img', { name: 'Study time per day, the last 14 days' })).toBeTruthy();
    expect(within(time).getAllByRole('listitem').at(-1)?.textContent).toBe('2025-03-14: 1 h 5 min');
    expect(within(time).getAllByRole('listitem')).toHaveLength(14);
    expect(routes.callsTo('GET api/site/my/study')[0]?.params.get('days')).toBe('14');

    const exams = screen.getByRole('region', { name: 'My exams' });
    const exam = await within(exams).findByRole('article', { name: 'Fire drill test' });
    expect(within(exam).getByText('Course: Fire safety')).toBeTruthy();
    expect(within(exam).getByText('Open until 2999-01-31 17:30')).toBeTruthy();
    // Every exam assigned to me, whatever its course.
    expect(routes.callsTo('GET api/site/exams')[0]?.params.has('courseId')).toBe(false);

    const certificates = screen.getByRole('region', { name: 'My certificates' });
    const [fireCert, ethicsCert] = (await within(certificates).findAllByRole('article')) as [HTMLElement, HTMLElement];
    expect(within(fireCert).getByRole('link', { name: 'Fire safety, certificate CC-2026-000012' }).getAttribute('href')).toBe('/view-cert?id=12');
    expect(within(fireCert).getByText('Valid')).toBeTruthy();
    expect(within(fireCert).getByText('2028-03-01')).toBeTruthy();
    expect(within(ethicsCert).getByText('Revoked')).toBeTruthy();
    expect(within(ethicsCert).getByText('Does not expire')).toBeTruthy();
  });

  it('invites someone without courses to the catalogue, and shows a failure in place', async () => {
    setLocale('zh-CN', false);
    stubRoutes({
      'GET api/site/my/courses': () => [],
      'GET api/site/my/study': () => jsonResponse(500, { status: 500, message: 'internal server error', timestamp: 0 }),
      'GET api/site/exams': () => [],
      'GET api/site/my/certificates': () => [],
    });
    renderAt(<UserCenterPage />, '/user-center');
    expect(await screen.findByText('你还没有课程，去课程目录看看吧。')).toBeTruthy();
    expect(await screen.findByText('你获得的证书会显示在这里。')).toBeTruthy();
    expect(screen.getByRole('link', { name: '浏览课程' }).getAttribute('href')).toBe('/home');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: '重试' })).toBeTruthy();
    expect(await screen.findByText('分配给你的考试会显示在这里。')).toBeTruthy();
  });

  it('loads my courses again when a course is pushed to me, and nothing else', async () => {
    const sockets: EventTarget[] = [];
    vi.stubGlobal(
      'WebSocket',
      class extends EventTarget {
        constructor(readonly url: string) {
          super();
          sockets.push(this);
          queueMicrotask(() => this.dispatchEvent(new Event('open')));
        }
        close() {}
      },
    );
    let assigned = false;
    routes = stubRoutes({
      'GET api/site/my/courses': () => (assigned ? [mine(1, 'Fire safety')] : []),
      'GET api/site/my/study': () => study,
      'GET api/site/exams': () => [],
      'GET api/site/my/certificates': () => [],
      'GET api/site/notifications': () => ({ content: [], totalElements: 0, unreadCount: 0 }),
    });
    renderAt(<UserCenterPage />, '/user-center');
    expect(await screen.findByText('You have no courses yet. Find one in the catalogue.')).toBeTruthy();
    await waitFor(() => expect(sockets).toHaveLength(1));
    assigned = true;
    const notification = { id: 7, kind: 'course_assigned', params: { title: 'Fire safety' }, link: '/learning/1', createTime: '2025-03-14 09:00:00', readTime: null };
    sockets[0]?.dispatchEvent(new MessageEvent('message', { data: JSON.stringify({ type: 'notification', unreadCount: 1, notification }) }));
    const courses = screen.getByRole('region', { name: 'My courses' });
    expect(await within(courses).findByRole('link', { name: 'Fire safety' })).toBeTruthy();
    expect(routes.callsTo('GET api/site/my/courses')).toHaveLength(2);
    expect(routes.callsTo('GET api/site/exams')).toHaveLength(1);
    expect(routes.callsTo('GET api/site/my/certificates')).toHaveLength(1);
  });
});
