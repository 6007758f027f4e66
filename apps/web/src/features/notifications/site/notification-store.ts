import type { NotificationKind, NotificationPushMessage } from '@cloud-classroom/shared/notification-kinds';
import type { Notification, NotificationPage, NotificationPreferences, NotificationPreferencesUpdate, UnreadCount } from '@cloud-classroom/shared/notifications';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { useOneAction } from '../../../components/site/use-one-action';
import { API_BASE, http, type CallOptions, type UserAction } from '../../../lib/http-client';

// The bell's state, shared by the back office's navbar and the learner's header: the unread count
// and the newest notifications, loaded once and kept current by what `/websocket` pushes. Plain
// module state with useSyncExternalStore rather than TanStack Query, which the learner's pages
// may not load; zod-free for the same reason (the shared schemas are types here).

export const NOTIFICATIONS_SHOWN = 10;

export type NotificationFeed = {
  /** Null until the first list has come. */
  unreadCount: number | null;
  items: Notification[];
  totalElements: number;
};

let feed: NotificationFeed = { unreadCount: null, items: [], totalElements: 0 };
const listeners = new Set<() => void>();

function update(next: Partial<NotificationFeed>): void {
  feed = { ...feed, ...next };
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useNotificationFeed(): NotificationFeed {
  return useSyncExternalStore(subscribe, () => feed);
}

/** Loads the newest page (unread first) and the count. */
export async function refreshNotifications(options?: CallOptions): Promise<void> {
  const page = await http.get<NotificationPage>('api/site/notifications', { page: 0, size: NOTIFICATIONS_SHOWN }, { silent: true, ...options });
  update({ unreadCount: page.unreadCount, items: page.content, totalElements: page.totalElements });
}

export async function markNotificationsRead(ids: readonly number[]): Promise<void> {
  const { unreadCount } = await http.put<UnreadCount>('api/site/notifications/read', { ids });
  const now = new Date().toISOString();
  update({ unreadCount, items: feed.items.map((item) => (ids.includes(item.id) && item.readTime === null ? { ...item, readTime: now } : item)) });
}

/**
 * Opens a notification: marks it read, then goes to its link. The link opens even when the mark
 * fails: the mark is a convenience, the link what was asked for.
 */
export function useOpenNotification(onOpened?: () => void): (notification: Notification) => Promise<void> {
  const navigate = useNavigate();
  return useCallback(
    async (notification: Notification) => {
      if (notification.readTime === null) await markNotificationsRead([notification.id]).catch(() => undefined);
      onOpened?.();
      if (notification.link !== null) void navigate(notification.link);
    },
    [navigate, onOpened],
  );
}

/** "Mark all read" for a button: `busy` while it runs; a failure leaves the list as it was. */
export function useMarkAllRead(): { busy: boolean; markAll: () => void } {
  const { busy, run } = useOneAction();
  const markAll = useCallback(() => void run((action) => markAllNotificationsRead(action).catch(() => undefined)), [run]);
  return { busy, markAll };
}

async function markAllNotificationsRead(action: UserAction): Promise<void> {
  const { unreadCount } = await http.put<UnreadCount>('api/site/notifications/read-all', undefined, { action });
  const now = new Date().toISOString();
  update({ unreadCount, items: feed.items.map((item) => (item.readTime === null ? { ...item, readTime: now } : item)) });
}

export const loadNotificationPreferences = (options?: CallOptions) => http.get<NotificationPreferences>('api/site/notification-preferences', undefined, options);
export const saveNotificationPreferences = (changes: NotificationPreferencesUpdate) => http.put<NotificationPreferences>('api/site/notification-preferences', changes);

const pushListeners = new Set<(notification: Notification) => void>();

/**
 * Calls `onPush` when a notification of one of `kinds` is pushed: a page showing what it tells of
 * (my courses, my exams) loads again rather than wait for a reload. `kinds` and `onPush` should
 * keep their identity (a module constant, a stable reload).
 */
export function useNotificationPushes(kinds: readonly NotificationKind[], onPush: () => void): void {
  useEffect(() => {
    const listener = (notification: Notification) => {
      if (kinds.includes(notification.kind)) onPush();
    };
    pushListeners.add(listener);
    return () => {
      pushListeners.delete(listener);
    };
  }, [kinds, onPush]);
}

/** A pushed notification goes on top, the count as the server counted it. */
export function receivePush(message: NotificationPushMessage<Notification>): void {
  if (feed.items.some((item) => item.id === message.notification.id)) return;
  update({ unreadCount: message.unreadCount, items: [message.notification, ...feed.items].slice(0, NOTIFICATIONS_SHOWN), totalElements: feed.totalElements + 1 });
  for (const listener of pushListeners) listener(message.notification);
}

// The close codes of shared/auth.ts, whose module loads zod. The session has ended:
const SESSION_ENDED_CLOSE = 4401;
// A newer socket of the session took this one's place (SOCKET_CLOSE_REPLACED):
const REPLACED_CLOSE = 4409;
// Refused: the person holds their cap of sockets (1008), the server its total (1013):
const REFUSED_CLOSES: readonly number[] = [1008, 1013];
const RECONNECT_FIRST_MS = 1000;
const RECONNECT_MAX_MS = 60_000;

function socketUrl(token: string): string {
  const url = new URL(`${API_BASE}websocket`, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('token', token);
  return url.toString();
}

/**
 * Holds `/websocket` open for the session: pushes update the feed; a lost connection is opened
 * again after a growing pause, and the list reloaded then (what was pushed meanwhile was missed).
 * A 4401 close (the session ended) stops it. A refusal for too many sockets waits half a minute to
 * a minute (spread, so refused clients do not all come back at once). A socket replaced by a newer
 * one of the session (one tab too many) opens again only once its tab is shown again: opening at
 * once would replace another tab's, which would do the same, round and round; the tab a person
 * is looking at is the one that should hear. Answers the function that closes it.
 */
export function connectNotifications(token: string): () => void {
  let socket: WebSocket | undefined;
  let stopped = false;
  let delay = RECONNECT_FIRST_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const openWhenShown = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', openWhenShown);
    open(true);
  };
  const open = (reconnecting: boolean) => {
    socket = new WebSocket(socketUrl(token));
    socket.addEventListener('open', () => {
      if (stopped) return;
      delay = RECONNECT_FIRST_MS;
      if (reconnecting) void refreshNotifications().catch(() => undefined);
    });
    socket.addEventListener('message', (event: MessageEvent<string>) => {
      const message = JSON.parse(event.data) as { type?: string };
      if (message.type === 'notification') receivePush(message as NotificationPushMessage<Notification>);
    });
    socket.addEventListener('close', (event) => {
      if (stopped || event.code === SESSION_ENDED_CLOSE) return;
      if (event.code === REPLACED_CLOSE) {
        document.addEventListener('visibilitychange', openWhenShown);
        return;
      }
      const pause = REFUSED_CLOSES.includes(event.code) ? RECONNECT_MAX_MS * (0.5 + Math.random() / 2) : delay;
      timer = setTimeout(() => open(true), pause);
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    });
  };
  // Another session's feed (a logout and a login in one page's life) is not this one's.
  update({ unreadCount: null, items: [], totalElements: 0 });
  open(false);
  void refreshNotifications().catch(() => undefined);
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', openWhenShown);
    // Closed while still connecting, the browser logs "closed before the connection is
    // established" (a page left at once, or a session's bell remounted): close it once open.
    const last = socket;
    if (last?.readyState === WebSocket.CONNECTING) last.addEventListener('open', () => last.close());
    else last?.close();
  };
}
