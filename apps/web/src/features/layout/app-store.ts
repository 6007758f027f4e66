import { DEFAULT_SIZE, SIDEBAR_STATUS_COOKIE, SIZE_COOKIE, SIZES, type Size } from '@cloud-classroom/shared/constants';
import Cookies from 'js-cookie';
import { create } from 'zustand';

export type Device = 'desktop' | 'mobile';

/** SPEC §3's app state: sidebar, device and size, the first and last kept in cookies (§4, §9). */
type AppState = {
  sidebar: { opened: boolean; withoutAnimation: boolean };
  device: Device;
  size: Size;
  toggleSidebar: () => void;
  closeSidebar: (withoutAnimation: boolean) => void;
  toggleDevice: (device: Device) => void;
  setSize: (size: Size) => void;
};

function initialSize(): Size {
  const stored = Cookies.get(SIZE_COOKIE);
  return SIZES.find((size) => size === stored) ?? DEFAULT_SIZE;
}

export const useAppStore = create<AppState>()((set, get) => ({
  // No cookie yet means open: the first visit shows the menu.
  sidebar: { opened: Cookies.get(SIDEBAR_STATUS_COOKIE) !== '0', withoutAnimation: false },
  device: 'desktop',
  size: initialSize(),
  toggleSidebar() {
    const opened = !get().sidebar.opened;
    Cookies.set(SIDEBAR_STATUS_COOKIE, opened ? '1' : '0');
    set({ sidebar: { opened, withoutAnimation: false } });
  },
  closeSidebar(withoutAnimation) {
    Cookies.set(SIDEBAR_STATUS_COOKIE, '0');
    set({ sidebar: { opened: false, withoutAnimation } });
  },
  toggleDevice(device) {
    set({ device });
  },
  setSize(size) {
    Cookies.set(SIZE_COOKIE, size);
    set({ size });
  },
}));
