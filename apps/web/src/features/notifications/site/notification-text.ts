import { notificationTextKey } from '@cloud-classroom/shared/notification-kinds';
import type { Notification } from '@cloud-classroom/shared/notifications';
import type { LocaleText } from '../../../lib/use-locale-text';

/** A notification's sentence in the page's language: its kind's text, filled with its values (a time without its seconds). */
export function notificationText(t: LocaleText, notification: Pick<Notification, 'kind' | 'params'>): string {
  const { title, at } = notification.params;
  return t(notificationTextKey(notification.kind), { title, at: at === undefined ? '' : at.slice(0, 16) });
}
