import { Badge, Dropdown } from 'antd';
import { useState } from 'react';
import { useLocaleText } from '../../lib/use-locale-text';
import { BellIcon } from './site/notification-bell';
import { NotificationPanel } from './site/notification-panel';
import { useNotificationFeed } from './site/notification-store';
import { useNotificationSocket } from './site/use-notification-socket';

/** The back office navbar's bell: antd's badge and dropdown around the learner header's panel, live from `/websocket`. */
export function NotificationBell() {
  const { t } = useLocaleText();
  useNotificationSocket();
  const { unreadCount } = useNotificationFeed();
  const [open, setOpen] = useState(false);
  const count = unreadCount ?? 0;
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      placement="bottomRight"
      popupRender={() => (
        <div className="notification-dropdown">
          <NotificationPanel onClose={() => setOpen(false)} />
        </div>
      )}
    >
      <button
        type="button"
        className="navbar-icon"
        aria-expanded={open}
        aria-label={count > 0 ? t('notification.bellUnread', { count }) : t('notification.bell')}
        title={t('notification.bell')}
      >
        <Badge count={count} overflowCount={99} size="small" data-testid="notification-badge">
          <span className="notification-dropdown__icon">
            <BellIcon />
          </span>
        </Badge>
      </button>
    </Dropdown>
  );
}
