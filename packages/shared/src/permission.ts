import { ADMIN_PERMISSION } from './constants.js';

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
