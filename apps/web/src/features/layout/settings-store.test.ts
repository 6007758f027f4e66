import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const DAY_MS = 24 * 60 * 60 * 1000;

function clearCookies() {
  for (const name of Object.keys(Cookies.get())) Cookies.remove(name);
}

/** The theme is read from its cookie, the rest from local storage, when the module loads. */
async function loadStore() {
  vi.resetModules();
  const { useSettingsStore } = await import('./settings-store');
  return useSettingsStore;
}

function persisted(): Record<string, unknown> | undefined {
  const raw = localStorage.getItem('layout-settings');
  return raw === null ? undefined : (JSON.parse(raw) as { state: Record<string, unknown> }).state;
}

describe('useSettingsStore', () => {
  beforeEach(() => {
    clearCookies();
    localStorage.clear();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    clearCookies();
    localStorage.clear();
  });

  it('starts from the defaults: theme #1890ff, every switch on, drawer closed', async () => {
    const state = (await loadStore()).getState();
    expect(state).toMatchObject({
      theme: '#1890ff',
      tagsView: true,
      fixedHeader: true,
      sidebarLogo: true,
      uniqueOpened: true,
      showSettings: true,
      drawerOpen: false,
    });
  });

  it('restores the theme from its cookie', async () => {
    Cookies.set('theme', '#11a983');
    expect((await loadStore()).getState().theme).toBe('#11a983');
  });

  it.each(['red', '#12345', '#gggggg', '#1890ff; x=y', ''])('ignores an invalid theme cookie %j', async (theme) => {
    Cookies.set('theme', theme);
    expect((await loadStore()).getState().theme).toBe('#1890ff');
  });

  it('setTheme stores the colour in a cookie for 365 days', async () => {
    const written: string[] = [];
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      written.push(value);
    });
    const store = await loadStore();
    store.getState().setTheme('#6959CD');
    expect(store.getState().theme).toBe('#6959CD');
    const cookie = written.find((value) => value.startsWith('theme='));
    expect(cookie).toBeDefined();
    expect(cookie).toContain('theme=#6959CD');
    const expires = /expires=([^;]+)/.exec(cookie ?? '')?.[1];
    expect(expires).toBeDefined();
    const days = (Date.parse(expires ?? '') - Date.now()) / DAY_MS;
    expect(days).toBeGreaterThan(364.9);
    expect(days).toBeLessThanOrEqual(365);
  });

  it('a theme set survives a reload through its cookie', async () => {
    (await loadStore()).getState().setTheme('#304156');
    expect(Cookies.get('theme')).toBe('#304156');
    expect((await loadStore()).getState().theme).toBe('#304156');
  });

  it('setTheme ignores an invalid colour', async () => {
    const store = await loadStore();
    store.getState().setTheme('#11a983');
    store.getState().setTheme('not-a-colour');
    store.getState().setTheme('#fff');
    expect(store.getState().theme).toBe('#11a983');
    expect(Cookies.get('theme')).toBe('#11a983');
  });

  it("persists the switches to local storage 'layout-settings', without the theme or the drawer", async () => {
    const store = await loadStore();
    store.getState().change('tagsView', false);
    store.getState().change('fixedHeader', false);
    store.getState().change('sidebarLogo', false);
    store.getState().change('uniqueOpened', false);
    store.getState().setDrawerOpen(true);
    store.getState().setTheme('#f5222d');
    expect(persisted()).toEqual({ tagsView: false, fixedHeader: false, sidebarLogo: false, uniqueOpened: false });
  });

  it('restores the switches from local storage, and the drawer starts closed', async () => {
    const first = await loadStore();
    first.getState().change('tagsView', false);
    first.getState().change('uniqueOpened', false);
    first.getState().setDrawerOpen(true);
    const state = (await loadStore()).getState();
    expect(state).toMatchObject({ tagsView: false, uniqueOpened: false, fixedHeader: true, sidebarLogo: true, drawerOpen: false });
  });

  it('takes only the switches from local storage: a stored theme, drawer state or non-boolean is ignored', async () => {
    Cookies.set('theme', '#13c2c2');
    // An older build, or another tab's bug, may have left more than the switches here.
    localStorage.setItem(
      'layout-settings',
      JSON.stringify({ state: { theme: '#212121', drawerOpen: true, tagsView: false, fixedHeader: 'no', footerTxt: 'x' }, version: 0 }),
    );
    const state = (await loadStore()).getState();
    expect(state).toMatchObject({ tagsView: false, fixedHeader: true, drawerOpen: false, theme: '#13c2c2', footerTxt: '© 2016-2021 Cloud Classroom' });
  });
});
