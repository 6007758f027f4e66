import SearchOutlined from '@ant-design/icons/SearchOutlined';
import { lazy, Suspense, useState } from 'react';
import { useLayoutMessages } from './layout-messages';
import type { ViewRoute } from './view-routes';

// Select and Fuse are loaded the first time someone searches; most visits never do.
const HeaderSearchBox = lazy(() => import('./header-search-box'));

export function HeaderSearch({ routes }: { routes: readonly ViewRoute[] }) {
  const m = useLayoutMessages();
  const [open, setOpen] = useState(false);
  return (
    <div className={`header-search${open ? ' header-search--open' : ''}`}>
      <button type="button" className="navbar-icon" aria-label={m('navbar.search')} title={m('navbar.search')} onClick={() => setOpen(!open)}>
        <SearchOutlined />
      </button>
      {open && (
        <Suspense fallback={null}>
          <HeaderSearchBox routes={routes} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
