import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

function clearCookies() {
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name);
}

/** The store reads its cookies when the module loads: every case loads it afresh. */
async function loadStore() {
  vi.resetModules();
  const { useAppStore } = await import('./app-store');
  return useAppStore;
}

describe('useAppStore', () => {
  beforeEach(clearCookies);
  afterEach(clearCookies);

  it('starts with an open sidebar, a desktop device and the small size when no cookie is set', async () => {
    const store = await loadStore();
    expect(store.getState()).toMatchObject({ sidebar: { opened: true, withoutAnimation: false }, device: 'desktop', size: 'small' });
  });

  it("restores a closed sidebar from sidebarStatus '0'", async () => {
    Cookies.set('sidebarStatus', '0');
    expect((await loadStore()).getState().sidebar.opened).toBe(false);
  });

  it("restores an open sidebar from sidebarStatus '1'", async () => {
    Cookies.set('sidebarStatus', '1');
    expect((await loadStore()).getState().sidebar.opened).toBe(true);
  });

  it.each(['default', 'medium', 'small', 'mini'])('restores the size %s from its cookie', async (size) => {
    Cookies.set('size', size);
    expect((await loadStore()).getState().size).toBe(size);
  });

  it.each(['huge', '', 'SMALL'])("falls back to 'small' for an unknown size cookie %j", async (size) => {
    Cookies.set('size', size);
    expect((await loadStore()).getState().size).toBe('small');
  });

  it('toggling the sidebar flips it, with animation, and stores 1/0 in its cookie', async () => {
    const store = await loadStore();
    store.getState().toggleSidebar();
    expect(store.getState().sidebar).toEqual({ opened: false, withoutAnimation: false });
    expect(Cookies.get('sidebarStatus')).toBe('0');
    store.getState().toggleSidebar();
    expect(store.getState().sidebar).toEqual({ opened: true, withoutAnimation: false });
    expect(Cookies.get('sidebarStatus')).toBe('1');
  });

  it('closeSidebar closes it, as asked with or without animation, and stores 0', async () => {
    const store = await loadStore();
    store.getState().closeSidebar(true);
    expect(store.getState().sidebar).toEqual({ opened: false, withoutAnimation: true });
    expect(Cookies.get('sidebarStatus')).toBe('0');
    store.getState().toggleSidebar();
    store.getState().closeSidebar(false);
    expect(store.getState().sidebar).toEqual({ opened: false, withoutAnimation: false });
  });

  it('a stored closed sidebar survives a reload', async () => {
    (await loadStore()).getState().toggleSidebar();
    expect((await loadStore()).getState().sidebar.opened).toBe(false);
  });

  it('setSize stores the size in its cookie for the next load', async () => {
    const store = await loadStore();
    store.getState().setSize('mini');
    expect(store.getState().size).toBe('mini');
    expect(Cookies.get('size')).toBe('mini');
    expect((await loadStore()).getState().size).toBe('mini');
  });

  it('toggleDevice switches the device', async () => {
    const store = await loadStore();
    store.getState().toggleDevice('mobile');
    expect(store.getState().device).toBe('mobile');
  });
});
