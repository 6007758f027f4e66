import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from './app-store';
import { useResizeHandler } from './use-resize-handler';

let bodyWidth = 1280;

function Shell() {
  useResizeHandler();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <>
      <p>at {pathname}</p>
      <button type="button" onClick={() => navigate('/system/role')}>
        go
      </button>
    </>
  );
}

function renderShell() {
  return render(
    <MemoryRouter initialEntries={['/system/user']}>
      <Shell />
    </MemoryRouter>,
  );
}

function resizeTo(width: number) {
  bodyWidth = width;
  act(() => {
    window.dispatchEvent(new Event('resize'));
  });
}

const state = () => useAppStore.getState();

describe('useResizeHandler', () => {
  beforeEach(() => {
    vi.spyOn(document.body, 'getBoundingClientRect').mockImplementation(() => ({ width: bodyWidth }) as DOMRect);
    useAppStore.setState({ device: 'desktop', sidebar: { opened: true, withoutAnimation: false } });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    bodyWidth = 1280;
  });

  it('keeps a wide screen a desktop with its sidebar as it was', () => {
    bodyWidth = 1280;
    renderShell();
    expect(state().device).toBe('desktop');
    expect(state().sidebar).toEqual({ opened: true, withoutAnimation: false });
  });

  it('makes a body under 992 px mobile and closes the sidebar without animation', () => {
    bodyWidth = 991;
    renderShell();
    expect(state().device).toBe('mobile');
    expect(state().sidebar).toEqual({ opened: false, withoutAnimation: true });
  });

  it('counts exactly 992 px as a desktop', () => {
    bodyWidth = 992;
    renderShell();
    expect(state().device).toBe('desktop');
    expect(state().sidebar.opened).toBe(true);
  });

  it('follows window resizes both ways', () => {
    renderShell();
    resizeTo(600);
    expect(state().device).toBe('mobile');
    expect(state().sidebar).toEqual({ opened: false, withoutAnimation: true });
    resizeTo(1400);
    expect(state().device).toBe('desktop');
    // Growing back does not reopen the menu by itself.
    expect(state().sidebar.opened).toBe(false);
  });

  it('stops listening once unmounted', () => {
    const { unmount } = renderShell();
    unmount();
    resizeTo(600);
    expect(state().device).toBe('desktop');
  });

  it('closes an open sidebar on a route change on mobile', () => {
    bodyWidth = 500;
    renderShell();
    act(() => state().toggleSidebar());
    expect(state().sidebar.opened).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'go' }));
    expect(screen.getByText('at /system/role')).toBeTruthy();
    expect(state().sidebar.opened).toBe(false);
  });

  it('leaves the sidebar open on a route change on a desktop', () => {
    renderShell();
    fireEvent.click(screen.getByRole('button', { name: 'go' }));
    expect(screen.getByText('at /system/role')).toBeTruthy();
    expect(state().sidebar.opened).toBe(true);
  });
});
