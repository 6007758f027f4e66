import { Link } from 'react-router';
import { useLocaleText } from '../../../lib/use-locale-text';
import { NotificationItem } from './notification-item';
import { useMarkAllRead, useNotificationFeed, useOpenNotification } from './notification-store';
import './notifications.css';

/**
 * The newest notifications, unread first: a click marks one read and opens its link; "mark all
 * read" clears the badge; "see all" opens the notifications page. The same panel drops from the
 * learner's header bell and the back office's navbar bell (light: no antd, no i18next, so the
 * learner's pages can load it).
 */
export function NotificationPanel({ onClose }: { onClose: () => void }) {
  const { t } = useLocaleText();
  const { items, unreadCount, totalElements } = useNotificationFeed();
  const { busy, markAll } = useMarkAllRead();
  const open = useOpenNotification(onClose);

  return (
    <section className="notification-panel" aria-label={t('notification.title')}>
      <header className="notification-panel__head">
        <h2 className="notification-panel__title">{t('notification.title')}</h2>
        <button type="button" className="notification-panel__action" disabled={busy || !unreadCount} onClick={markAll}>
          {t('notification.markAllRead')}
        </button>
      </header>
      {items.length === 0 ? (
        <p className="notification-panel__empty">{t('notification.empty')}</p>
      ) : (
        <ul className="notification-panel__list">
          {items.map((notification) => (
            <li key={notification.id}>
              <NotificationItem notification={notification} onOpen={(chosen) => void open(chosen)} />
            </li>
          ))}
        </ul>
      )}
      {totalElements > 0 && (
        <footer className="notification-panel__foot">
          <Link className="notification-panel__action" to="/notifications" onClick={onClose}>
            {t('notification.viewAll')}
          </Link>
        </footer>
      )}
    </section>
  );
}
