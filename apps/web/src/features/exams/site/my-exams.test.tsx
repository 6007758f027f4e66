import type { SiteExam } from '@cloud-classroom/shared/exams';
import { cleanup, render as renderPlain, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../components/list-page/list-page-test-kit';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { signIn } from '../../../test/site-test-kit';
import { useUserStore } from '../../auth/user-store';
import { MyExams } from './my-exams';
import { siteExam } from './site-exam-fixture';

const render = (page: ReactElement) => renderPlain(<MemoryRouter>{page}</MemoryRouter>);

// Far from today either way, so that "past its due time" does not depend on when the test runs.
const PAST = '2000-01-01 09:00:00';
const FUTURE = '2999-12-31 18:00:00';

describe('my exams', () => {
  let exams: SiteExam[] | Response;
  let routes: ReturnType<typeof stubRoutes>;

  beforeEach(() => {
    setLocale('en-US', false);
    signIn();
    exams = [];
    routes = stubRoutes({ 'GET api/site/exams': () => exams });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  const cardOf = (title: string) => screen.getByRole('article', { name: title });

  it('shows each exam with its window, due time, limit, paper and attempts, with its course', async () => {
    exams = [
      siteExam(3, 'Final test', { state: 'upcoming', openAt: FUTURE, closeAt: null, dueAt: FUTURE, limitMinutes: null, courseId: null, courseTitle: null }),
      siteExam(2, 'Drill check', { state: 'open', closeAt: '2999-01-31 17:30:00', dueAt: PAST, overdue: true, attemptsLeft: 1, attemptsUsed: 1 }),
      siteExam(1, 'Quick quiz', { state: 'open', closeAt: null }),
      siteExam(0, 'Old quiz', { state: 'closed', closeAt: PAST, dueAt: PAST, attemptsLeft: 0, attemptsUsed: 2 }),
    ];
    render(<MyExams emptyTitle="Nothing yet" />);
    expect(await screen.findAllByRole('article')).toHaveLength(4);
    expect(routes.callsTo('GET api/site/exams')[0]?.params.has('courseId')).toBe(false);

    const upcoming = cardOf('Final test');
    expect(within(upcoming).getByText('Opens 2999-12-31 18:00')).toBeTruthy();
    expect(within(upcoming).queryByText(/Course:/)).toBeNull();
    expect(within(upcoming).queryByText('Overdue')).toBeNull();
    expect(factsOf(upcoming)).toEqual({
      Due: '2999-12-31 18:00',
      'Time limit': 'None',
      Questions: '12',
      'Total score': '100',
      'Pass score': '60',
      'Attempts left': '2 of 2',
    });

    const late = cardOf('Drill check');
    expect(within(late).getByText('Open until 2999-01-31 17:30')).toBeTruthy();
    expect(within(late).getByText('Course: Fire safety')).toBeTruthy();
    // The server says it is past its due time and still open: late, which the card says.
    expect(within(late).getByText('Overdue')).toBeTruthy();
    expect(factsOf(late)).toMatchObject({ Due: '2000-01-01 09:00', 'Time limit': '30 min', 'Attempts left': '1 of 2' });

    const open = cardOf('Quick quiz');
    expect(within(open).getByText('Open')).toBeTruthy();
    // No due time: no such fact.
    expect(factsOf(open)).not.toHaveProperty('Due');

    const closed = cardOf('Old quiz');
    expect(within(closed).getByText('Closed')).toBeTruthy();
    // Closed: the server does not call it overdue, so no mark.
    expect(within(closed).queryByText('Overdue')).toBeNull();
    expect(factsOf(closed)).toMatchObject({ 'Attempts left': '0 of 2' });

    // Upcoming: nothing to do yet; open with attempts left: start; one used: its results too; closed with one used: results only.
    expect(within(upcoming).queryByRole('link')).toBeNull();
    expect(linksOf(late)).toEqual([
      ['Start', '/answer-exam?exam=2'],
      ['Results', '/answer-exam?exam=2'],
    ]);
    expect(linksOf(open)).toEqual([['Start', '/answer-exam?exam=1']]);
    expect(linksOf(closed)).toEqual([['Results', '/answer-exam?exam=0']]);
  });

  it('offers to resume my running attempt, and no start beside it', async () => {
    exams = [
      { ...siteExam(4, 'Running quiz', { attemptsUsed: 1, attemptsLeft: 1 }), openAttemptId: 31 } as SiteExam,
      { ...siteExam(5, 'Second go', { attemptsUsed: 2, attemptsLeft: 0 }), openAttemptId: 40 } as SiteExam,
    ];
    render(<MyExams emptyTitle="Nothing yet" />);
    expect(linksOf(await screen.findByRole('article', { name: 'Running quiz' }))).toEqual([['Resume', '/answer-exam?exam=4']]);
    expect(linksOf(cardOf('Second go'))).toEqual([
      ['Resume', '/answer-exam?exam=5'],
      ['Results', '/answer-exam?exam=5'],
    ]);
  });

  it("asks for one course's exams and leaves the course out of each card", async () => {
    exams = [siteExam(2, 'Drill check')];
    setLocale('zh-CN', false);
    render(<MyExams courseId={5} emptyTitle="Nothing yet" />);
    const card = await screen.findByRole('article', { name: 'Drill check' });
    expect(routes.callsTo('GET api/site/exams')[0]?.params.get('courseId')).toBe('5');
    expect(within(card).queryByText(/课程：/)).toBeNull();
    expect(within(card).getByText('开放中')).toBeTruthy();
    expect(factsOf(card)).toMatchObject({ 考试时长: '30 分钟', 剩余次数: '2 / 2' });
  });

  it('says so when there are none, and shows a failure in place that loads again on retry', async () => {
    render(<MyExams emptyTitle="Exams assigned to you will appear here." />);
    expect(await screen.findByText('Exams assigned to you will appear here.')).toBeTruthy();
    cleanup();

    exams = jsonResponse(500, { status: 500, message: 'internal server error', timestamp: 0 });
    render(<MyExams emptyTitle="Nothing yet" />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('internal server error')).toBeTruthy();
    exams = [siteExam(1, 'Quick quiz')];
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Quick quiz' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

/** A card's links, as [text, target]. */
function linksOf(card: HTMLElement): string[][] {
  return within(card)
    .queryAllByRole('link')
    .map((link) => [link.textContent ?? '', link.getAttribute('href') ?? '']);
}

/** A card's facts, label to value. */
function factsOf(card: HTMLElement): Record<string, string> {
  const terms = within(card).getAllByRole('term');
  return Object.fromEntries(terms.map((term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? '']));
}
