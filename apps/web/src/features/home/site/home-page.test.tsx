import type { SiteCategory, SiteCourse } from '@cloud-classroom/shared/courses';
import type { MyCourse } from '@cloud-classroom/shared/progress';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../components/list-page/list-page-test-kit';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { renderAt, signIn } from '../../../test/site-test-kit';
import { useUserStore } from '../../auth/user-store';
import { HomePage } from './home-page';

const course = (id: number, title: string, extra: Partial<SiteCourse> = {}): SiteCourse => ({
  id,
  title,
  categoryId: 1,
  categoryName: '安全',
  required: false,
  cover: null,
  summary: `${title} in brief`,
  chapterCount: 2,
  lessonCount: 5,
  updateTime: '2025-01-01 00:00:00',
  ...extra,
});

const mine = (courseId: number, title: string, extra: Partial<MyCourse> = {}): MyCourse => ({
  applicantId: courseId * 10,
  courseId,
  title,
  cover: null,
  required: true,
  termId: 1,
  termName: 'Spring',
  status: 'in_progress',
  source: 'self',
  dueAt: null,
  overdue: false,
  reason: null,
  progress: { percent: 40, completedLessons: 2, requiredLessons: 5, completed: false, nextLessonId: 3 },
  lastStudiedAt: '2025-01-02 10:00:00',
  ...extra,
});

const categories: SiteCategory[] = [
  { id: 1, pid: null, name: 'Safety', courseCount: 3, children: [{ id: 4, pid: 1, name: 'Fire', courseCount: 1 }] },
  { id: 2, pid: null, name: 'Sales', courseCount: 1 },
];

