import { NOTIFICATION_KINDS, notificationKindKey, type NotificationKind } from '@cloud-classroom/shared/notification-kinds';
import type { NotificationPreferences as Preferences } from '@cloud-classroom/shared/notifications';
import { useEffect, useState } from 'react';
import { localizeMessage, useLocaleText } from '../../../lib/use-locale-text';
import { loadNotificationPreferences, saveNotificationPreferences } from './notification-store';
import './notifications.css';

/**
 * The `/user-setting` section choosing which kinds of notification to get: each box saves as it
 * is ticked. A kind turned off is not recorded at all (the server writes nothing for it).
 */
export function NotificationPreferencesForm() {
  const { t, language } = useLocaleText();
  const [preferences, setPreferences] = useState<Preferences | undefined>();
  const [status, setStatus] = useState<{ ok?: string; error?: string }>({});

  useEffect(() => {
    const controller = new AbortController();
    loadNotificationPreferences({ silent: true, signal: controller.signal }).then(setPreferences, (error: unknown) => {
      if (!controller.signal.aborted) setStatus({ error: localizeMessage(language, error instanceof Error ? error.message : String(error)) });
    });
    return () => controller.abort();
  }, [language]);

  const change = async (kind: NotificationKind, enabled: boolean) => {
    setPreferences((current) => (current === undefined ? current : { ...current, [kind]: enabled }));
    try {
      setPreferences(await saveNotificationPreferences({ [kind]: enabled }));
      setStatus({ ok: t('notification.saved') });
    } catch (error) {
      setPreferences((current) => (current === undefined ? current : { ...current, [kind]: !enabled }));
      setStatus({ error: localizeMessage(language, error instanceof Error ? error.message : String(error)) });
    }
  };

  return (
    <div className="user-site-form">
      <p className="user-site-hint">{t('notification.preferencesHint')}</p>
      {preferences !== undefined && (
        <div className="user-site-radios notification-preferences">
          {NOTIFICATION_KINDS.map((kind) => (
            <label key={kind}>
              <input type="checkbox" name={kind} checked={preferences[kind]} onChange={(event) => void change(kind, event.target.checked)} />
              {t(notificationKindKey(kind))}
            </label>
          ))}
        </div>
      )}
      {status.error !== undefined && (
        <p className="site-notice site-notice--danger" role="alert">
          {status.error}
        </p>
      )}
      <p className="user-site-hint" role="status">
        {status.ok}
      </p>
    </div>
  );
}
