import CloseOutlined from '@ant-design/icons/CloseOutlined';
import { CONTEXT_MENU_WIDTH_PX, TAGS_SCROLL_PADDING_PX } from '@cloud-classroom/shared/constants';
import { useEffect, useLayoutEffect, useRef, useState, type MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useMenuTitle } from '../../lib/use-menu-title';
import { useLayoutMessages } from '../layout/layout-messages';
import { DASHBOARD_PATH } from '../layout/view-routes';
import { viewAfterClosing, type VisitedView } from './tags-view-rules';
import { useTagsViewStore } from './tags-view-store';

type ContextMenu = { view: VisitedView; left: number; top: number };

/** Scrolls just enough that the tab and 4 px around it are visible (SPEC §9). */
export function scrollTabIntoView(container: HTMLElement, tab: HTMLElement): void {
  const start = tab.offsetLeft - TAGS_SCROLL_PADDING_PX;
  const end = tab.offsetLeft + tab.offsetWidth + TAGS_SCROLL_PADDING_PX;
  if (start < container.scrollLeft) container.scrollLeft = start;
  else if (end > container.scrollLeft + container.clientWidth) container.scrollLeft = end - container.clientWidth;
}

export function TagsView() {
  const titleOf = useMenuTitle();
  const m = useLayoutMessages();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const views = useTagsViewStore((state) => state.visitedViews);
  const [menu, setMenu] = useState<ContextMenu>();
  const scroller = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const container = scroller.current;
    const tab = container?.querySelector<HTMLElement>('.tags-view-item.active');
    if (container && tab) scrollTabIntoView(container, tab);
  }, [pathname, views.length]);

  useEffect(() => {
    if (menu === undefined) return;
    const close = () => setMenu(undefined);
    document.addEventListener('click', close);
    return () => document.removeEventListener('click', close);
  }, [menu]);

  const goAfterClosing = (closedPath: string) => {
    if (closedPath !== pathname) return;
    navigate(viewAfterClosing(useTagsViewStore.getState().visitedViews, DASHBOARD_PATH));
  };

  const close = (view: VisitedView) => {
    if (view.meta.affix) return;
    useTagsViewStore.getState().closeView(view.path);
    goAfterClosing(view.path);
  };

  const refresh = (view: VisitedView) => navigate(`/redirect${view.fullPath}`, { replace: view.path === pathname });

  const closeOthers = (view: VisitedView) => {
    useTagsViewStore.getState().closeOthers(view.path);
    if (view.path !== pathname) navigate(view.fullPath);
  };

  const closeAll = () => {
    useTagsViewStore.getState().closeAll();
    const remaining = useTagsViewStore.getState().visitedViews;
    if (!remaining.some((view) => view.path === pathname)) navigate(viewAfterClosing(remaining, DASHBOARD_PATH));
  };

  const openMenu = (event: MouseEvent, view: VisitedView) => {
    event.preventDefault();
    const left = Math.min(event.clientX, window.innerWidth - CONTEXT_MENU_WIDTH_PX - 8);
    setMenu({ view, left, top: event.clientY });
  };

  return (
    <div className="tags-view-container">
      <div className="tags-view-wrapper" ref={scroller}>
        {views.map((view) => (
          <Link
            key={view.path}
            to={view.fullPath}
            className={`tags-view-item${view.path === pathname ? ' active' : ''}`}
            data-path={view.path}
            onMouseUp={(event) => {
              // SPEC §2: a middle click closes the tab.
              if (event.button === 1) close(view);
            }}
            onAuxClick={(event) => event.preventDefault()}
            onContextMenu={(event) => openMenu(event, view)}
          >
            {titleOf({ title: view.title, titleEn: view.meta.titleEn })}
            {!view.meta.affix && (
              <CloseOutlined
                className="tags-view-item__close"
                aria-label={m('tags.close')}
                onClick={(event) => {
                  event.preventDefault();
                  event.stopPropagation();
                  close(view);
                }}
              />
            )}
          </Link>
        ))}
      </div>
      {menu && (
        <ul className="tags-contextmenu" role="menu" style={{ left: menu.left, top: menu.top, width: CONTEXT_MENU_WIDTH_PX }}>
          <li role="menuitem" onClick={() => refresh(menu.view)}>
            {m('tags.refresh')}
          </li>
          {!menu.view.meta.affix && (
            <li role="menuitem" onClick={() => close(menu.view)}>
              {m('tags.close')}
            </li>
          )}
          <li role="menuitem" onClick={() => closeOthers(menu.view)}>
            {m('tags.closeOthers')}
          </li>
          <li role="menuitem" onClick={closeAll}>
            {m('tags.closeAll')}
          </li>
        </ul>
      )}
    </div>
  );
}
