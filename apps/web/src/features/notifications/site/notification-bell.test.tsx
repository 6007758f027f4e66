import type { Notification, NotificationPage } from '@cloud-classroom/shared/notifications';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUserStore } from '../../auth/user-store';
import { setLocale } from '../../../lib/use-locale-text';
import { stubRoutes } from '../../../test/page-test-kit';
import { renderAt, signIn } from '../../../test/site-test-kit';
import { NotificationBell } from './notification-bell';

/** A stand-in for the browser's WebSocket: the test pushes what the server would. */
class FakeSocket extends EventTarget {
  static opened: FakeSocket[] = [];
  constructor(readonly url: string) {
    super();
    FakeSocket.opened.push(this);
    queueMicrotask(() => this.dispatchEvent(new Event('open')));
  }
  push(message: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
  }
  close() {
    this.dispatchEvent(new CloseEvent('close', { code: 1000 }));
  }
}

const assigned: Notification = {
  id: 1,
  kind: 'course_assigned',
  params: { title: 'Fire safety' },
  link: '/learning/3',
  createTime: '2026-03-01 09:00:00',
  readTime: null,
};
const dueSoon: Notification = {
  id: 2,
  kind: 'due_soon',
  params: { title: 'Fire safety', at: '2026-03-06 18:00:00' },
  link: '/learning/3',
  createTime: '2026-03-03 18:00:00',
  readTime: null,
};

describe('the notification bell', () => {
  beforeEach(async () => {
    await setLocale('en-US', false);
    FakeSocket.opened = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    signIn();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useUserStore.getState().resetToken();
  });

  function stubNotifications(page: NotificationPage) {
    return stubRoutes({
      'GET api/site/notifications': () => page,
      'PUT api/site/notifications/read': () => ({ unreadCount: 0 }),
      'PUT api/site/notifications/read-all': () => ({ unreadCount: 0 }),
    });
  }

  it('shows the unread count, and a pushed notification raises it without a reload', async () => {
    stubNotifications({ content: [assigned], totalElements: 1, unreadCount: 1 });
    renderAt(<NotificationBell />, '/home', '*');
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    expect(screen.getByTestId('notification-badge').textContent).toBe('1');
    const [socket] = FakeSocket.opened;
    expect(socket?.url).toBe('ws://localhost:3000/websocket?token=t');
    socket?.push({ type: 'notification', unreadCount: 2, notification: dueSoon });
    await waitFor(() => expect(screen.getByTestId('notification-badge').textContent).toBe('2'));
    await userEvent.click(bell);
    const list = await screen.findByRole('list');
    expect(within(list).getAllByRole('button').map((item) => item.firstChild?.textContent)).toEqual([
      '“Fire safety” is due by 2026-03-06 18:00',
      'You have been assigned the course “Fire safety”',
    ]);
  });

  it('marks a notification read when it is clicked and opens its link', async () => {
    const { callsTo } = stubNotifications({ content: [assigned], totalElements: 1, unreadCount: 1 });
    renderAt(<NotificationBell />, '/home', '*');
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    await userEvent.click(await screen.findByRole('button', { name: /You have been assigned the course/ }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/learning/3'));
    expect(callsTo('PUT api/site/notifications/read').map((call) => call.body)).toEqual([{ ids: [1] }]);
    expect(screen.queryByTestId('notification-badge')).toBeNull();
    expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy();
  });

  it('marks all read at once', async () => {
    const { callsTo } = stubNotifications({ content: [dueSoon, assigned], totalElements: 2, unreadCount: 2 });
    renderAt(<NotificationBell />, '/home', '*');
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(screen.queryByTestId('notification-badge')).toBeNull());
    expect(callsTo('PUT api/site/notifications/read-all')).toHaveLength(1);
    expect((screen.getByRole('button', { name: 'Mark all read' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
