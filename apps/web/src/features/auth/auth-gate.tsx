import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { HttpError } from '../../lib/http-client';
import { isBackOfficePath } from '../layout/back-office-paths';
import { canUseBackOffice, useUserStore } from './user-store';

export function loginPathFor(fullPath: string): string {
  return `/login?redirect=${encodeURIComponent(fullPath)}`;
}

/**
 * SPEC §4's gate: without a token only /login, /download and /verify-cert are open; with a token but no roles
 * the user info is fetched first, and a failure there ends the session and reloads.
 */
export function AuthGate() {
  const token = useUserStore((state) => state.token);
  const hasRoles = useUserStore((state) => state.roles.length > 0);
  const location = useLocation();

  useEffect(() => {
    if (token === undefined || hasRoles) return;
    useUserStore
      .getState()
      .getInfo()
      .catch((error: unknown) => {
        // A 401 is the HTTP client's to handle (expireSession): it reloads once, with its note.
        if (error instanceof HttpError && error.status === 401) return;
        useUserStore.getState().resetToken();
        window.location.reload();
      });
  }, [token, hasRoles]);

  if (token === undefined) return <Navigate to={loginPathFor(location.pathname + location.search + location.hash)} replace />;
  if (!hasRoles) return <div className="page-loading" aria-busy="true" />;
  return <Outlet />;
}

/** With a token, /login has nothing to offer: SPEC §4 sends the user to /. */
export function GuestOnly() {
  const token = useUserStore((state) => state.token);
  return token === undefined ? <Outlet /> : <Navigate to="/" replace />;
}

/**
 * Learners hold no permission and have no business in the back office: refused there (401);
 * an address that is nobody's is not found (404), for them as for staff.
 */
export function BackOfficeGate() {
  const allowed = useUserStore((state) => canUseBackOffice(state.roles));
  const { pathname } = useLocation();
  if (allowed) return <Outlet />;
  return <Navigate to={isBackOfficePath(pathname) ? '/401' : '/404'} replace />;
}
