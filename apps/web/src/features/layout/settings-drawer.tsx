import { Drawer, Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { useLayoutMessages } from './layout-messages';
import { useSettingsStore } from './settings-store';

const SettingsPanel = lazy(() => import('./settings-panel'));

export function SettingsDrawer() {
  const m = useLayoutMessages();
  const open = useSettingsStore((state) => state.drawerOpen);
  return (
    <Drawer
      title={m('settings.title')}
      open={open}
      size={280}
      // SPEC §2: clicking outside closes the drawer.
      mask={{ closable: true }}
      onClose={() => useSettingsStore.getState().setDrawerOpen(false)}
    >
      {open && (
        <Suspense fallback={<Spin />}>
          <SettingsPanel />
        </Suspense>
      )}
    </Drawer>
  );
}
