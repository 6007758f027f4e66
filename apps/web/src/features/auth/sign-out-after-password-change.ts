import type { NavigateFunction } from 'react-router';
import { useUserStore } from './user-store';

/** The login page's cue (router state) to say why the person is there. */
export const PASSWORD_CHANGED_STATE = { notice: 'passwordChanged' } as const;

export function cameForPasswordChange(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { notice?: unknown }).notice === PASSWORD_CHANGED_STATE.notice;
}

/**
 * After a password change the server ended the person's other sessions; this one ends too, so
 * every device signs in anew, and the login page says why rather than greeting them bare.
 */
export async function signOutAfterPasswordChange(navigate: NavigateFunction): Promise<void> {
  await useUserStore.getState().logout();
  await navigate('/login', { replace: true, state: PASSWORD_CHANGED_STATE });
}
