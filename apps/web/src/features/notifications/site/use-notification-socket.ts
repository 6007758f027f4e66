import { useEffect } from 'react';
import { useUserStore } from '../../auth/user-store';
import { connectNotifications } from './notification-store';

/** Keeps the session's notification socket open while the shell showing the bell is mounted. */
export function useNotificationSocket(): void {
  const token = useUserStore((state) => state.token);
  useEffect(() => (token === undefined ? undefined : connectNotifications(token.replace(/^Bearer /, ''))), [token]);
}
