import { useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';

/** Every route change starts at the top of the page, as the spec asks of history-mode routing. */
export function RootLayout() {
  const { pathname, search } = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, search]);
  return <Outlet />;
}
