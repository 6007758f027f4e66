import { isMobileWidth } from '@cloud-classroom/shared/constants';
import { useEffect, useLayoutEffect } from 'react';
import { useLocation } from 'react-router';
import { useAppStore } from './app-store';

/**
 * SPEC §4: under 992 px the device is mobile and the sidebar closes without animation; a route
 * change on mobile closes an open sidebar.
 */
export function useResizeHandler(): void {
  const { pathname } = useLocation();

  useLayoutEffect(() => {
    const check = () => {
      const mobile = isMobileWidth(document.body.getBoundingClientRect().width);
      const { device, toggleDevice, closeSidebar } = useAppStore.getState();
      if ((device === 'mobile') !== mobile) toggleDevice(mobile ? 'mobile' : 'desktop');
      if (mobile && device !== 'mobile') closeSidebar(true);
    };
    check();
    window.addEventListener('resize', check);
    return () => window.removeEventListener('resize', check);
  }, []);

  useEffect(() => {
    const { device, sidebar, closeSidebar } = useAppStore.getState();
    if (device === 'mobile' && sidebar.opened) closeSidebar(false);
  }, [pathname]);
}
