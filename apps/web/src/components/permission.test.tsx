import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useUserStore } from '../features/auth/user-store';
import { Permission, useCheckPermission } from './permission';

function withRoles(roles: string[]) {
  useUserStore.setState({ roles });
}

describe('<Permission>', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    useUserStore.setState({ roles: [] });
  });

  it('renders its children for a user holding one of the roles', () => {
    withRoles(['user:list', 'user:add']);
    render(<Permission roles={['admin', 'user:add']}>add user</Permission>);
    expect(screen.getByText('add user')).toBeTruthy();
  });

  it('hides them from a user holding none', () => {
    withRoles(['user:list']);
    render(<Permission roles={['admin', 'user:del']}>delete user</Permission>);
    expect(screen.queryByText('delete user')).toBeNull();
  });

  it('lets admin through whatever the list', () => {
    withRoles(['admin']);
    render(<Permission roles={['menu:del']}>delete menu</Permission>);
    expect(screen.getByText('delete menu')).toBeTruthy();
  });

  it('renders for an empty list', () => {
    withRoles(['ROLE_SYSTEM_DEFAULT']);
    render(<Permission roles={[]}>for everyone</Permission>);
    expect(screen.getByText('for everyone')).toBeTruthy();
  });

  it('follows the roles as they change', () => {
    withRoles([]);
    render(<Permission roles={['dept:edit']}>edit dept</Permission>);
    expect(screen.queryByText('edit dept')).toBeNull();
    act(() => withRoles(['dept:edit']));
    expect(screen.getByText('edit dept')).toBeTruthy();
  });

  it("throws 'usage: v-permission=[admin,editor]' for a list that is no array", () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    withRoles(['admin']);
    const notAList = 'admin' as unknown as PermissionCheck[];
    expect(() => render(<Permission roles={notAList}>x</Permission>)).toThrow('usage: v-permission=[admin,editor]');
  });
});

describe('useCheckPermission', () => {
  afterEach(() => useUserStore.setState({ roles: [] }));

  it('is false for an empty list, even for admin', () => {
    withRoles(['admin']);
    const { result } = renderHook(() => useCheckPermission());
    expect(result.current([])).toBe(false);
  });

  it('is true for admin with any list', () => {
    withRoles(['admin']);
    const { result } = renderHook(() => useCheckPermission());
    expect(result.current(['storage:del'])).toBe(true);
  });

  it('is true when a role is shared and false otherwise', () => {
    withRoles(['roles:list', 'roles:edit']);
    const { result } = renderHook(() => useCheckPermission());
    expect(result.current(['roles:edit'])).toBe(true);
    expect(result.current(['roles:del', 'admin'])).toBe(false);
  });

  it('is false, without throwing, for something that is no list', () => {
    withRoles(['admin']);
    const { result } = renderHook(() => useCheckPermission());
    expect(result.current('admin' as unknown as PermissionCheck[])).toBe(false);
  });
});

describe('permission codes', () => {
  afterEach(() => {
    cleanup();
    useUserStore.setState({ roles: [] });
  });

  it('must be codes the product knows: a misspelt one does not compile', () => {
    withRoles(['user:list']);
    const { result } = renderHook(() => useCheckPermission());
    // @ts-expect-error 'usr:list' is no Permission (typecheck fails if this ever compiles)
    expect(result.current(['usr:list'])).toBe(false);
    // @ts-expect-error nor is a code with the wrong action
    render(<Permission roles={['user:lsit']}>misspelt</Permission>);
    expect(screen.queryByText('misspelt')).toBeNull();
  });
});
