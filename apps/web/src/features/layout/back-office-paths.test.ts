import { describe, expect, it } from 'vitest';
import { isBackOfficePath } from './back-office-paths';
import { STATIC_VIEW_ROUTES } from './view-routes';

describe('isBackOfficePath', () => {
  it.each([
    ['/dashboard', true],
    ['/system/user', true],
    ['/monitor/server', true],
    ['/sys-tools/database', true],
    ['/course/term/applicant', true],
    ['/exam/question', true],
    ['/cert/template', true],
    ['/edu/edit-lesson', true],
    ['/nonexistent-page', false],
    ['/dashboards', false],
    ['/', false],
    ['', false],
  ])('%s → %s', (path, expected) => {
    expect(isBackOfficePath(path)).toBe(expected);
  });

  it('knows every view of the back office’s own', () => {
    const paths = (routes: typeof STATIC_VIEW_ROUTES): string[] => routes.flatMap((route) => [route.path, ...paths(route.children)]);
    for (const path of paths(STATIC_VIEW_ROUTES)) expect(isBackOfficePath(path), path).toBe(true);
  });
});
