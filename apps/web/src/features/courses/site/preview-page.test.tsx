import type { SiteCourseDetail } from '@cloud-classroom/shared/progress';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../components/list-page/list-page-test-kit';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { renderAt, signIn } from '../../../test/site-test-kit';
import { useUserStore } from '../../auth/user-store';
import { PreviewPage } from './preview-page';
import { enrolled, siteCourse } from './site-course-fixture';

// The header's notification bell asks for its list on every page; not this page's own request.
const NOTIFICATIONS = 'api/site/notifications';

describe('the course details page', () => {
  let course: SiteCourseDetail;
  let routes: ReturnType<typeof stubRoutes>;
  let applyAnswer: () => unknown;

  const open = () => renderAt(<PreviewPage />, '/preview/5', '/preview/:id');

  beforeEach(() => {
    setLocale('en-US', false);
    signIn();
    course = siteCourse();
    applyAnswer = () => {
      course = { ...course, enrolment: { ...enrolled(), status: 'applied' } };
      return { id: 40, status: 'applied' };
    };
    routes = stubRoutes({
      'GET api/site/courses/5': () => course,
      'POST api/site/courses/5/apply': () => applyAnswer(),
    });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  it('shows the course, its description, its outline with free previews open, and its terms', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Fire safety' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Fire safety - Cloud Classroom'));
    expect(screen.getByText('extinguishers').tagName).toBe('STRONG');
    const basics = screen.getByRole('region', { name: 'Basics' });
    expect(within(basics).getByRole('link', { name: 'Why fires start' }).getAttribute('href')).toBe('/play?lesson=11');
    expect(within(basics).getByText('Free preview')).toBeTruthy();
    expect(within(basics).getByText('3 min')).toBeTruthy();
    expect(within(basics).getByText('12 pages')).toBeTruthy();
    expect(within(basics).getByRole('img', { name: 'Video' })).toBeTruthy();
    // Not enrolled: the other lessons are not links.
    expect(within(basics).queryByRole('link', { name: 'The handbook' })).toBeNull();
    const terms = screen.getByRole('complementary', { name: 'Terms' });
    expect(within(terms).getByText('2026-03-01 09:00 – 2026-04-01 18:00')).toBeTruthy();
    expect(within(terms).getByText('3 seats left')).toBeTruthy();
    expect(within(terms).getByText('Full')).toBeTruthy();
    expect(within(terms).getByText('No seat limit')).toBeTruthy();
    expect(within(terms).getByText('Assigned by staff')).toBeTruthy();
  });

  it('applies to the chosen term (a full one cannot be chosen, an assigned one is not offered), then waits for approval', async () => {
    open();
    const form = await screen.findByRole('group', { name: 'Choose a term' });
    expect(within(form).getByRole('radio', { name: /Summer/ })).toHaveProperty('disabled', true);
    expect(within(form).queryByRole('radio', { name: /Autumn/ })).toBeNull();
    // The only term with seats is chosen already.
    expect(within(form).getByRole('radio', { name: /Spring/ })).toHaveProperty('checked', true);
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Your application is waiting for approval.')).toBeTruthy();
    expect(routes.callsTo('POST api/site/courses/5/apply').map((call) => call.body)).toEqual([{ termId: 21 }]);
  });

  it('applies once for a double click, with an idempotency key', async () => {
    open();
    const apply = await screen.findByRole('button', { name: 'Apply' });
    // Both clicks land before React re-renders the button as disabled (act renders at its end).
    act(() => {
      apply.click();
      apply.click();
    });
    expect(await screen.findByText('Your application is waiting for approval.')).toBeTruthy();
    const calls = routes.callsTo('POST api/site/courses/5/apply');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("shows the server's refusal in the page's language", async () => {
    setLocale('zh-CN', false);
    applyAnswer = () => jsonResponse(409, { status: 409, message: 'termId: is required', timestamp: 0 });
    open();
    await userEvent.click(await screen.findByRole('button', { name: '报名' }));
    expect((await screen.findByRole('alert')).textContent).toBe('不能为空');
  });

  it('offers to start or continue an enrolled course, and says why a rejected or assigned-only one cannot be', async () => {
    course = siteCourse({ enrolment: enrolled('approved'), mayStudy: true });
    open();
    expect((await screen.findByRole('link', { name: 'Start learning' })).getAttribute('href')).toBe('/learning/5');
    expect(screen.getByRole('link', { name: 'The handbook' }).getAttribute('href')).toBe('/play?lesson=12');
    cleanup();

    course = siteCourse({ enrolment: enrolled('in_progress'), mayStudy: true, progress: { ...siteCourse().progress, percent: 40 } });
    open();
    expect(await screen.findByRole('link', { name: 'Continue learning' })).toBeTruthy();
    cleanup();

    course = siteCourse({ enrolment: { ...enrolled(), status: 'rejected', reason: 'full for this department' } });
    open();
    expect(await screen.findByText('Your application was rejected: full for this department')).toBeTruthy();
    cleanup();

    course = siteCourse({ terms: [siteCourse().terms[2] as SiteCourseDetail['terms'][number]] });
    open();
    expect(await screen.findByText(/Staff assign people to this course/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Apply' })).toBeNull();
  });

  it('says a course that is not there (or not published) is not found, and a failure can be retried', async () => {
    routes = stubRoutes({ 'GET api/site/courses/5': () => jsonResponse(404, { status: 404, message: 'id: no course 5', timestamp: 0 }) });
    open();
    expect(await screen.findByText('Not found, or no longer published')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Back to home' })).toHaveLength(1);
    cleanup();
    renderAt(<PreviewPage />, '/preview/abc', '/preview/:id');
    expect(screen.getByText('Not found, or no longer published')).toBeTruthy();
    expect(routes.calls.filter((call) => call.path !== NOTIFICATIONS)).toHaveLength(1);
  });
});