describe('the home page', () => {
  let routes: ReturnType<typeof stubRoutes>;
  let myCourses: MyCourse[];

  beforeEach(() => {
    setLocale('en-US', false);
    myCourses = [
      mine(1, 'Fire safety'),
      mine(2, 'Data protection', { source: 'rule', status: 'approved', lastStudiedAt: null, dueAt: '2025-01-01 00:00:00', overdue: true }),
      mine(3, 'Ethics', { source: 'staff', status: 'approved', lastStudiedAt: null, dueAt: '2025-03-01 00:00:00' }),
      // Chosen and let in, not started yet: waiting under "continue learning".
      mine(4, 'Negotiation', { source: 'self', status: 'approved', lastStudiedAt: null }),
      mine(5, 'Pending', { source: 'self', status: 'applied', lastStudiedAt: null }),
    ];
    routes = stubRoutes({
      'GET api/site/my/courses': () => myCourses,
      'GET api/site/categories': () => categories,
      'GET api/site/courses': (call) => {
        const all = [course(11, 'Fire drills'), course(12, 'First aid', { required: true, cover: 5 })];
        const q = call.params.get('q');
        const content = q === null ? all : all.filter((item) => item.title.toLowerCase().includes(q.toLowerCase()));
        return { content, totalElements: call.params.get('categoryId') === '2' ? 30 : content.length };
      },
    });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  it('shows what I am studying, what I was assigned with due dates (overdue marked), and the catalogue', async () => {
    signIn();
    renderAt(<HomePage />, '/home');
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, 李明' })).toBeTruthy();
    const underway = await screen.findByRole('region', { name: 'Continue learning' });
    expect(await within(underway).findByRole('link', { name: 'Fire safety' })).toBeTruthy();
    expect(within(underway).getByRole('link', { name: 'Fire safety' }).getAttribute('href')).toBe('/learning/1');
    expect(within(underway).getByRole('progressbar', { name: 'Fire safety: 40% done' })).toBeTruthy();
    expect(within(underway).getByRole('link', { name: 'Negotiation' })).toBeTruthy();
    expect(within(underway).queryByRole('link', { name: 'Pending' })).toBeNull();

    const assigned = screen.getByRole('region', { name: 'Assigned to me' });
    const cards = within(assigned).getAllByRole('article');
    // The soonest due first; the overdue one says so.
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual(['Data protection', 'Ethics']);
    expect(within(cards[0] as HTMLElement).getByText('Overdue · Due 2025-01-01')).toBeTruthy();
    expect(within(cards[1] as HTMLElement).getByText('Due 2025-03-01')).toBeTruthy();

    const catalogue = screen.getByRole('region', { name: 'Course catalogue' });
    expect(await within(catalogue).findByRole('link', { name: 'First aid' })).toBeTruthy();
    expect(within(catalogue).getByRole('link', { name: 'First aid' }).getAttribute('href')).toBe('/preview/12');
    expect(within(catalogue).getAllByText('5 lessons')).toHaveLength(2);
    expect(within(catalogue).getByText('Required')).toBeTruthy();
    expect(document.title).toBe('Home - Cloud Classroom');
  });

  it('filters by category chips (with a row for the sub-categories) and pages through the address', async () => {
    signIn();
    renderAt(<HomePage />, '/home');
    const chips = await screen.findByRole('navigation', { name: 'Categories' });
    await userEvent.click(within(chips).getByRole('button', { name: 'Safety' }));
    expect(screen.getByTestId('location').textContent).toBe('/home?categoryId=1');
    expect(within(chips).getByRole('button', { name: 'Safety' }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(within(chips).getByRole('button', { name: 'Fire' }));
    expect(screen.getByTestId('location').textContent).toBe('/home?categoryId=4');

    await userEvent.click(within(chips).getByRole('button', { name: 'Sales' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('location').textContent).toBe('/home?categoryId=2&page=1');
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();
    const last = routes.callsTo('GET api/site/courses').at(-1);
    expect(Object.fromEntries(last?.params ?? [])).toEqual({ categoryId: '2', page: '1', size: '12' });
  });

  it('searches with ?q=, says when nothing matches, and offers to clear it', async () => {
    signIn();
    renderAt(<HomePage />, '/home?q=zzz');
    expect(await screen.findByText('No course matches “zzz”')).toBeTruthy();
    // A search shows results only, not my courses.
    expect(screen.queryByRole('region', { name: 'Continue learning' })).toBeNull();
    await userEvent.click(screen.getAllByRole('link', { name: 'Clear the search' })[0] as HTMLElement);
    expect(screen.getByTestId('location').textContent).toBe('/home');
  });

  it('shows friendly empty sections, and a failure in place with a retry', async () => {
    myCourses = [];
    let failing = true;
    routes = stubRoutes({
      'GET api/site/my/courses': () => myCourses,
      'GET api/site/categories': () => [],
      'GET api/site/courses': () =>
        failing ? jsonResponse(500, { status: 500, message: 'internal server error', timestamp: 0 }) : { content: [], totalElements: 0 },
    });
    setLocale('zh-CN', false);
    signIn();
    renderAt(<HomePage />, '/home');
    expect(await screen.findByText('开始学习的课程会在这里等你。')).toBeTruthy();
    expect(screen.getByText('暂时没有分配给你的课程，可以在下方浏览课程目录。')).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('加载失败')).toBeTruthy();
    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: '重试' }));
    expect(await screen.findByText('这里还没有课程')).toBeTruthy();
    // No category chips when there are none to choose.
    expect(screen.queryByRole('navigation', { name: '课程分类' })).toBeNull();
  });

  it('says a section failed to load, not that the page is gone, when its route answers 404', async () => {
    routes = stubRoutes({
      'GET api/site/categories': () => [],
      'GET api/site/courses': () => ({ content: [], totalElements: 0 }),
    });
    signIn();
    renderAt(<HomePage />, '/home');
    const underway = await screen.findByRole('region', { name: 'Continue learning' });
    expect(await within(underway).findByText('This could not be loaded')).toBeTruthy();
    expect(within(underway).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(within(underway).queryByText('Not found, or no longer published')).toBeNull();
  });

  it('offers staff the back office in the main area, and a learner not', async () => {
    signIn(['user:list']);
    renderAt(<HomePage />, '/home');
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { name: 'Back office' })).toBeTruthy();
    expect(within(main).getByRole('link', { name: 'Open the back office' }).getAttribute('href')).toBe('/dashboard');
    cleanup();
    signIn();
    renderAt(<HomePage />, '/home');
    expect(within(screen.getByRole('main')).queryByRole('link', { name: /back office/ })).toBeNull();
    await screen.findByRole('link', { name: 'First aid' });
  });
});
