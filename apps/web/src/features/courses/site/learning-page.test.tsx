import type { SiteCourseDetail } from '@cloud-classroom/shared/progress';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../components/list-page/list-page-test-kit';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { renderAt, signIn } from '../../../test/site-test-kit';
import { useUserStore } from '../../auth/user-store';
import { LearningPage } from './learning-page';
import { myCertificate } from '../../certificates/site/site-certificate-fixture';
import { siteExam } from '../../exams/site/site-exam-fixture';
import { enrolled, siteCourse } from './site-course-fixture';

describe('the learning page', () => {
  let course: SiteCourseDetail | Response;
  let routes: ReturnType<typeof stubRoutes>;

  const open = () => renderAt(<LearningPage />, '/learning/5', '/learning/:id');

  beforeEach(() => {
    setLocale('en-US', false);
    signIn();
    course = siteCourse({
      enrolment: { ...enrolled(), overdue: true },
      mayStudy: true,
      progress: { percent: 50, completedLessons: 1, requiredLessons: 2, completed: false, nextLessonId: 12 },
    });
    routes = stubRoutes({ 'GET api/site/courses/5': () => course, 'GET api/site/exams': () => [], 'GET api/site/my/certificates': () => [] });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  it('shows my progress in the course and in each lesson, and continues with the next lesson', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Fire safety' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Fire safety - Cloud Classroom'));
    expect(screen.getByRole('progressbar', { name: 'Course progress: 50% done' }).getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByText('1 of 2 required lessons done')).toBeTruthy();
    expect(screen.getByText('Overdue · Due 2026-03-20')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/play?lesson=12');

    const basics = screen.getByRole('region', { name: 'Basics' });
    expect(within(basics).getByRole('progressbar', { name: 'Why fires start: 100% done' })).toBeTruthy();
    expect(within(basics).getByRole('progressbar', { name: 'The handbook: 30% done' })).toBeTruthy();
    expect(within(basics).getByRole('link', { name: 'The handbook' }).getAttribute('href')).toBe('/play?lesson=12');
    // A lesson never opened is at 0.
    expect(screen.getByRole('progressbar', { name: 'Drill notes: 0% done' })).toBeTruthy();
    expect(await screen.findByText("The course's exams appear here when it has them.")).toBeTruthy();
    expect(routes.callsTo('GET api/site/exams')[0]?.params.get('courseId')).toBe('5');
    expect(screen.getByText('Your certificate appears here when the course awards one.')).toBeTruthy();
  });

  it("lists my exams of the course, without repeating the course's name", async () => {
    routes = stubRoutes({
      'GET api/site/courses/5': () => course,
      'GET api/site/exams': () => [siteExam(9, 'Fire drill test', { state: 'upcoming', openAt: '2999-01-01 09:00:00' })],
      'GET api/site/my/certificates': () => [],
    });
    open();
    const exams = await screen.findByRole('region', { name: 'Exams' });
    const card = await within(exams).findByRole('article', { name: 'Fire drill test' });
    expect(within(card).getByText('Opens 2999-01-01 09:00')).toBeTruthy();
    expect(within(card).queryByText('Course: Fire safety')).toBeNull();
    expect(routes.callsTo('GET api/site/exams')[0]?.params.get('courseId')).toBe('5');
  });

  it("shows my certificates of the course's terms and exams, not those of other courses", async () => {
    stubRoutes({
      'GET api/site/courses/5': () => course,
      'GET api/site/exams': () => [siteExam(9, 'Fire drill test')],
      'GET api/site/my/certificates': () => [
        myCertificate(31, 'Fire drill test', { examId: 9 }),
        myCertificate(30, 'Fire safety', { termId: 21, status: 'superseded' }),
        myCertificate(29, 'Ethics', { termId: 77 }),
        myCertificate(28, 'Other exam', { examId: 10 }),
      ],
    });
    open();
    const section = await screen.findByRole('region', { name: 'Certificate' });
    await waitFor(() => expect(within(section).getAllByRole('article')).toHaveLength(2));
    expect(within(section).getByRole('link', { name: 'Fire drill test, certificate CC-2026-000031' }).getAttribute('href')).toBe('/view-cert?id=31');
    expect(within(section).getByRole('link', { name: 'Fire safety, certificate CC-2026-000030' }).getAttribute('href')).toBe('/view-cert?id=30');
    expect(within(section).getByText('Superseded')).toBeTruthy();
  });

  it('keeps someone not enrolled to the free previews, with the way to the details', async () => {
    course = siteCourse();
    open();
    expect(await screen.findByText(/You are not enrolled in this course/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Continue|Start/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Why fires start' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /The handbook/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Course details' }).getAttribute('href')).toBe('/preview/5');
  });

  it('shows a failure in place and loads again on retry', async () => {
    course = jsonResponse(500, { status: 500, message: 'internal server error', timestamp: 0 });
    setLocale('zh-CN', false);
    open();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('服务器内部错误')).toBeTruthy();
    course = siteCourse({ enrolment: enrolled('approved'), mayStudy: true });
    await userEvent.click(within(alert).getByRole('button', { name: '重试' }));
    expect((await screen.findByRole('link', { name: '开始学习' })).getAttribute('href')).toBe('/play?lesson=11');
  });
});
