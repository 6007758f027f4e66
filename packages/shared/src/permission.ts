import { ADMIN_PERMISSION } from './constants.js';

/**
 * Every permission code the product checks: a menu or button grants one, a route demands one,
 * a page shows a button to its holders. A code outside this list does not compile where one is
 * expected (`config.access`, the seed's menus, `<Permission>`); a new capability adds its codes here.
 */
export const PERMISSIONS = [
  'user:list',
  'user:add',
  'user:edit',
  'user:del',
  'roles:list',
  'roles:add',
  'roles:edit',
  'roles:del',
  'menu:list',
  'menu:add',
  'menu:edit',
  'menu:del',
  'dept:list',
  'dept:add',
  'dept:edit',
  'dept:del',
  'dict:list',
  'dict:add',
  'dict:edit',
  'dict:del',
  'storage:list',
  'storage:add',
  'storage:edit',
  'storage:del',
  'deploy:list',
  'deploy:add',
  'deploy:edit',
  'deploy:del',
  'online:list',
  'online:del',
  'log:list',
  'monitor:list',
  'monitor:reset',
  'swagger:list',
  'database:list',
  'database:add',
  'database:edit',
  'database:del',
  'course:list',
  'course:add',
  'course:edit',
  'course:del',
  'applicant:list',
  'applicant:add',
  'applicant:edit',
  'applicant:del',
  'question:list',
  'question:add',
  'question:edit',
  'question:del',
  'exam:list',
  'exam:add',
  'exam:edit',
  'exam:del',
  'mark:list',
  'mark:edit',
  'cert:list',
  'cert:add',
  'cert:edit',
  'cert:del',
  'cert:issue',
  'cert:revoke',
  'census:list',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What a page may ask of the caller: a permission, or `'admin'` for administrators alone (who pass every check). */
export type PermissionCheck = Permission | typeof ADMIN_PERMISSION;

export function isPermission(code: string): code is Permission {
  return (PERMISSIONS as readonly string[]).includes(code);
}

export const PERMISSION_USAGE_ERROR = 'usage: v-permission=[admin,editor]';

function grants(userRoles: readonly string[], required: readonly unknown[]): boolean {
  return userRoles.includes(ADMIN_PERMISSION) || userRoles.some((role) => required.includes(role));
}

// Directive semantics: a malformed permission list is a programming error, so it fails loudly.
export function hasPermission(userRoles: readonly string[], required: unknown): boolean {
  if (!Array.isArray(required)) throw new Error(PERMISSION_USAGE_ERROR);
  return required.length === 0 || grants(userRoles, required);
}

// Called from render logic, where throwing would take the page down; anything malformed just denies.
export function checkPermission(userRoles: readonly string[], required: unknown): boolean {
  return Array.isArray(required) && required.length > 0 && grants(userRoles, required);
}
