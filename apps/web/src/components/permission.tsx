import { checkPermission, hasPermission, type PermissionCheck } from '@cloud-classroom/shared/permission';
import type { ReactNode } from 'react';
import { useUserStore } from '../features/auth/user-store';

/**
 * The `v-permission` directive as a wrapper: renders its children only for a user holding one
 * of `roles` (an empty list lets everyone through; a non-array throws the spec's usage error).
 * A code that is no `Permission` (shared/permission.ts) does not compile.
 */
export function Permission({ roles, children }: { roles: readonly PermissionCheck[]; children: ReactNode }) {
  const userRoles = useUserStore((state) => state.roles);
  return hasPermission(userRoles, roles) ? children : null;
}

/** The spec's `checkPermission`: false for an empty list, true for any shared role; `admin` passes all. */
export function useCheckPermission(): (required: readonly PermissionCheck[]) => boolean {
  const userRoles = useUserStore((state) => state.roles);
  return (required) => checkPermission(userRoles, required);
}
