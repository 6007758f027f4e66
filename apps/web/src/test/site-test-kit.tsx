/** Test helpers of the learner pages (tests only). */
import type { User } from '@cloud-classroom/shared/users';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { useUserStore } from '../features/auth/user-store';

export const learner: User = {
  id: 7,
  username: 'learner1',
  nickName: '李明',
  gender: '男',
  phone: '13800000002',
  email: 'liming@example.com',
  avatarName: null,
  enabled: true,
  pwdResetTime: null,
  dept: { id: 2, name: '研发部' },
  roles: [],
  createBy: null,
  updateBy: null,
  createTime: '2025-01-01 00:00:00',
  updateTime: '2025-01-01 00:00:00',
};

/** Signs in as the learner (roles as given: `['user:list']` makes staff). */
export function signIn(roles: string[] = ['ROLE_SYSTEM_DEFAULT'], user: User = learner): void {
  useUserStore.setState({ token: 'Bearer t', user, roles });
}

/** Where the router is, shown for the test to read (`screen.getByTestId('location')`). */
function Location() {
  const location = useLocation();
  return (
    <output data-testid="location" data-state={location.state === null ? undefined : JSON.stringify(location.state)}>
      {location.pathname + location.search}
    </output>
  );
}

/** Renders `page` at `path` under the route `pattern` (`/preview/:id`), with the location shown. */
export function renderAt(page: ReactElement, path: string, pattern = path.split('?')[0] ?? path) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path={pattern} element={page} />
        <Route path="*" element={null} />
      </Routes>
      <Location />
    </MemoryRouter>,
  );
}
