import type { Notification } from '@cloud-classroom/shared/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useLocaleText } from '../../../lib/use-locale-text';
import { markAllNotificationsRead, markNotificationsRead, useNotificationFeed } from './notification-store';
import { notificationText } from './notification-text';
import './notifications.css';

/**
 * The newest notifications, unread first: a click marks one read and opens its link; "mark all
 * read" clears the badge. The same panel drops from the learner's header bell and the back
 * office's navbar bell (light: no antd, no i18next, so the learner's pages can load it).
 */
export function NotificationPanel({ onClose }: { onClose: () => void }) {
  const { t } = useLocaleText();
  const navigate = useNavigate();
  const { items, unreadCount } = useNotificationFeed();
  const [busy, setBusy] = useState(false);

  const open = async (notification: Notification) => {
    // The link opens even when the mark fails: the mark is a convenience, the link what was asked for.
    if (notification.readTime === null) await markNotificationsRead([notification.id]).catch(() => undefined);
    onClose();
    if (notification.link !== null) void navigate(notification.link);
  };

  const markAll = async () => {
    setBusy(true);
    try {
      await markAllNotificationsRead();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="notification-panel" aria-label={t('notification.title')}>
      <header className="notification-panel__head">
        <h2 className="notification-panel__title">{t('notification.title')}</h2>
        <button type="button" className="notification-panel__action" disabled={busy || !unreadCount} onClick={() => void markAll().catch(() => undefined)}>
          {t('notification.markAllRead')}
        </button>
      </header>
      {items.length === 0 ? (
        <p className="notification-panel__empty">{t('notification.empty')}</p>
      ) : (
        <ul className="notification-panel__list">
          {items.map((notification) => (
            <li key={notification.id}>
              <button
                type="button"
                className={`notification-item${notification.readTime === null ? ' notification-item--unread' : ''}`}
                onClick={() => void open(notification)}
              >
                <span className="notification-item__text">{notificationText(t, notification)}</span>
                <time className="notification-item__time" dateTime={notification.createTime.replace(' ', 'T')}>
                  {notification.createTime.slice(0, 16)}
                </time>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
