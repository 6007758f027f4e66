import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useEffect, type ComponentType } from 'react';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { useSelectedCourseStore } from '../courses/selected-course-store';
import { useTagsViewStore } from '../tags-view/tags-view-store';
import { AppMain, type PageLoader } from './app-main';
import { STATIC_VIEW_ROUTES, toViewRoutes, type ViewRoute } from './view-routes';

const ROUTES: ViewRoute[] = [
  ...STATIC_VIEW_ROUTES,
  ...toViewRoutes([
    {
      name: '系统管理',
      path: '/system',
      hidden: false,
      component: 'Layout',
      redirect: 'noredirect',
      meta: { title: '系统管理', titleEn: null, icon: 'system', noCache: true },
      children: [
        { name: 'User', path: 'user', hidden: false, component: 'system/user/index', meta: { title: '用户管理', titleEn: null, icon: 'peoples', noCache: false } },
        { name: 'Role', path: 'role', hidden: false, component: 'system/role/index', meta: { title: '角色管理', titleEn: null, icon: 'role', noCache: false } },
        { name: 'Gone', path: 'gone', hidden: false, component: 'system/gone/index', meta: { title: '旧页面', titleEn: null, icon: null, noCache: true } },
      ],
    },
    {
      name: '课程',
      path: '/course',
      hidden: false,
      component: 'Layout',
      redirect: 'noredirect',
      meta: { title: '课程', titleEn: null, icon: 'education', noCache: true },
      children: [
        { name: 'Course', path: 'course', hidden: false, component: 'course/course/index', meta: { title: '课程管理', titleEn: null, icon: null, noCache: true } },
        { name: 'Term', path: 'term/:id', hidden: true, component: 'course/term/index', meta: { title: '章节', titleEn: null, icon: null, noCache: false } },
        { name: 'EditLesson', path: 'edit-lesson', hidden: true, component: 'course/edit-lesson', meta: { title: '编辑课时', titleEn: null, icon: null, noCache: true } },
      ],
    },
  ]),
];

/** Every page a stub saying which it is and counting its mounts; 'system/gone/index' is not in this build. */
const mounts: Record<string, number> = {};
function stubPage(component: string): ComponentType {
  return function StubPage() {
    useEffect(() => {
      mounts[component] = (mounts[component] ?? 0) + 1;
    }, []);
    return <p>page {component}</p>;
  };
}
const loadPage: PageLoader = (component) =>
  component === 'system/gone/index' ? undefined : async () => ({ default: stubPage(component) });

/** Where the router is, and a way to go elsewhere from outside the tree. */
const router: { navigate: (to: string) => void } = { navigate: () => {} };
function Probe() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    router.navigate = (to) => void navigate(to);
  }, [navigate]);
  return <output aria-label="location">{`${location.pathname}${location.search}`}</output>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Probe />
      <Routes>
        <Route path="/404" element={<p>the 404 page</p>} />
        <Route path="*" element={<AppMain routes={ROUTES} loadPage={loadPage} />} />
      </Routes>
    </MemoryRouter>,
  );
}

const location = () => screen.getByLabelText('location').textContent;

function visit(path: string, name: string) {
  useTagsViewStore.getState().addView({ path, fullPath: path, query: '', name, title: name, meta: { title: name } });
}

