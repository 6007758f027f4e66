import type { Notification } from '@cloud-classroom/shared/notifications';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiCall } from '../../../components/list-page/list-page-test-kit';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { renderAt, signIn } from '../../../test/site-test-kit';
import { useUserStore } from '../../auth/user-store';
import { NotificationsPage } from './notifications-page';

/** A socket that opens and says nothing: the header's bell holds one. */
class QuietSocket extends EventTarget {
  constructor(readonly url: string) {
    super();
    queueMicrotask(() => this.dispatchEvent(new Event('open')));
  }
  close() {
    this.dispatchEvent(new CloseEvent('close', { code: 1000 }));
  }
}

/** 25 notifications, the first 3 unread: course 1 assigned, then due-soon reminders. */
const all: Notification[] = Array.from({ length: 25 }, (_, index) => ({
  id: 100 - index,
  kind: index === 0 ? 'course_assigned' : 'due_soon',
  params: { title: `Course ${index + 1}`, at: '2026-03-06 18:00:00' },
  link: `/learning/${index + 1}`,
  createTime: `2026-03-${String(28 - index).padStart(2, '0')} 09:00:00`,
  readTime: index < 3 ? null : '2026-03-28 10:00:00',
}));

describe('the notifications page', () => {
  let routes: ReturnType<typeof stubRoutes>;
  let read: Set<number>;

  const listed = (call: ApiCall) => {
    const unreadOnly = call.params.get('unread') === 'true';
    const size = Number(call.params.get('size'));
    const page = Number(call.params.get('page'));
    const rows = all.map((row) => (read.has(row.id) ? { ...row, readTime: '2026-03-29 08:00:00' } : row));
    const shown = unreadOnly ? rows.filter((row) => row.readTime === null) : rows;
    const unreadCount = rows.filter((row) => row.readTime === null).length;
    return { content: shown.slice(page * size, (page + 1) * size), totalElements: shown.length, unreadCount };
  };

  beforeEach(async () => {
    await setLocale('en-US', false);
    vi.stubGlobal('WebSocket', QuietSocket);
    signIn();
    read = new Set();
    routes = stubRoutes({
      'GET api/site/notifications': listed,
      'PUT api/site/notifications/read': (call) => {
        for (const id of (call.body as { ids: number[] }).ids) read.add(id);
        return { unreadCount: all.filter((row) => !read.has(row.id) && row.readTime === null).length };
      },
      'PUT api/site/notifications/read-all': () => {
        for (const row of all) read.add(row.id);
        return { unreadCount: 0 };
      },
    });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  /** The page's own list (the header's bell has its own, in a closed panel). */
  const pageCalls = () => routes.callsTo('GET api/site/notifications').filter((call) => call.params.get('size') === '20');
  const items = async () => within(await screen.findByRole('list')).getAllByRole('button');

  it('lists everything a page at a time, unread first, with a pager to the rest', async () => {
    renderAt(<NotificationsPage />, '/notifications');
    await waitFor(() => expect(document.title).toBe('Notifications - Cloud Classroom'));
    expect(screen.getByRole('heading', { name: 'Notifications' })).toBeTruthy();
    const first = await items();
    expect(first).toHaveLength(20);
    expect(first[0]?.textContent).toContain('You have been assigned the course “Course 1”');
    expect(first.filter((item) => item.classList.contains('notification-item--unread'))).toHaveLength(3);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(async () => expect(await items()).toHaveLength(5));
    expect(pageCalls().map((call) => call.params.get('page'))).toEqual(['0', '1']);
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('lists only the unread when asked, from the first page', async () => {
    renderAt(<NotificationsPage />, '/notifications');
    await items();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(async () => expect(await items()).toHaveLength(5));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Unread only' }));
    await waitFor(async () => expect(await items()).toHaveLength(3));
    expect(pageCalls().at(-1)?.params.toString()).toBe('page=0&size=20&unread=true');
    expect(screen.queryByRole('navigation', { name: /pages/i })).toBeNull();
  });

  it('marks one read and opens its link', async () => {
    renderAt(<NotificationsPage />, '/notifications');
    const [firstItem] = await items();
    await userEvent.click(firstItem!);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/learning/1'));
    expect(routes.callsTo('PUT api/site/notifications/read').map((call) => call.body)).toEqual([{ ids: [100] }]);
  });

  it('marks all read', async () => {
    renderAt(<NotificationsPage />, '/notifications');
    await items();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Unread only' }));
    await waitFor(async () => expect(await items()).toHaveLength(3));
    await userEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    expect(await screen.findByText('Nothing unread')).toBeTruthy();
    expect(routes.callsTo('PUT api/site/notifications/read-all')).toHaveLength(1);
  });
});
