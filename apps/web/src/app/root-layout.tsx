import { useEffect, useLayoutEffect } from 'react';
import { Outlet, useLocation, useNavigate, type NavigateFunction } from 'react-router';

let appNavigate: NavigateFunction | undefined;

/** A navigation asked for outside React (the HTTP client's 403 → /401); nothing before the app has drawn. */
export function navigateOutsideReact(path: string): void {
  void appNavigate?.(path);
}

/** Every route change starts at the top of the page, as the spec asks of history-mode routing. */
export function RootLayout() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, search]);
  // The declarative router's navigate changes with the location: the newest one is kept.
  useEffect(() => {
    appNavigate = navigate;
  }, [navigate]);
  return <Outlet />;
}
