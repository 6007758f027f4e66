import type { NotificationPage } from '@cloud-classroom/shared/notifications';
import { useEffect, useId, useRef, useState } from 'react';
import { EmptyState } from '../../../components/site/empty-state';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { Pager } from '../../../components/site/pager';
import { SiteShell } from '../../../components/site/site-shell';
import { useDocumentTitle } from '../../../components/site/use-document-title';
import { useSiteData } from '../../../components/site/use-site-data';
import { useLocaleText } from '../../../lib/use-locale-text';
import { NotificationItem } from './notification-item';
import { useMarkAllRead, useNotificationFeed, useOpenNotification } from './notification-store';
import './notifications.css';

const PAGE_SIZE = 20;

/**
 * `/notifications`: everything I have been told, unread first then newest, a page at a time,
 * or only the unread; the bell's panel shows the newest ten and links here.
 */
export function NotificationsPage() {
  const { t } = useLocaleText();
  useDocumentTitle(t('notification.title'));
  const [page, setPage] = useState(0);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const { busy, markAll } = useMarkAllRead();
  const toggleId = useId();
  const list = useSiteData<NotificationPage>('api/site/notifications', { page, size: PAGE_SIZE, unread: unreadOnly });
  const open = useOpenNotification();
  const { unreadCount, totalElements } = useNotificationFeed();
  const { reload } = list;

  // A push, a mark here or in the bell's panel: the page lists what the server now holds. The
  // bell's own first load (no count before it) changes nothing here.
  const seen = useRef({ unreadCount, totalElements });
  useEffect(() => {
    const before = seen.current;
    seen.current = { unreadCount, totalElements };
    if (before.unreadCount !== null && (before.unreadCount !== unreadCount || before.totalElements !== totalElements)) reload();
  }, [unreadCount, totalElements, reload]);

  const data = list.data;
  return (
    <SiteShell>
      <div className="notifications-page__head">
        <h1 className="site-page-title">{t('notification.title')}</h1>
        <div className="notifications-page__actions">
          <label htmlFor={toggleId} className="notifications-page__toggle">
            <input
              id={toggleId}
              type="checkbox"
              checked={unreadOnly}
              onChange={(event) => {
                setUnreadOnly(event.target.checked);
                setPage(0);
              }}
            />
            {t('notification.unreadOnly')}
          </label>
          <button type="button" className="button button--small" disabled={busy || !data?.unreadCount} onClick={markAll}>
            {t('notification.markAllRead')}
          </button>
        </div>
      </div>
      {data === undefined && list.loading ? (
        <LoadingSkeleton lines={5} />
      ) : list.error !== undefined ? (
        <ErrorState error={list.error} onRetry={list.reload} section />
      ) : data === undefined || data.content.length === 0 ? (
        <EmptyState title={t(unreadOnly ? 'notification.noneUnread' : 'notification.none')} />
      ) : (
        <>
          <ul className="notification-panel__list notifications-page__list" aria-busy={list.loading}>
            {data.content.map((notification) => (
              <li key={notification.id}>
                <NotificationItem notification={notification} onOpen={(chosen) => void open(chosen)} />
              </li>
            ))}
          </ul>
          <Pager page={page} size={PAGE_SIZE} total={data.totalElements} onChange={setPage} />
        </>
      )}
    </SiteShell>
  );
}
