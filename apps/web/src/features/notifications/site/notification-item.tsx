import type { Notification } from '@cloud-classroom/shared/notifications';
import { useLocaleText } from '../../../lib/use-locale-text';
import { notificationText } from './notification-text';

/** One notification as the bell's panel and the notifications page list it: unread ones marked. */
export function NotificationItem({ notification, onOpen }: { notification: Notification; onOpen: (notification: Notification) => void }) {
  const { t } = useLocaleText();
  return (
    <button type="button" className={`notification-item${notification.readTime === null ? ' notification-item--unread' : ''}`} onClick={() => onOpen(notification)}>
      <span className="notification-item__text">{notificationText(t, notification)}</span>
      <time className="notification-item__time" dateTime={notification.createTime.replace(' ', 'T')}>
        {notification.createTime.slice(0, 16)}
      </time>
    </button>
  );
}
