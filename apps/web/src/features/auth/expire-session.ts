import { POINT_COOKIE, TOKEN_COOKIE } from '@cloud-classroom/shared/constants';
import Cookies from 'js-cookie';

let reloading = false;

/**
 * SPEC §8: a dead session (401) logs out, leaves the `point` cookie for the login page and
 * reloads — once, however many calls met the 401. Only the stored token goes: the store keeps its
 * state until the document is replaced, because drawing the login page now would read and delete
 * the cookie meant for the next document.
 */
export function expireSession(): void {
  if (reloading) return;
  reloading = true;
  Cookies.remove(TOKEN_COOKIE);
  Cookies.set(POINT_COOKIE, '401');
  window.location.reload();
}

/** Tests only: this document may reload again. */
export function resetExpireSessionForTests(): void {
  reloading = false;
}