describe('AppMain', () => {
  beforeAll(async () => {
    await initI18n('en-US');
  });
  beforeEach(() => {
    for (const key of Object.keys(mounts)) delete mounts[key];
  });
  afterEach(() => {
    cleanup();
    useTagsViewStore.getState().reset();
    useSelectedCourseStore.getState().select(undefined);
    localStorage.clear();
  });

  it('renders the page a menu route names', async () => {
    renderAt('/system/user');
    expect(await screen.findByText('page system/user/index')).toBeTruthy();
    expect(location()).toBe('/system/user');
  });

  it('matches a page with a path parameter', async () => {
    useSelectedCourseStore.getState().select({ id: 3, name: 'Java' });
    renderAt('/course/term/3');
    expect(await screen.findByText('page course/term/index')).toBeTruthy();
  });

  it('sends an unknown path to /404', async () => {
    renderAt('/system/nothing-here');
    expect(await screen.findByText('the 404 page')).toBeTruthy();
    expect(location()).toBe('/404');
  });

  it('sends a directory, which is no page, to /404', async () => {
    renderAt('/system');
    expect(await screen.findByText('the 404 page')).toBeTruthy();
  });

  it("says 'Page not found in this build' for a page name the build lacks", async () => {
    renderAt('/system/gone');
    expect(await screen.findByText('Page not found in this build')).toBeTruthy();
    expect(screen.getByText(/system\/gone\/index/)).toBeTruthy();
  });

  it.each(['/course/term/3', '/course/edit-lesson?id=9'])('sends %s to /course/course while no course is selected', async (path) => {
    renderAt(path);
    expect(await screen.findByText('page course/course/index')).toBeTruthy();
    expect(location()).toBe('/course/course');
  });

  it('opens a path that needs a course once one is selected', async () => {
    useSelectedCourseStore.getState().select({ id: 3, name: 'Java' });
    renderAt('/course/edit-lesson?id=9');
    expect(await screen.findByText('page course/edit-lesson')).toBeTruthy();
    expect(location()).toBe('/course/edit-lesson?id=9');
  });

  it('/redirect/<path> bumps the refresh key and lands back on <path> with its query', async () => {
    renderAt('/redirect/system/user?page=2');
    expect(await screen.findByText('page system/user/index')).toBeTruthy();
    expect(location()).toBe('/system/user?page=2');
    expect(useTagsViewStore.getState().refreshKeys).toEqual({ '/system/user': 1 });
  });

  it('/redirect/<path> re-mounts the page that is open', async () => {
    renderAt('/system/user');
    await screen.findByText('page system/user/index');
    expect(mounts['system/user/index']).toBe(1);
    act(() => router.navigate('/redirect/system/user'));
    expect(await screen.findByText('page system/user/index')).toBeTruthy();
    expect(location()).toBe('/system/user');
    expect(mounts['system/user/index']).toBe(2);
  });

  it('/redirect/<path> re-mounts a page with a path parameter', async () => {
    useSelectedCourseStore.getState().select({ id: 3, name: 'Java' });
    renderAt('/course/term/3');
    await screen.findByText('page course/term/index');
    act(() => router.navigate('/redirect/course/term/3'));
    await screen.findByText('page course/term/index');
    expect(location()).toBe('/course/term/3');
    expect(mounts['course/term/index']).toBe(2);
  });

  it('keeps a cached view mounted but hidden while another is shown', async () => {
    visit('/system/user', 'User');
    visit('/system/role', 'Role');
    renderAt('/system/role');
    const shown = await screen.findByText('page system/role/index');
    const kept = await screen.findByText('page system/user/index');
    expect(shown.closest('.app-view')?.hasAttribute('hidden')).toBe(false);
    expect(kept.closest('.app-view')?.hasAttribute('hidden')).toBe(true);
    act(() => router.navigate('/system/user'));
    await screen.findByText('page system/user/index');
    // Coming back shows the same instance: the page was not mounted again.
    expect(mounts['system/user/index']).toBe(1);
  });

  it('does not keep a view whose tab was closed', async () => {
    visit('/system/user', 'User');
    visit('/system/role', 'Role');
    act(() => useTagsViewStore.getState().closeView('/system/user'));
    renderAt('/system/role');
    await screen.findByText('page system/role/index');
    expect(screen.queryByText('page system/user/index')).toBeNull();
  });

  it('renders the open page of a cached view with a path parameter once', async () => {
    useSelectedCourseStore.getState().select({ id: 3, name: 'Java' });
    visit('/course/term/3', 'Term');
    renderAt('/course/term/3');
    await screen.findByText('page course/term/index');
    expect(screen.getAllByText('page course/term/index')).toHaveLength(1);
  });

  it('refreshing one view leaves the other cached views mounted', async () => {
    visit('/system/user', 'User');
    visit('/system/role', 'Role');
    renderAt('/system/role');
    await screen.findByText('page system/role/index');
    await screen.findByText('page system/user/index');
    act(() => router.navigate('/redirect/system/role'));
    await waitFor(() => expect(location()).toBe('/system/role'));
    await screen.findByText('page system/role/index');
    expect(mounts['system/role/index']).toBe(2);
    expect(mounts['system/user/index']).toBe(1);
  });

  it('keeps one page with a path parameter open under two paths', async () => {
    useSelectedCourseStore.getState().select({ id: 3, name: 'Java' });
    visit('/course/term/3', 'Term');
    visit('/course/term/4', 'Term');
    renderAt('/course/term/4');
    await screen.findAllByText('page course/term/index');
    const views = screen.getAllByText('page course/term/index').map((page) => page.closest('.app-view')?.hasAttribute('hidden'));
    expect(views).toEqual([true, false]);
  });
});
