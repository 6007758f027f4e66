// Whether an address is the back office's, decided without the menu tree (a learner has none):
// someone who may not use the back office is refused there (401), while an address that is
// nobody's is unknown (404) to everyone. Import-free: the gate that asks is on every first screen.

/**
 * The first segments of the back office's addresses: its own views (`STATIC_VIEW_ROUTES`:
 * /dashboard, /user/center, the hidden /edu pages, the database monitor's /druid) and the directories the server's menus ship
 * (system, monitoring, tools, courses, exams, certificates).
 */
export const BACK_OFFICE_SECTIONS: readonly string[] = ['dashboard', 'user', 'edu', 'druid', 'system', 'monitor', 'sys-tools', 'course', 'exam', 'cert'];

export function isBackOfficePath(pathname: string): boolean {
  const first = pathname.split('/').find((segment) => segment !== '');
  return first !== undefined && BACK_OFFICE_SECTIONS.includes(first);
}
