import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocaleText } from '../../../lib/use-locale-text';
import { useNotificationFeed } from './notification-store';
import { useNotificationSocket } from './use-notification-socket';
import './notifications.css';

// The list comes with the first opening: the learner's first screens keep to their budget.
const NotificationPanel = lazy(async () => ({ default: (await import('./notification-panel')).NotificationPanel }));

export function BellIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <path d="M12 3a6 6 0 0 0-6 6v3.5L4.5 15v1.5h15V15L18 12.5V9a6 6 0 0 0-6-6z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
      <path d="M9.5 19a2.5 2.5 0 0 0 5 0" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

/** The count as the badge shows it. */
export const badgeText = (count: number) => (count > 99 ? '99+' : String(count));

/**
 * The learner header's bell: the unread count as a badge, live from `/websocket`; a click drops
 * the newest notifications. Escape or a click elsewhere closes them.
 */
export function NotificationBell() {
  const { t } = useLocaleText();
  useNotificationSocket();
  const { unreadCount } = useNotificationFeed();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const count = unreadCount ?? 0;

  useEffect(() => {
    if (!open) return undefined;
    const closeOutside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  return (
    <div className="notification-bell" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="notification-bell__button"
        aria-expanded={open}
        aria-label={count > 0 ? t('notification.bellUnread', { count }) : t('notification.bell')}
        onClick={() => setOpen((value) => !value)}
      >
        <BellIcon />
        {count > 0 && (
          <span className="notification-bell__badge" aria-hidden="true" data-testid="notification-badge">
            {badgeText(count)}
          </span>
        )}
      </button>
      {open && (
        <div className="notification-bell__popup">
          <Suspense fallback={null}>
            <NotificationPanel onClose={() => setOpen(false)} />
          </Suspense>
        </div>
      )}
    </div>
  );
}
